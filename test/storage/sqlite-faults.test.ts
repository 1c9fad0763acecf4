import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { openSqliteStorage } from '../../src/storage/sqlite.js';
import type { Storage } from '../../src/storage/storage.js';
import { tempDir } from '../helpers/storage.js';
import { corruptTables, eventually, restoreFile } from '../helpers/sqlite-corrupt.js';

let storage: Storage | undefined;
let dir: string | undefined;
afterEach(async () => {
  await storage?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  storage = dir = undefined;
});

const rows = [
  { name: 'a', holder: 'h1', expires_at: 1 },
  { name: 'b', holder: 'h2', expires_at: 2 },
];

/** A store with two lease rows, closed (so the file is whole), its bytes, then its leases table damaged. */
async function damagedStore() {
  dir = tempDir();
  const file = path.join(dir, 'evidence.db');
  const first = await openSqliteStorage({ file });
  await first.db.insertInto('leases').values(rows).execute();
  await first.close();
  const pristine = fs.readFileSync(file);
  corruptTables(file, ['leases']);
  return { file, pristine };
}

const unavailable = { code: 'storage_unavailable', status: 503, headers: { 'retry-after': '5' } };

describe('SQLite store on a damaged file', () => {
  it('fails ping before any query has met the damage, then fails queries alike', async () => {
    const { file } = await damagedStore();
    storage = await openSqliteStorage({ file });
    // The schema and migration table are intact: only a check of the whole file finds the damage.
    await expect(storage.ping()).rejects.toMatchObject(unavailable);
    await expect(storage.db.selectFrom('leases').selectAll().execute()).rejects.toMatchObject(unavailable);
    await expect(storage.ping()).rejects.toMatchObject(unavailable);
  });

  it('marks the handle faulty when a query meets the damage, so ping fails too', async () => {
    const { file } = await damagedStore();
    storage = await openSqliteStorage({ file });
    await expect(storage.db.selectFrom('leases').selectAll().execute()).rejects.toMatchObject(unavailable);
    await expect(storage.ping()).rejects.toMatchObject(unavailable);
    await expect(storage.db.insertInto('leases').values({ name: 'c', holder: 'h', expires_at: 3 }).execute()).rejects.toMatchObject(unavailable);
  });

  it('recovers by itself once the file is restored, without any other process writing to it', async () => {
    const { file, pristine } = await damagedStore();
    storage = await openSqliteStorage({ file });
    await expect(storage.db.selectFrom('leases').selectAll().execute()).rejects.toMatchObject(unavailable);
    await expect(storage.ping()).rejects.toMatchObject(unavailable);
    restoreFile(file, pristine);
    const s = storage;
    await eventually(() => s.ping());
    expect(await s.db.selectFrom('leases').selectAll().orderBy('name').execute()).toEqual(rows);
    await s.db.insertInto('leases').values({ name: 'c', holder: 'h', expires_at: 3 }).execute();
    expect(await s.db.selectFrom('leases').selectAll().execute()).toHaveLength(3);
  });
});

describe('SQLite store on a full disk', () => {
  // max_page_count stands in for the disk: growing the file past it fails as a full disk does (SQLITE_FULL).
  async function fullStore() {
    dir = tempDir();
    storage = await openSqliteStorage({ file: path.join(dir, 'evidence.db') });
    const { rows: [{ page_count: pages }] } = await sql<{ page_count: number }>`pragma page_count`.execute(storage.db);
    await sql.raw(`pragma max_page_count = ${pages}`).execute(storage.db);
    return storage;
  }
  const fill = (s: Storage, n: number) => s.db.insertInto('leases').values(Array.from({ length: n }, (_, i) => ({ name: `big-${i}-${'x'.repeat(2000)}`, holder: 'h', expires_at: i }))).execute();
  const refused = { code: 'storage_unavailable', status: 503, headers: { 'retry-after': '5' }, message: expect.stringMatching(/refused the write.*SQLITE_FULL/) };

  it('refuses writes with storage_unavailable (never an unclassified error), keeps reads and is not ready until a write fits again', async () => {
    const s = await fullStore();
    await expect(fill(s, 50)).rejects.toMatchObject(refused);
    await expect(s.serialized('t', (trx) => trx.insertInto('leases').values({ name: 'y'.repeat(5000), holder: 'h', expires_at: 1 }).execute())).rejects.toMatchObject(refused);
    // The handle is sound: reads go on, nothing was written, and it was not reopened.
    expect(await s.db.selectFrom('leases').selectAll().execute()).toEqual([]);
    await expect(s.ping()).rejects.toMatchObject({ code: 'storage_unavailable', status: 503 });
    // Room again: readiness finds out by itself, with a write of its own.
    await sql.raw('pragma max_page_count = 1073741823').execute(s.db);
    await expect(s.ping()).resolves.toBeUndefined();
    await fill(s, 50);
    expect(await s.db.selectFrom('leases').selectAll().execute()).toHaveLength(50);
  });
});
