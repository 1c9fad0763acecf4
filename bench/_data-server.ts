// Child process for `npm run bench -- data`: a real Evidence Desk server on SQLite in live
// mode whose sources are served by a local HTTP server (an atlas of 10 markets × 20 history
// points, so money_market_history has exactly 200 rows), its clock frozen so the source
// cache stays warm; or a bare baseline (node:http, or Fastify with one route) answering the
// same bytes with the same validator. Reports its port over IPC (and its CPU time when
// asked); stops when the parent disconnects.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { atlasDoc } from '../test/data/documents.js';
import { liveConfig, serveJson, startSourceServer } from '../test/data/support.js';
import { portOf, serveUntilDisconnect } from './_child.js';
import { serviceModule } from './_service.js';

const { sha256Hex } = await serviceModule<typeof import('../src/core/hash.js')>('core/hash');
const { parseUtcTimestamp } = await serviceModule<typeof import('../src/core/time.js')>('core/time');
const { buildApp } = await serviceModule<typeof import('../src/http/app.js')>('http/app');
const { openSqliteStorage } = await serviceModule<typeof import('../src/storage/sqlite.js')>('storage/sqlite');

const role = process.argv[2];

// The parent asks for this process's CPU time around each measurement: CPU per request is
// steadier than requests/s on a machine other work shares.
process.on('message', (m) => {
  if (m === 'cpu') process.send?.({ cpu: process.cpuUsage() });
});

if (role === 'bare' || role === 'fastify') {
  // The body is too large for an argument: it arrives as the first IPC message.
  const body = await new Promise<Buffer>((resolve) => process.once('message', (m) => resolve(Buffer.from(m as string, 'base64'))));
  const etag = `"${sha256Hex(body)}"`;
  const headers = { 'content-type': 'application/json; charset=utf-8', etag, 'cache-control': 'no-cache' };
  if (role === 'bare') {
    const server = http.createServer((req, res) => {
      if (req.headers['if-none-match'] === etag) res.writeHead(304, headers).end();
      else res.writeHead(200, { ...headers, 'content-length': body.length }).end(body);
    });
    server.keepAliveTimeout = 60_000;
    server.listen(0, '127.0.0.1', () => process.send?.({ port: portOf(server.address()) }));
    process.on('disconnect', () => server.close(() => process.exit(0)));
  } else {
    const app = Fastify({ logger: false });
    app.get('/', (request, reply) => {
      reply.headers(headers);
      return request.headers['if-none-match'] === etag ? reply.code(304).send() : reply.send(body);
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    process.send?.({ port: portOf(app.server.address()) });
    process.on('disconnect', () => void app.close().then(() => process.exit(0)));
  }
} else {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-data-'));
  const storage = await openSqliteStorage({ file: path.join(dir, 'evidence.db') });
  const sources = await startSourceServer();
  const markets = Array.from({ length: 10 }, (_, m) => ({
    id: `M${m}-CCY`,
    name: `Market ${m}`,
    history: Array.from({ length: 20 }, (_, d) => [`2026-09-${String(d + 1).padStart(2, '0')}`, 1 + m / 10 + d / 100]),
  }));
  serveJson(sources, 'money-market', atlasDoc(markets));
  const frozen = parseUtcTimestamp('2026-09-25T12:00:00Z')!;
  const config = { ...liveConfig(sources), maxEventLoopDelay: 0 };
  const app = await buildApp({ config, storage, clock: () => frozen });
  await app.listen({ host: '127.0.0.1', port: 0 });
  // How many revalidations the service answered ahead of its router, on request.
  process.on('message', (m) => {
    if (m === 'revalidated') process.send?.({ revalidated: app.revalidation.answered });
  });
  serveUntilDisconnect({ port: portOf(app.server.address()) }, async () => {
    await app.close();
    await sources.close();
    await storage.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
}
