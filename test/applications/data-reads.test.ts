// Data-query measurement without a store round trip: an anonymous read is counted at once
// (in the in-memory batch) once today's purges have run on the store handle; every other
// read takes the full path, whose counts and outcomes the synchronous one must equal.
import { afterEach, describe, expect, it } from 'vitest';
import { flushAnonymousCounts } from '../../src/applications/anonymous-counts.js';
import { recordDataRead, recordDataReadNow, type DataReadEvent } from '../../src/applications/data-reads.js';
import { sqliteBackend } from '../helpers/storage.js';
import { movableClock } from './support.js';

const anonymous = (notModified: boolean): DataReadEvent => ({ caller: { kind: 'anonymous' }, excluded: false, eligible: true, notModified, digest: 'd' });

describe('recordDataReadNow', () => {
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await cleanup?.();
    cleanup = undefined;
  });

  it('answers at once only for anonymous reads on a date already purged, and counts them like the full path', async () => {
    const opened = await sqliteBackend.open();
    cleanup = opened.cleanup;
    const clock = movableClock('2026-11-20T10:00:00Z');
    const ctx = { storage: opened.storage, clock };

    // Nothing counted needs nothing: known at once, even before any purge.
    expect(recordDataReadNow(ctx, { ...anonymous(false), eligible: false })).toBe('not_eligible');
    // Today's purges have not run on this handle: the full path must.
    expect(recordDataReadNow(ctx, anonymous(false))).toBeUndefined();
    expect(await recordDataRead(ctx, anonymous(false))).toBe('aggregate_or_duplicate');
    // Now anonymous reads are counted at once; a keyed one never is.
    expect(recordDataReadNow(ctx, anonymous(false))).toBe('aggregate_or_duplicate');
    expect(recordDataReadNow(ctx, anonymous(true))).toBe('aggregate_or_duplicate');
    expect(recordDataReadNow(ctx, { ...anonymous(false), excluded: true })).toBe('aggregate_or_duplicate');
    expect(recordDataReadNow(ctx, { ...anonymous(false), caller: { kind: 'application', applicationId: 'a', trafficClass: 'unverified' } })).toBeUndefined();
    // A new UTC date needs its purge again.
    clock.set('2026-11-21T00:00:01Z');
    expect(recordDataReadNow(ctx, anonymous(false))).toBeUndefined();

    await flushAnonymousCounts(opened.storage);
    const rows = await opened.storage.db.selectFrom('aggregates').select(['day', 'traffic_class', 'outcome', 'count']).orderBy('outcome').orderBy('traffic_class').execute();
    expect(rows.map((r) => `${r.day} ${r.traffic_class} ${r.outcome} ${Number(r.count)}`)).toEqual([
      '2026-11-20 anonymous data_query 2',
      '2026-11-20 synthetic data_query 1',
      '2026-11-20 anonymous data_query_not_modified 1',
    ]);
  });
});
