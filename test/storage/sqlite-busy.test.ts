import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { openSqliteStorage } from '../../src/storage/sqlite.js';
import type { Storage } from '../../src/storage/storage.js';
import { StorageBusyError } from '../../src/storage/faults.js';
import { tempDir } from '../helpers/storage.js';
import { holdWriteLock, type LockHolder } from '../helpers/sqlite-lock.js';

let storage: Storage | undefined;
let lock: LockHolder | undefined;
let dir: string | undefined;

afterEach(async () => {
  lock?.kill();
  await storage?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  storage = lock = dir = undefined;
});

async function open(busyWaitMs?: number) {
  dir = tempDir();
  const file = path.join(dir, 'evidence.db');
  storage = await openSqliteStorage({ file, busyWaitMs });
  await storage.db.insertInto('leases').values({ name: 'before', holder: 'h', expires_at: 1 }).execute();
  return { file, storage };
}

const lease = (name: string) => ({ name, holder: 'h', expires_at: 1 });

describe('SQLite store while another process holds the write lock', () => {
  it('never waits inside SQLite: the connection busy timeout is 0, the driver waits on timers', async () => {
    const { storage } = await open();
    const rows = await sql<{ timeout: number }>`pragma busy_timeout`.execute(storage.db);
    expect(rows.rows).toEqual([{ timeout: 0 }]);
  });

  it('keeps answering reads while writes wait, and finishes the writes once the lock is released', async () => {
    const { file, storage } = await open(60_000);
    lock = await holdWriteLock(file);
    const settled: string[] = [];
    const inSection = storage.serialized('probe', (trx) => trx.insertInto('leases').values(lease('serialized')).execute()).then(() => settled.push('serialized'));
    const plain = storage.db.insertInto('leases').values(lease('autocommit')).execute().then(() => settled.push('autocommit'));

    // Reads share the one connection with the waiting writers and still get through.
    for (let i = 0; i < 3; i++) {
      expect((await storage.db.selectFrom('leases').select('name').execute()).map((r) => r.name)).toEqual(['before']);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(lock.holding).toBe(true);
    expect(settled).toEqual([]);

    await lock.release();
    await Promise.all([inSection, plain]);
    expect((await storage.db.selectFrom('leases').select('name').orderBy('name').execute()).map((r) => r.name)).toEqual(['autocommit', 'before', 'serialized']);
  });

  it('gives up after the bounded wait with a 503 storage_busy and Retry-After while the lock is still held, and writes again afterwards', async () => {
    const { file, storage } = await open(150);
    lock = await holdWriteLock(file);
    const inSection = await storage.serialized('probe', (trx) => trx.insertInto('leases').values(lease('x')).execute()).catch((e: unknown) => e);
    const plain = await storage.db.insertInto('leases').values(lease('y')).execute().catch((e: unknown) => e);
    expect(lock.holding).toBe(true);
    for (const error of [inSection, plain]) {
      expect(error).toBeInstanceOf(StorageBusyError);
      expect(error).toMatchObject({ code: 'storage_busy', status: 503, headers: { 'retry-after': '2' } });
    }
    // A busy refusal is not a fault: reads never stopped, and nothing is reopened.
    await storage.ping();
    await lock.release();
    await storage.serialized('probe', (trx) => trx.insertInto('leases').values(lease('x')).execute());
    expect(await storage.db.selectFrom('leases').select('name').where('name', '=', 'x').execute()).toHaveLength(1);
  });
});
