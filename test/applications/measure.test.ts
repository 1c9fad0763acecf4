import { afterEach, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { backends } from '../helpers/storage.js';
import type { Storage } from '../../src/storage/storage.js';
import { resolveCaller, type Caller } from '../../src/applications/credential.js';
import { recordUsage } from '../../src/applications/measure.js';
import { usageReport } from '../../src/applications/report.js';
import { enrolled, movableClock, type MovableClock } from './support.js';

const P1 = '20260901T115900.123456Z-3f9c2a7e5b6d4c1e8a0f9b2d7c6e5a41';
const P2 = '20260901T121400.654321Z-9b1e0c4d2a7f48e6b5c3d1a0f2e4c6b8';

for (const backend of backends) {
  describe(`usage measurement on ${backend.name}`, () => {
    let t: TestApp | undefined;
    let cleanup: (() => Promise<void>) | undefined;
    let another: (() => Promise<Storage>) | undefined;
    afterEach(async () => {
      await t?.close();
      await cleanup?.();
      t = undefined;
    });
    async function setup(start = '2026-09-01T10:00:00Z'): Promise<{ ctx: { storage: Storage; clock: MovableClock }; clock: MovableClock; t: TestApp }> {
      const opened = await backend.open();
      cleanup = opened.cleanup;
      another = opened.openAnother;
      const clock = movableClock(start);
      t = await makeTestApp({}, { storage: opened.storage, clock });
      return { ctx: { storage: opened.storage, clock }, clock, t };
    }
    const key = async (ctx: { storage: Storage; clock: MovableClock }, token: string): Promise<Caller> => resolveCaller(ctx, `Bearer ${token}`);
    const aggregates = (s: Storage) => s.db.selectFrom('aggregates').selectAll().orderBy('traffic_class').orderBy('outcome').execute();
    const completions = (s: Storage) => s.db.selectFrom('completions').selectAll().orderBy('day').orderBy('packet').execute();

    it('anonymous reads only count in aggregates, per outcome; never a completion', async () => {
      const { ctx } = await setup();
      const anon: Caller = { kind: 'anonymous' };
      expect(await recordUsage(ctx, { caller: anon, excluded: false, outcome: 'data_response', latestPacketId: P1 })).toBe(false);
      expect(await recordUsage(ctx, { caller: anon, excluded: false, outcome: 'data_response', latestPacketId: P1 })).toBe(false);
      expect(await recordUsage(ctx, { caller: anon, excluded: false, outcome: 'not_modified', latestPacketId: P1 })).toBe(false);
      expect(await recordUsage(ctx, { caller: anon, excluded: true, outcome: 'data_response', latestPacketId: P1 })).toBe(false);
      expect(await aggregates(ctx.storage)).toEqual([
        { day: '2026-09-01', traffic_class: 'anonymous', outcome: 'data_response', count: 2 },
        { day: '2026-09-01', traffic_class: 'anonymous', outcome: 'not_modified', count: 1 },
        { day: '2026-09-01', traffic_class: 'synthetic', outcome: 'data_response', count: 1 },
      ]);
      expect(await completions(ctx.storage)).toEqual([]);
    });

    it('a keyed 200 inserts one completion per application, date, latest packet and class; duplicates and 304s do not', async () => {
      const { ctx, clock, t } = await setup();
      const { id, token } = await enrolled(t.app);
      const caller = await key(ctx, token);
      const read = (outcome: 'data_response' | 'not_modified', packet = P1) => recordUsage(ctx, { caller, excluded: false, outcome, latestPacketId: packet });
      expect(await read('data_response')).toBe(true); // latest
      expect(await read('data_response')).toBe(false); // changes for the same packet, same date
      expect(await read('not_modified')).toBe(false);
      expect(await read('data_response', P2)).toBe(true);
      clock.set('2026-09-02T00:00:01Z');
      expect(await read('data_response', P2)).toBe(true);
      expect(await completions(ctx.storage)).toEqual([
        { application: id, day: '2026-09-01', packet: P1, traffic_class: 'unverified' },
        { application: id, day: '2026-09-01', packet: P2, traffic_class: 'unverified' },
        { application: id, day: '2026-09-02', packet: P2, traffic_class: 'unverified' },
      ]);
      expect(await ctx.storage.db.selectFrom('cohorts').selectAll().execute()).toEqual([{ application: id, traffic_class: 'unverified', first_day: '2026-09-01' }]);
      const agg = await aggregates(ctx.storage);
      expect(agg.filter((a) => a.day === '2026-09-01')).toEqual([
        { day: '2026-09-01', traffic_class: 'unverified', outcome: 'data_response', count: 3 },
        { day: '2026-09-01', traffic_class: 'unverified', outcome: 'not_modified', count: 1 },
      ]);
    });

    it('a keyed 304 extends the key\'s life; a request with an exclusion header is measured as synthetic', async () => {
      const { ctx, clock, t } = await setup('2026-01-01T10:00:00Z');
      const { id, token } = await enrolled(t.app);
      clock.set('2026-03-01T10:00:00Z');
      expect(await recordUsage(ctx, { caller: await key(ctx, token), excluded: false, outcome: 'not_modified', latestPacketId: P1 })).toBe(false);
      const row = await ctx.storage.db.selectFrom('applications').select('last_seen_day').where('id', '=', id).executeTakeFirstOrThrow();
      expect(row.last_seen_day).toBe('2026-03-01');
      expect(await recordUsage(ctx, { caller: await key(ctx, token), excluded: true, outcome: 'data_response', latestPacketId: P1 })).toBe(true);
      expect(await completions(ctx.storage)).toEqual([{ application: id, day: '2026-03-01', packet: P1, traffic_class: 'synthetic' }]);
      expect(await ctx.storage.db.selectFrom('cohorts').selectAll().execute()).toEqual([{ application: id, traffic_class: 'synthetic', first_day: '2026-03-01' }]);
    });

    it('an internal key: two 200s and one 304 on one date give one internal completion; no external_verified use; D7 rate null', async () => {
      const { ctx, t } = await setup();
      const { token } = await enrolled(t.app, { 'x-traffic-class': 'synthetic' });
      const caller = await key(ctx, token);
      expect(caller).toMatchObject({ trafficClass: 'internal' });
      await recordUsage(ctx, { caller, excluded: false, outcome: 'data_response', latestPacketId: P1 });
      await recordUsage(ctx, { caller, excluded: false, outcome: 'data_response', latestPacketId: P1 });
      await recordUsage(ctx, { caller, excluded: false, outcome: 'not_modified', latestPacketId: P1 });
      const report = await usageReport(ctx);
      expect(report.classes.internal.deduplicated_data_responses).toBe(1);
      expect(report.classes.internal.applications_with_data_responses).toBe(1);
      expect(report.classes.external_verified.applications_with_data_responses).toBe(0);
      expect(report.classes.internal.retention['7'].rate).toBeNull();
    });

    it('erasing a key removes its completions and cohorts; aggregate counts stay', async () => {
      const { ctx, t } = await setup();
      const { token } = await enrolled(t.app);
      await recordUsage(ctx, { caller: await key(ctx, token), excluded: false, outcome: 'data_response', latestPacketId: P1 });
      expect(await completions(ctx.storage)).toHaveLength(1);
      const del = await t.app.inject({ method: 'DELETE', url: '/v1/applications/current', headers: { authorization: `Bearer ${token}` } });
      expect(del.statusCode).toBe(200);
      expect(await completions(ctx.storage)).toEqual([]);
      expect(await ctx.storage.db.selectFrom('cohorts').selectAll().execute()).toEqual([]);
      expect(await aggregates(ctx.storage)).toEqual([{ day: '2026-09-01', traffic_class: 'unverified', outcome: 'data_response', count: 1 }]);
    });

    it('a key erased between its check and its measurement records nothing for it', async () => {
      const { ctx, t } = await setup();
      const { id, token } = await enrolled(t.app);
      const caller = await key(ctx, token);
      await ctx.storage.db.deleteFrom('applications').where('id', '=', id).execute();
      expect(await recordUsage(ctx, { caller, excluded: false, outcome: 'data_response', latestPacketId: P1 })).toBe(false);
      expect(await completions(ctx.storage)).toEqual([]);
    });

    it('concurrent reads of one packet by one key on two instances insert exactly one completion', async () => {
      const { ctx, t } = await setup();
      const { token } = await enrolled(t.app);
      const caller = await key(ctx, token);
      const other = { storage: await another!(), clock: ctx.clock };
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) =>
        recordUsage(i % 2 ? other : ctx, { caller, excluded: false, outcome: 'data_response', latestPacketId: P1 })));
      expect(results.filter(Boolean)).toHaveLength(1);
      expect(await completions(ctx.storage)).toHaveLength(1);
      expect((await aggregates(ctx.storage))[0].count).toBe(20);
    });

    it('stops adding completions at 50,000 per UTC date', async () => {
      const { ctx, t } = await setup();
      const filler = await enrolled(t.app);
      const rows = Array.from({ length: 49_999 }, (_, i) => ({ application: filler.id, day: '2026-09-01', packet: `p${i}`, traffic_class: 'unverified' as const }));
      for (let i = 0; i < rows.length; i += 2000) await ctx.storage.db.insertInto('completions').values(rows.slice(i, i + 2000)).execute();
      const a = await enrolled(t.app);
      const b = await enrolled(t.app);
      expect(await recordUsage(ctx, { caller: await key(ctx, a.token), excluded: false, outcome: 'data_response', latestPacketId: P1 })).toBe(true);
      expect(await recordUsage(ctx, { caller: await key(ctx, b.token), excluded: false, outcome: 'data_response', latestPacketId: P1 })).toBe(false);
      const n = await ctx.storage.db.selectFrom('completions').select((eb) => eb.fn.countAll<number>().as('n')).where('day', '=', '2026-09-01').executeTakeFirstOrThrow();
      expect(Number(n.n)).toBe(50_000);
      // The saturated date still counts the request and extends the key's life.
      expect((await aggregates(ctx.storage))[0].count).toBe(2);
    });

    it('caps an aggregate counter at 1,000,000', async () => {
      const { ctx } = await setup();
      await ctx.storage.db.insertInto('aggregates').values({ day: '2026-09-01', traffic_class: 'anonymous', outcome: 'data_response', count: 999_999 }).execute();
      const anon: Caller = { kind: 'anonymous' };
      await recordUsage(ctx, { caller: anon, excluded: false, outcome: 'data_response', latestPacketId: P1 });
      await recordUsage(ctx, { caller: anon, excluded: false, outcome: 'data_response', latestPacketId: P1 });
      expect((await aggregates(ctx.storage))[0].count).toBe(1_000_000);
    });

    it('keeps completions and aggregates for the last 90 UTC dates only', async () => {
      const { ctx, clock, t } = await setup('2026-06-01T10:00:00Z');
      const { token } = await enrolled(t.app);
      const read = async () => recordUsage(ctx, { caller: await key(ctx, token), excluded: false, outcome: 'data_response', latestPacketId: P1 });
      await read();
      clock.set('2026-08-29T10:00:00Z'); // 89 dates later: 2026-06-01 is still inside the 90
      await read();
      expect((await completions(ctx.storage)).map((c) => c.day)).toEqual(['2026-06-01', '2026-08-29']);
      expect((await aggregates(ctx.storage)).map((a) => a.day).sort()).toEqual(['2026-06-01', '2026-08-29']);
      clock.set('2026-08-30T10:00:00Z'); // 90 dates later: out
      await read();
      expect((await completions(ctx.storage)).map((c) => c.day)).toEqual(['2026-08-29', '2026-08-30']);
      expect((await aggregates(ctx.storage)).map((a) => a.day).sort()).toEqual(['2026-08-29', '2026-08-30']);
    });
  });
}
