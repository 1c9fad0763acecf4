import { describe, expect, it } from 'vitest';
import { acquireLease, newLeaseHolder } from '../../src/storage/lease.js';
import { backends } from '../helpers/storage.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

for (const backend of backends) {
  describe(`held leases on ${backend.name}`, () => {
    it('renews a held lease past its TTL until it is released', async () => {
      const { storage, openAnother, cleanup } = await backend.open();
      try {
        const other = await openAnother();
        const lease = (await acquireLease(storage, 'work', { ttlMs: 300 }))!;
        expect(lease).not.toBeNull();
        expect(await acquireLease(other, 'work', { ttlMs: 300 })).toBeNull();
        // Several TTLs later the lease is still ours: it was renewed, not left to expire.
        await sleep(1000);
        expect(lease.held).toBe(true);
        expect(await other.tryLease('work', newLeaseHolder(), 300)).toBe(false);
        await lease.release();
        const next = await acquireLease(other, 'work', { ttlMs: 300 });
        expect(next).not.toBeNull();
        await next!.release();
        expect(await storage.db.selectFrom('leases').selectAll().execute()).toEqual([]);
      } finally {
        await cleanup();
      }
    });
  });
}
