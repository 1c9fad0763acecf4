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

describe('SQLite store whose files are removed or replaced under it', () => {
  const lease = (name: string) => ({ name, holder: 'h', expires_at: 1 });
  const names = async (s: Storage) => (await s.db.selectFrom('leases').select('name').orderBy('name').execute()).map((r) => r.name);
  /** Waits until the store notices (it looks at its files at most every half second). */
  const noticed = (s: Storage) => eventually(async () => {
    const outcome = await s.ping().then(() => 'ready', (error: { code?: string }) => error.code);
    if (outcome !== 'storage_unavailable') throw new Error(`still ${outcome}`);
  }, 20, 100);

  it('stops acknowledging writes once its file is removed, and serves it again once it is put back', async () => {
    dir = tempDir();
    const file = path.join(dir, 'evidence.db');
    const s = (storage = await openSqliteStorage({ file }));
    await s.db.insertInto('leases').values(lease('before')).execute();
    await sql`pragma wal_checkpoint(TRUNCATE)`.execute(s.db);
    const saved = fs.readFileSync(file);
    fs.rmSync(file);
    await noticed(s);
    await expect(s.db.insertInto('leases').values(lease('lost')).execute()).rejects.toMatchObject({ code: 'storage_unavailable', status: 503 });
    // Not set up afresh while it is missing: still unavailable after the reopen pause.
    await new Promise((r) => setTimeout(r, 1200));
    await expect(s.ping()).rejects.toMatchObject({ code: 'storage_unavailable' });
    expect(fs.existsSync(file)).toBe(false);
    fs.writeFileSync(file, saved);
    await eventually(() => s.ping());
    expect(await names(s)).toEqual(['before']);
  });

  it('moves to a file put in its place, leaving that file\'s log alone', async () => {
    dir = tempDir();
    const file = path.join(dir, 'evidence.db');
    const other = path.join(dir, 'other.db');
    const second = await openSqliteStorage({ file: other });
    await second.db.insertInto('leases').values(lease('from-the-other-file')).execute();
    await second.close();
    const s = (storage = await openSqliteStorage({ file }));
    await s.db.insertInto('leases').values(lease('old')).execute();
    fs.renameSync(other, file);
    await noticed(s);
    await eventually(() => s.ping());
    expect(await names(s)).toEqual(['from-the-other-file']);
    await s.db.insertInto('leases').values(lease('new')).execute();
    expect(fs.existsSync(`${file}-wal`)).toBe(true);
    expect(await names(s)).toEqual(['from-the-other-file', 'new']);
  });

  it('saves what only its removed write-ahead log held into the store file, then goes on with a new log', async () => {
    dir = tempDir();
    const file = path.join(dir, 'evidence.db');
    const s = (storage = await openSqliteStorage({ file }));
    await s.db.insertInto('leases').values([lease('a'), lease('b'), lease('c')]).execute();
    fs.rmSync(`${file}-wal`);
    await noticed(s);
    await eventually(() => s.ping());
    expect(await names(s)).toEqual(['a', 'b', 'c']);
    await s.db.insertInto('leases').values(lease('d')).execute();
    expect(fs.existsSync(`${file}-wal`)).toBe(true);
    // What a crash now would leave: the file as another process reads it.
    const reader = await openSqliteStorage({ file: path.join(dir, 'copy.db') });
    await reader.close();
    fs.copyFileSync(file, path.join(dir, 'copy.db'));
    fs.copyFileSync(`${file}-wal`, path.join(dir, 'copy.db-wal'));
    const copy = await openSqliteStorage({ file: path.join(dir, 'copy.db') });
    try {
      expect(await names(copy)).toEqual(['a', 'b', 'c', 'd']);
    } finally {
      await copy.close();
    }
  });
});

describe('SQLite store replaced after its log was renewed', () => {
  it('removes the log of the handle it replaces, not of an earlier one', async () => {
    dir = tempDir();
    const file = path.join(dir, 'evidence.db');
    const other = path.join(dir, 'other.db');
    const second = await openSqliteStorage({ file: other });
    await second.db.insertInto('leases').values({ name: 'from-the-other-file', holder: 'h', expires_at: 1 }).execute();
    await second.close();
    const s = (storage = await openSqliteStorage({ file }));
    await s.db.insertInto('leases').values({ name: 'a', holder: 'h', expires_at: 1 }).execute();
    // The log goes; the handle is replaced and writes to a new log.
    fs.rmSync(`${file}-wal`);
    await eventually(async () => {
      if (await s.ping().then(() => true, () => false)) throw new Error('not noticed yet');
    }, 20, 100);
    await eventually(() => s.ping());
    await s.db.insertInto('leases').values({ name: 'old', holder: 'h', expires_at: 1 }).execute();
    // Then another file is put in place: the new log beside it is the old file's, and must go.
    fs.renameSync(other, file);
    await eventually(async () => {
      if (await s.ping().then(() => true, () => false)) throw new Error('not noticed yet');
    }, 20, 100);
    await eventually(() => s.ping());
    expect((await s.db.selectFrom('leases').select('name').execute()).map((r) => r.name)).toEqual(['from-the-other-file']);
  });
});
