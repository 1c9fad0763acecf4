import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { backends } from '../helpers/storage.js';
import { newLeaseHolder } from '../../src/storage/lease.js';
import { currentProcess, identityOf } from '../../src/storage/process-identity.js';

/** A holder name as another process would record it. */
const holderFor = (identity: object) => JSON.stringify({ token: 'other', ...identity });

for (const backend of backends) {
  describe(`storage contract on ${backend.name}`, () => {
    it('migrates a fresh store and answers ping', async () => {
      const { storage, cleanup } = await backend.open();
      try {
        await storage.ping();
        const rows = await storage.db.selectFrom('leases').selectAll().execute();
        expect(rows).toEqual([]);
      } finally {
        await cleanup();
      }
    });

    it('migrates its own store while another store in the same database is already migrated', async () => {
      const first = await backend.open();
      try {
        const second = await backend.open();
        try {
          expect(await second.storage.db.selectFrom('leases').selectAll().execute()).toEqual([]);
        } finally {
          await second.cleanup();
        }
      } finally {
        await first.cleanup();
      }
    });

    it('running the migrations again on a migrated store changes nothing', async () => {
      const { storage, openAnother, cleanup } = await backend.open();
      try {
        const again = await openAnother();
        await again.ping();
        expect(await storage.db.selectFrom('leases').selectAll().execute()).toEqual([]);
      } finally {
        await cleanup();
      }
    });

    it('a lease excludes other holders until it expires, then can be taken over', async () => {
      const { storage, openAnother, cleanup } = await backend.open();
      try {
        const other = await openAnother();
        expect(await storage.tryLease('capture', 'a', 1000, 10_000)).toBe(true);
        expect(await other.tryLease('capture', 'b', 1000, 10_500)).toBe(false);
        expect(await storage.tryLease('capture', 'a', 1000, 10_600)).toBe(true); // renewal
        expect(await other.tryLease('capture', 'b', 1000, 11_700)).toBe(true); // expired
        await other.releaseLease('capture', 'b');
        expect(await storage.tryLease('capture', 'a', 1000, 11_800)).toBe(true);
      } finally {
        await cleanup();
      }
    });

    it.runIf(process.platform === 'linux')('a lease whose holder died on this host is taken over before it expires; a live holder keeps it', async () => {
      const { storage, openAnother, cleanup } = await backend.open();
      const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
      try {
        await once(child, 'spawn');
        const other = await openAnother();
        expect(await other.tryLease('capture', holderFor(identityOf(child.pid!)!), 60_000, 10_000)).toBe(true);
        expect(await storage.tryLease('capture', newLeaseHolder(), 60_000, 10_001)).toBe(false);
        child.kill('SIGKILL');
        await once(child, 'exit');
        const successor = newLeaseHolder();
        expect(await storage.tryLease('capture', successor, 60_000, 10_002)).toBe(true);
        expect((await storage.db.selectFrom('leases').select('holder').execute()).map((r) => r.holder)).toEqual([successor]);
      } finally {
        child.kill('SIGKILL');
        await cleanup();
      }
    });

    it('a holder that cannot be checked from here (another host, an opaque name) keeps its lease until it expires', async () => {
      const { storage, cleanup } = await backend.open();
      try {
        const elsewhere = holderFor({ ...currentProcess(), host: 'another-host', pid: 2 ** 22 + 17, start: '5' });
        expect(await storage.tryLease('a', elsewhere, 1000, 10_000)).toBe(true);
        expect(await storage.tryLease('a', newLeaseHolder(), 1000, 10_999)).toBe(false);
        expect(await storage.tryLease('a', newLeaseHolder(), 1000, 11_000)).toBe(true);
        expect(await storage.tryLease('b', 'opaque', 1000, 10_000)).toBe(true);
        expect(await storage.tryLease('b', newLeaseHolder(), 1000, 10_999)).toBe(false);
      } finally {
        await cleanup();
      }
    });

    it('serialized sections never interleave, even across two handles on the same data', async () => {
      const { storage, openAnother, cleanup } = await backend.open();
      try {
        const other = await openAnother();
        await storage.db.schema.createTable('counter_probe').addColumn('n', 'integer').execute();
        await storage.db.insertInto('counter_probe' as never).values({ n: 0 }).execute();
        // Each section reads, yields, then writes read+1: without exclusion, increments are lost.
        const bump = (s: typeof storage) =>
          s.serialized('probe', async (trx) => {
            const row = await sql<{ n: number }>`select n from counter_probe`.execute(trx);
            await new Promise((r) => setTimeout(r, 2));
            await sql`update counter_probe set n = ${Number(row.rows[0].n) + 1}`.execute(trx);
          });
        await Promise.all(Array.from({ length: 20 }, (_, i) => bump(i % 2 === 0 ? storage : other)));
        const final = await sql<{ n: number }>`select n from counter_probe`.execute(storage.db);
        expect(Number(final.rows[0].n)).toBe(20);
      } finally {
        await cleanup();
      }
    });

    it('a failing serialized section rolls back its writes', async () => {
      const { storage, cleanup } = await backend.open();
      try {
        await expect(
          storage.serialized('x', async (trx) => {
            await trx.insertInto('leases').values({ name: 'n', holder: 'h', expires_at: 1 }).execute();
            throw new Error('boom');
          }),
        ).rejects.toThrow('boom');
        expect(await storage.db.selectFrom('leases').selectAll().execute()).toEqual([]);
      } finally {
        await cleanup();
      }
    });
  });
}
