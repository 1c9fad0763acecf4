// Child process for the mixed-load benchmarks: N clients posting the maximum spectral
// request (32×2048, every optional field) in a loop to the given port, from their own
// process, so the measuring process's event loop (autocannon) is not held by writing
// 7 MB bodies and the latencies it records are the server's. The body is encoded once.
// Reports `ready` when the first answer came back; on `stop` reports the status counts.
import { Agent, request } from 'undici';
import { seriesRequest } from '../test/helpers/analysis-requests.js';

const [port, clients] = process.argv.slice(2).map(Number);
const body = Buffer.from(JSON.stringify(seriesRequest({ series: 32, points: 2048, allFields: true })));
const dispatcher = new Agent({ connections: clients });
const statuses: Record<string, number> = {};
let stop = false;
let ready = false;

async function client(): Promise<void> {
  while (!stop) {
    const res = await request(`http://127.0.0.1:${port}/v1/spectral/assess`, { method: 'POST', body, headers: { 'content-type': 'application/json' }, dispatcher });
    await res.body.arrayBuffer();
    statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
    if (!ready) {
      ready = true;
      process.send?.({ ready: true, bodyBytes: body.length });
    }
  }
}

const running = Promise.all(Array.from({ length: clients }, client));
process.on('message', (m) => {
  if (m !== 'stop') return;
  stop = true;
  void running.then(async () => {
    await dispatcher.close();
    process.send?.({ statuses });
    process.disconnect();
  });
});
process.on('disconnect', () => process.exit(0));
