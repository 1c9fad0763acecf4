import { fork } from 'node:child_process';
import path from 'node:path';
import { Agent, request } from 'undici';
import { seriesRequest, narrativeRequest } from '../test/helpers/analysis-requests.js';
import { runJob } from '../src/http/analysis/job.js';

const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
const child = fork(path.resolve('' + (process.env.SERVER ?? 'bench/_funding-server.ts')), ['service'], { execArgv: ['--import', 'tsx', ...(process.env.CHILD_ARGS?.split(' ').filter(Boolean) ?? [])], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
const port = await new Promise<number>((r) => child.once('message', (m) => r((m as { port: number }).port)));
const dispatcher = new Agent({ connections: 8 });
const cases = [
  ['market max', '/v1/market/assess', 'market_assessment', JSON.stringify(seriesRequest({ series: 32, points: 2048, allFields: true }))],
  ['market med', '/v1/market/assess', 'market_assessment', JSON.stringify(seriesRequest({ series: 8, points: 512, allFields: true }))],
  ['narr max', '/v1/narrative/triage', 'narrative_triage', JSON.stringify(narrativeRequest({ events: 500, titleLength: 2000 }))],
] as const;
const reps = Number(process.env.REPS ?? 15);
for (const [name, p, tool, body] of cases) {
  const bytes = Buffer.from(body);
  const job: number[] = [];
  for (let i = 0; i < reps; i++) { const t = performance.now(); runJob({ tool, bytes }); job.push(performance.now() - t); }
  const e2e: number[] = [];
  for (let i = 0; i < reps + 2; i++) {
    const t = performance.now();
    const res = await request(`http://127.0.0.1:${port}${p}`, { method: 'POST', body, headers: { 'content-type': 'application/json' }, dispatcher });
    await res.body.arrayBuffer();
    if (i >= 2) e2e.push(performance.now() - t);
  }
  console.log(`${name.padEnd(12)} bytes ${bytes.length} runJob ${median(job).toFixed(2)} e2e ${median(e2e).toFixed(2)}`);
}
child.send('rss');
console.log(await new Promise((r) => child.once('message', r)));
await dispatcher.close();
child.disconnect();
