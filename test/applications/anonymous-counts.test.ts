// Anonymous request aggregates are summed in memory and written in batches: every count
// reaches the store (on the timer, on a report, on shutdown, after a failed write), the
// cap holds, and keyed measurement is not batched.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { countAnonymous, flushAnonymousCounts, FLUSH_INTERVAL_MS, OVERDUE_MS } from '../../src/applications/anonymous-counts.js';
import pg from 'pg';
import { holdWriteLock } from '../helpers/sqlite-lock.js';
import { postgresUrl } from '../helpers/storage.js';
import { AGGREGATE_COUNT_CAP } from '../../src/applications/measure.js';
import type { Storage } from '../../src/storage/storage.js';
import { backends } from '../helpers/storage.js';
import { useFundingHarness } from '../funding/harness.js';
import { enrolled } from './support.js';

const aggregates = (s: Storage) =>
  s.db.selectFrom('aggregates').select(['day', 'traffic_class', 'outcome', 'count']).orderBy('traffic_class').orderBy('outcome').execute()
    .then((rows) => rows.map((r) => ({ ...r, count: Number(r.count) })));

async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, ms: number): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > until) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Holds the store's write lock from outside (another process, another session) until released. */
async function stallWrites(storage: Storage): Promise<() => Promise<void>> {
  if (storage.dialect === 'sqlite') {
    const holder = await holdWriteLock(storage.location);
    return () => holder.release();
  }
  const { rows } = await sql<{ s: string }>`select current_schema() as s`.execute(storage.db);
  const outside = new pg.Client({ connectionString: postgresUrl });
  await outside.connect();
  await outside.query('begin');
  await outside.query(`lock table ${rows[0].s}.aggregates in exclusive mode`);
  return async () => {
    await outside.query('rollback');
    await outside.end();
  };
}

for (const backend of backends) {
  describe(`batched anonymous usage counts on ${backend.name}`, () => {
    const h = useFundingHarness({ backend });

    it('sums many anonymous responses into the exact per-class, per-outcome counts', async () => {
      await h.captured();
      const first = await h.get('/v1/funding/latest');
      for (let i = 0; i < 24; i++) {
        const res = await h.get('/v1/funding/latest', i % 3 === 0 ? { 'if-none-match': first.headers.etag as string } : {});
        expect(res.headers['x-usage-recorded']).toBe('false');
      }
      await h.get('/v1/funding/latest', { 'x-operator-probe': 'bench' });
      await flushAnonymousCounts(h.storage);
      expect(await aggregates(h.storage)).toEqual([
        { day: '2026-10-21', traffic_class: 'anonymous', outcome: 'data_response', count: 17 },
        { day: '2026-10-21', traffic_class: 'anonymous', outcome: 'not_modified', count: 8 },
        { day: '2026-10-21', traffic_class: 'synthetic', outcome: 'data_response', count: 1 },
      ]);
    });

    it('writes the pending counts on its own within the flush window', async () => {
      await h.captured();
      for (let i = 0; i < 5; i++) await h.get('/v1/funding/latest');
      const rows = await eventually(() => aggregates(h.storage), (r) => r.length > 0, 10 * FLUSH_INTERVAL_MS);
      expect(rows).toEqual([{ day: '2026-10-21', traffic_class: 'anonymous', outcome: 'data_response', count: 5 }]);
    });

    it('loses no count on a clean shutdown: closing the app writes what is pending', async () => {
      await h.captured();
      for (let i = 0; i < 7; i++) await h.get('/v1/funding/latest');
      await h.app.close();
      expect(await aggregates(h.storage)).toEqual([{ day: '2026-10-21', traffic_class: 'anonymous', outcome: 'data_response', count: 7 }]);
    });

    it('keeps the counts of a failed write, says unavailable meanwhile, and writes them all once the store is back', async () => {
      await h.captured();
      await h.get('/v1/funding/latest');
      await sql`alter table aggregates rename to aggregates_away`.execute(h.storage.db);
      await expect(flushAnonymousCounts(h.storage)).rejects.toThrow();
      const during = await h.get('/v1/funding/latest');
      expect(during.statusCode).toBe(200);
      expect(during.headers['x-usage-recorded']).toBe('unavailable');
      await sql`alter table aggregates_away rename to aggregates`.execute(h.storage.db);
      await flushAnonymousCounts(h.storage);
      expect(await aggregates(h.storage)).toEqual([{ day: '2026-10-21', traffic_class: 'anonymous', outcome: 'data_response', count: 2 }]);
      expect((await h.get('/v1/funding/latest')).headers['x-usage-recorded']).toBe('false');
    });

    it('says unavailable once counts wait past the overdue bound behind a stalled write, and false again once they are written', async () => {
      await h.captured();
      expect((await h.get('/v1/funding/latest')).headers['x-usage-recorded']).toBe('false');
      const release = await stallWrites(h.storage);
      let during: string | undefined;
      try {
        // The timer's write starts and stalls behind the lock; the count it holds grows overdue.
        await new Promise((resolve) => setTimeout(resolve, FLUSH_INTERVAL_MS + OVERDUE_MS + 300));
        during = String((await h.get('/v1/funding/latest')).headers['x-usage-recorded']);
      } finally {
        await release();
      }
      expect(during).toBe('unavailable');
      await eventually(() => aggregates(h.storage), (rows) => rows[0]?.count === 2, 10_000);
      await flushAnonymousCounts(h.storage);
      expect(await aggregates(h.storage)).toEqual([{ day: '2026-10-21', traffic_class: 'anonymous', outcome: 'data_response', count: 2 }]);
      expect((await h.get('/v1/funding/latest')).headers['x-usage-recorded']).toBe('false');
    }, 30_000);

    it('never counts past the cap', async () => {
      await h.storage.db.insertInto('aggregates').values({ day: '2026-10-21', traffic_class: 'anonymous', outcome: 'data_response', count: AGGREGATE_COUNT_CAP - 2 }).execute();
      for (let i = 0; i < 5; i++) countAnonymous(h.storage, '2026-10-21', 'anonymous', 'data_response');
      await flushAnonymousCounts(h.storage);
      expect((await aggregates(h.storage))[0].count).toBe(AGGREGATE_COUNT_CAP);
    });

    it('writes keyed measurement at once, never through the batch', async () => {
      await h.captured();
      const { token } = await enrolled(h.app);
      const res = await h.get('/v1/funding/latest', { authorization: `Bearer ${token}` });
      expect(res.headers['x-usage-recorded']).toBe('true');
      expect(await aggregates(h.storage)).toEqual([{ day: '2026-10-21', traffic_class: 'unverified', outcome: 'data_response', count: 1 }]);
    });
  });
}
