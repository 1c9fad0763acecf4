// scratch: service with phase timestamps
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defaultConfig } from '../src/core/config.js';
import { nowInstant } from '../src/core/time.js';
import { buildApp } from '../src/http/app.js';
import { openSqliteStorage } from '../src/storage/sqlite.js';
import { portOf, serveUntilDisconnect } from '../bench/_child.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-server-'));
const storage = await openSqliteStorage({ file: path.join(dir, 'evidence.db') });
const config = { ...defaultConfig(), logLevel: 'silent' as const, captureInterval: 0 };
const app = await buildApp({ config, storage, clock: nowInstant });
const T = (globalThis as any).__T = [] as [string, number][];
app.server.prependListener('request', (req) => { T.length = 0; T.push(['request', performance.now()]); req.once('end', () => T.push(['req-end', performance.now()])); });
app.addHook('onRequest', async () => { T.push(['onRequest', performance.now()]); });
app.addHook('preValidation', async () => { T.push(['parsed', performance.now()]); });
app.addHook('onSend', async () => { T.push(['onSend', performance.now()]); });
app.addHook('onResponse', async () => { T.push(['onResponse', performance.now()]); const t0 = T[0][1]; console.log(T.map(([n, t]) => `${n}+${(t - t0).toFixed(1)}`).join(' ')); });
await app.listen({ host: '127.0.0.1', port: 0 });
process.on('message', (m) => { if (m === 'rss') process.send?.({ maxRssMiB: process.resourceUsage().maxRSS / 1024 }); });
serveUntilDisconnect({ port: portOf(app.server.address()) }, async () => { await app.close(); await storage.close(); });
