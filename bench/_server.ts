// A service instance for benchmarks, in its own process so the measuring process never
// blocks its event loop. Reports its port over IPC and stops when the parent disconnects.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { portOf, serveUntilDisconnect } from './_child.js';
import { serviceModule } from './_service.js';

const { defaultConfig } = await serviceModule<typeof import('../src/core/config.js')>('core/config');
const { nowInstant } = await serviceModule<typeof import('../src/core/time.js')>('core/time');
const { buildApp } = await serviceModule<typeof import('../src/http/app.js')>('http/app');
const { openSqliteStorage } = await serviceModule<typeof import('../src/storage/sqlite.js')>('storage/sqlite');

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-server-'));
const storage = await openSqliteStorage({ file: path.join(dir, 'evidence.db') });
const config = { ...defaultConfig(), logLevel: 'silent' as const, captureInterval: 0 };
const app = await buildApp({ config, storage, clock: nowInstant });
await app.listen({ host: '127.0.0.1', port: 0 });
serveUntilDisconnect({ port: portOf(app.server.address()) }, async () => {
  await app.close();
  await storage.close();
  fs.rmSync(dir, { recursive: true, force: true });
});
