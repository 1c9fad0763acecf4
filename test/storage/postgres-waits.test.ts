// Every wait for PostgreSQL is bounded: a table locked by an outside session, or a pool lent
// out entirely to requests waiting on it, costs a failed query after seconds (the routes
// answer 503), never a request held for as long as the lock lasts.
import pg from 'pg';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { PG_WAIT_BOUNDS } from '../../src/storage/postgres.js';
import { postgresBackend, postgresUrl } from '../helpers/storage.js';

const settleMs = async (p: Promise<unknown>) => {
  const t0 = Date.now();
  const outcome = await p.then(() => 'fulfilled', () => 'rejected');
  return { outcome, ms: Date.now() - t0 };
};

describe.runIf(postgresUrl)('bounded waits on PostgreSQL', () => {
  it('fails a query behind an outside table lock after the lock bound, and serves again once the lock is gone', async () => {
    const backend = await postgresBackend.open();
    const outside = new pg.Client({ connectionString: postgresUrl });
    await outside.connect();
    try {
      const { rows } = await sql<{ s: string }>`select current_schema() as s`.execute(backend.storage.db);
      await outside.query('begin');
      await outside.query(`lock table ${rows[0].s}.applications in access exclusive mode`);

      const blocked = await settleMs(backend.storage.db.selectFrom('applications').selectAll().execute());
      expect(blocked.outcome).toBe('rejected');
      expect(blocked.ms).toBeGreaterThanOrEqual(PG_WAIT_BOUNDS.lock_timeout - 500);
      expect(blocked.ms).toBeLessThan(PG_WAIT_BOUNDS.lock_timeout + 4_000);

      // More waiting queries than the pool has connections: the ones left without a connection
      // give up after the connection bound too, so readiness answers instead of hanging.
      const many = Array.from({ length: 14 }, () => settleMs(backend.storage.db.selectFrom('applications').selectAll().execute()));
      const ping = await settleMs(backend.storage.ping());
      expect(ping.ms).toBeLessThan(PG_WAIT_BOUNDS.connectionTimeoutMillis + PG_WAIT_BOUNDS.lock_timeout + 4_000);
      for (const r of await Promise.all(many)) expect(r.ms).toBeLessThan(PG_WAIT_BOUNDS.connectionTimeoutMillis + PG_WAIT_BOUNDS.lock_timeout + 4_000);

      await outside.query('rollback');
      expect(await backend.storage.db.selectFrom('applications').selectAll().execute()).toEqual([]);
      await backend.storage.ping();
    } finally {
      await outside.end().catch(() => undefined);
      await backend.cleanup();
    }
  }, 40_000);
});
