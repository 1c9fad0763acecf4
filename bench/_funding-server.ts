// Child process for `npm run bench -- funding`: a real Evidence Desk server on SQLite
// holding one captured packet (recorded publisher documents served by a local HTTP
// server), its clock frozen a minute after the capture so latest stays fresh, plus a bare
// node:http server answering a constant body of the same size (and, for a POST, the floor of
// an analysis request: see below). Reports both ports and the
// body over IPC; stops when the parent disconnects.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { instant, liveConfig, startPublisherServer } from '../test/funding/support.js';
import { answerCpuQueries, portOf, serveUntilDisconnect } from './_child.js';
import { recordAnalysisPhases } from './_phases.js';
import { serviceModule } from './_service.js';

const { defaultConfig } = await serviceModule<typeof import('../src/core/config.js')>('core/config');
const { sha256Hex } = await serviceModule<typeof import('../src/core/hash.js')>('core/hash');
const { buildApp } = await serviceModule<typeof import('../src/http/app.js')>('http/app');
const { captureOnce } = await serviceModule<typeof import('../src/funding/capture.js')>('funding/capture');
const { currentEvidence, latestBody } = await serviceModule<typeof import('../src/funding/latest.js')>('funding/latest');
const { openSqliteStorage } = await serviceModule<typeof import('../src/storage/sqlite.js')>('storage/sqlite');

const role = process.argv[2];

if (role === 'bare') {
  // Same bytes, same validator: what a do-nothing server costs.
  const body = Buffer.from(process.argv[3], 'base64');
  const etag = `"${sha256Hex(body)}"`;
  // A POST is the analysis floor: the body received and read by JSON.parse, then an answer of
  // `x-answer-bytes` bytes, with no validation, computation or encoding. What any Node server
  // spends on a request of that size besides the analysis itself.
  const answers = new Map<number, Buffer>();
  const answerOf = (n: number) => {
    let b = answers.get(n);
    if (!b) answers.set(n, (b = Buffer.from(`"${'x'.repeat(Math.max(0, n - 2))}"`)));
    return b;
  };
  const server = http.createServer((req, res) => {
    if (req.method === 'POST') {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        JSON.parse(Buffer.concat(chunks).toString('utf8'));
        const out = answerOf(Number(req.headers['x-answer-bytes'] ?? 2));
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': out.length }).end(out);
      });
      return;
    }
    const headers = { 'content-type': 'application/json', etag, 'cache-control': 'private, no-cache, must-revalidate, no-transform' };
    if (req.headers['if-none-match'] === etag) {
      res.writeHead(304, headers).end();
    } else {
      res.writeHead(200, { ...headers, 'content-length': body.length }).end(body);
    }
  });
  server.keepAliveTimeout = 60_000;
  answerCpuQueries();
  server.listen(0, '127.0.0.1', () => {
    process.send?.({ port: portOf(server.address()) });
  });
  process.on('disconnect', () => server.close(() => process.exit(0)));
} else {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-funding-'));
  const storage = await openSqliteStorage({ file: path.join(dir, 'evidence.db') });
  const publishers = await startPublisherServer();
  const captureClock = instant('2026-10-21T12:00:00Z');
  const captured = await captureOnce({ storage, config: liveConfig(publishers), clock: () => captureClock });
  await publishers.close();
  if (!captured.ran || captured.attempt.outcome !== 'packet_created') throw new Error(`capture failed: ${JSON.stringify(captured)}`);
  const frozen = captureClock + 60_000_000n;
  const config = { ...defaultConfig(), logLevel: 'silent' as const, captureInterval: 0, maxEventLoopDelay: 0 };
  // The read path alone, in process: every readiness check and the body, no HTTP, no usage.
  const rounds = 2000;
  const t0 = performance.now();
  for (let i = 0; i < rounds; i++) latestBody((await currentEvidence(storage, config, frozen)).packet, false);
  const checksMs = (performance.now() - t0) / rounds;
  const app = await buildApp({ config, storage, clock: () => frozen });
  const phases = recordAnalysisPhases(app);
  await app.listen({ host: '127.0.0.1', port: 0 });
  answerCpuQueries();
  // Peak resident memory of the whole process (worker threads included), on request.
  process.on('message', (m) => {
    if (m === 'rss') {
      const { rss, heapTotal, external } = process.memoryUsage();
      const mib = (n: number) => n / 2 ** 20;
      process.send?.({ maxRssMiB: process.resourceUsage().maxRSS / 1024, rssMiB: mib(rss), mainHeapMiB: mib(heapTotal), externalMiB: mib(external) });
    }
    if (m === 'phases') process.send?.({ phases: phases.splice(0) });
    if (m === 'revalidated') process.send?.({ revalidated: app.revalidation.answered });
    if (m === 'served') process.send?.({ served: app.revalidation.served });
  });
  serveUntilDisconnect({ port: portOf(app.server.address()), checksMs }, async () => {
    await app.close();
    await storage.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
}
