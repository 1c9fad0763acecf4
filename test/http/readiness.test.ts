import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import pg from 'pg';
import { sql } from 'kysely';
import { backends, postgresUrl, tempDir } from '../helpers/storage.js';
import { makeTestApp } from '../helpers/app.js';
import { openSqliteStorage } from '../../src/storage/sqlite.js';
import { openPostgresStorage } from '../../src/storage/postgres.js';
import { captureOnce } from '../../src/funding/capture.js';
import { defaultConfig } from '../../src/core/config.js';
import { nowInstant } from '../../src/core/time.js';
import { corruptTables, eventually, restoreFile } from '../helpers/sqlite-corrupt.js';

// Load shedding answers 503 when the shared test machine stalls the loop; it is not what these tests are about.
const NO_SHEDDING = { maxEventLoopDelay: 0 };

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

for (const backend of backends) {
  describe(`readiness on ${backend.name}`, () => {
    it('reports ready while the store answers and 503 with a code once it is gone', async () => {
      const { storage, cleanup } = await backend.open();
      const t = await makeTestApp(NO_SHEDDING, { storage });
      try {
        const ok = await t.app.inject({ method: 'GET', url: '/readyz' });
        expect(ok.statusCode).toBe(200);
        expect(ok.json().storage).toBe(backend.name);
        await storage.close();
        const down = await t.app.inject({ method: 'GET', url: '/readyz' });
        expect(down.statusCode).toBe(503);
        expect(down.json().code).toBe('storage_unavailable');
        expect(down.headers['retry-after']).toBeDefined();
        const live = await t.app.inject({ method: 'GET', url: '/healthz' });
        expect(live.statusCode).toBe(200);
      } finally {
        await t.close();
        await cleanup();
      }
    });
  });
}

describe('readiness on a damaged SQLite store', () => {
  it('is 503 exactly while the funding routes are, and both recover by themselves once the file is restored', async () => {
    const dir = tempDir();
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, 'evidence.db');
    const config = { mode: 'sample' as const, publisherBases: defaultConfig().publisherBases };
    const first = await openSqliteStorage({ file });
    expect((await captureOnce({ storage: first, config, clock: nowInstant })).ran).toBe(true);
    await first.close();
    const pristine = fs.readFileSync(file);
    corruptTables(file, ['funding_attempts', 'funding_packets']);

    const storage = await openSqliteStorage({ file });
    cleanups.push(() => storage.close());
    const t = await makeTestApp({ mode: 'sample', ...NO_SHEDDING }, { storage });
    cleanups.push(() => t.close());
    const get = (url: string) => t.app.inject({ method: 'GET', url });

    // Asked first, before any route has read the damaged tables.
    const ready = await get('/readyz');
    expect(ready.statusCode).toBe(503);
    expect(ready.json().code).toBe('storage_unavailable');
    expect(ready.headers['retry-after']).toBe('5');
    for (const url of ['/v1/funding/latest', '/v1/funding/history']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(503);
      expect(res.json().code, url).toBe('storage_unavailable');
      expect(res.headers['retry-after'], url).toBeDefined();
    }
    expect((await get('/healthz')).statusCode).toBe(200);

    restoreFile(file, pristine);
    await eventually(async () => {
      const res = await get('/readyz');
      if (res.statusCode !== 200) throw new Error(`readyz still ${res.statusCode}`);
    });
    expect((await get('/v1/funding/latest')).statusCode).toBe(200);
    expect((await get('/v1/funding/history')).statusCode).toBe(200);
  });
});

describe('a full disk under a SQLite store', () => {
  it('answers writing routes 503 storage_unavailable (never 500), is not ready, and recovers once there is room', async () => {
    const dir = tempDir();
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    const storage = await openSqliteStorage({ file: path.join(dir, 'evidence.db') });
    cleanups.push(() => storage.close());
    const t = await makeTestApp({ mode: 'sample', ...NO_SHEDDING }, { storage });
    cleanups.push(() => t.close());
    const get = (url: string) => t.app.inject({ method: 'GET', url });
    // max_page_count stands in for the disk: the file cannot grow past its size now (SQLITE_FULL).
    const { rows: [{ page_count: pages }] } = await sql<{ page_count: number }>`pragma page_count`.execute(storage.db);
    await sql.raw(`pragma max_page_count = ${pages}`).execute(storage.db);

    // A data query stores the sources' documents as a snapshot first.
    for (const url of ['/api/v1/query?dataset=money_markets', '/api/v1/sources', '/api/v1/agent-review']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(503);
      expect(res.json(), url).toMatchObject({ code: 'storage_unavailable' });
      expect(res.headers['retry-after'], url).toBe('5');
    }
    const ready = await get('/readyz');
    expect(ready.statusCode).toBe(503);
    expect(ready.json().code).toBe('storage_unavailable');
    expect((await get('/healthz')).statusCode).toBe(200);

    await sql.raw('pragma max_page_count = 1073741823').execute(storage.db);
    expect((await get('/readyz')).statusCode).toBe(200);
    expect((await get('/api/v1/query?dataset=money_markets')).statusCode).toBe(200);
  });
});

describe.runIf(postgresUrl)('readiness through a PostgreSQL outage', () => {
  it('is 503 while the server cannot be reached and 200 again once it can, with the same pool', async () => {
    const target = new URL(postgresUrl!);
    let accepting = true;
    const sockets = new Set<net.Socket>();
    // A TCP relay in front of the server: closing it is an outage this test can cause alone.
    const relay = net.createServer((client) => {
      if (!accepting) return client.destroy();
      const upstream = net.connect(Number(target.port || 5432), target.hostname);
      for (const s of [client, upstream]) {
        sockets.add(s);
        s.on('close', () => sockets.delete(s));
        s.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => relay.close(() => resolve())));
    const viaRelay = new URL(postgresUrl!);
    viaRelay.hostname = '127.0.0.1';
    viaRelay.port = String((relay.address() as net.AddressInfo).port);
    const schema = `t_${randomBytes(6).toString('hex')}`;
    cleanups.push(async () => {
      const client = new pg.Client({ connectionString: postgresUrl });
      await client.connect();
      await client.query(`drop schema if exists ${schema} cascade`);
      await client.end();
    });
    const storage = await openPostgresStorage({ connectionString: viaRelay.toString(), schema });
    cleanups.push(() => storage.close());
    const t = await makeTestApp(NO_SHEDDING, { storage });
    cleanups.push(() => t.close());

    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    accepting = false;
    for (const s of sockets) s.destroy();
    const down = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(down.statusCode).toBe(503);
    expect(down.json().code).toBe('storage_unavailable');
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);

    accepting = true;
    await eventually(async () => {
      const res = await t.app.inject({ method: 'GET', url: '/readyz' });
      if (res.statusCode !== 200) throw new Error(`readyz still ${res.statusCode}`);
    });
  });
});
