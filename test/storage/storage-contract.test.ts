import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { backends } from '../helpers/storage.js';

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
