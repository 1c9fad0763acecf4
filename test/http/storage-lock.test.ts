// The repro of issue 13 §2: another process holds BEGIN IMMEDIATE on evidence.db while a
// client enrolls. Unrelated routes must answer while the enrollment waits, and the
// enrollment must end in a 201 or a coded 503, never a 500 or a frozen process.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteStorage } from '../../src/storage/sqlite.js';
import { tempDir } from '../helpers/storage.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { holdWriteLock, type LockHolder } from '../helpers/sqlite-lock.js';
import { seriesRequest } from '../helpers/analysis-requests.js';
import { enrollVia } from '../applications/support.js';

// Load shedding answers 503 when the shared test machine stalls the loop; it is not what these tests are about.
const NO_SHEDDING = { maxEventLoopDelay: 0 };

let t: TestApp | undefined;
let lock: LockHolder | undefined;
let dir: string | undefined;

afterEach(async () => {
  lock?.kill();
  await t?.close();
  await t?.storage.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  t = lock = dir = undefined;
});

async function appOnFile(busyWaitMs: number) {
  dir = tempDir();
  const file = path.join(dir, 'evidence.db');
  t = await makeTestApp(NO_SHEDDING, { storage: await openSqliteStorage({ file, busyWaitMs }) });
  return { file, app: t.app };
}

const market = JSON.stringify(seriesRequest({ series: 3, points: 48 }));

describe('an outside write lock on the SQLite file', () => {
  it('leaves /healthz, analysis and storage reads answering while an enrollment waits, and the enrollment succeeds after the release', async () => {
    // A bound far above anything this test needs: the enrollment can only end by the release.
    const { file, app } = await appOnFile(120_000);
    lock = await holdWriteLock(file);
    let enrolled: { statusCode: number } | undefined;
    const enrollment = enrollVia(app).then((res) => (enrolled = res));

    const health = await app.inject({ method: 'GET', url: '/healthz' });
    expect(health.statusCode).toBe(200);
    const analysis = await app.inject({ method: 'POST', url: '/v1/market/assess', payload: market, headers: { 'content-type': 'application/json' } });
    expect(analysis.statusCode).toBe(200);
    const history = await app.inject({ method: 'GET', url: '/v1/funding/history' });
    expect(history.statusCode).toBe(200);
    const ready = await app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    // All of that answered while the other process still held the lock and the enrollment waited.
    expect(lock.holding).toBe(true);
    expect(enrolled).toBeUndefined();

    await lock.release();
    const res = await enrollment;
    expect(res.statusCode).toBe(201);
  });

  it('answers a waiting enrollment with 503 storage_busy and Retry-After once the bounded wait is over, never a 500', async () => {
    const { file, app } = await appOnFile(200);
    lock = await holdWriteLock(file);
    const res = await enrollVia(app);
    expect(lock.holding).toBe(true);
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ code: 'storage_busy' });
    expect(res.headers['retry-after']).toBe('2');
    // Readiness stays up: the store works, another writer is merely slow.
    expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    await lock.release();
    expect((await enrollVia(app)).statusCode).toBe(201);
  });
});
