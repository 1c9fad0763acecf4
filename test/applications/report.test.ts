import { describe, expect, it } from 'vitest';
import { backends } from '../helpers/storage.js';
import { encodeCanonicalDocument } from '../../src/core/json.js';
import { isAppError } from '../../src/core/errors.js';
import { resolveCaller } from '../../src/applications/credential.js';
import { recordUsage } from '../../src/applications/measure.js';
import { usageReport } from '../../src/applications/report.js';
import { appOnBackend, enrolled } from './support.js';

const P1 = '20260901T115900.123456Z-3f9c2a7e5b6d4c1e8a0f9b2d7c6e5a41';

for (const backend of backends) {
  describe(`usage report on ${backend.name}`, () => {
    const setup = appOnBackend(backend);

    it('has the documented shape, fixed strings and null organisation counts', async () => {
      const { ctx } = await setup('2026-09-01T10:00:00Z');
      const report = await usageReport(ctx);
      expect(Object.keys(report)).toEqual([
        'schema', 'evaluated_at', 'retention_days', 'classes', 'request_aggregates',
        'cohort_basis', 'deduplication', 'coverage', 'scope', 'independent_organizations', 'downstream_users', 'browser',
      ]);
      expect(report.schema).toBe('financial-evidence.application-usage.v1');
      expect(report.evaluated_at).toBe('2026-09-01T10:00:00.000000+00:00');
      expect(report.retention_days).toBe(90);
      expect(Object.keys(report.classes)).toEqual(['unverified', 'internal', 'synthetic', 'external_verified']);
      for (const c of Object.values(report.classes)) {
        expect(c).toEqual({
          applications_with_data_responses: 0,
          deduplicated_data_responses: 0,
          retention: {
            '7': { eligible_applications: 0, returned_on_day: 0, rate: null },
            '30': { eligible_applications: 0, returned_on_day: 0, rate: null },
          },
        });
      }
      for (const s of [report.cohort_basis, report.deduplication, report.coverage, report.scope]) expect(s.length).toBeGreaterThan(20);
      expect(report.independent_organizations).toBeNull();
      expect(report.downstream_users).toBeNull();
    });

    it('D7 counts a return only on a completed UTC date: null on 09-01, 0 eligible on 09-08, 1/1 on 09-09; D30 not yet eligible', async () => {
      const { ctx, clock, app } = await setup('2026-09-01T09:00:00Z');
      const { token } = await enrolled(app);
      const use = async () => recordUsage(ctx, { caller: await resolveCaller(ctx, `Bearer ${token}`), excluded: false, outcome: 'data_response', latestPacketId: P1 });
      await use();
      expect((await usageReport(ctx)).classes.unverified.retention['7']).toEqual({ eligible_applications: 0, returned_on_day: 0, rate: null });
      clock.set('2026-09-08T15:00:00Z');
      await use();
      expect((await usageReport(ctx)).classes.unverified.retention['7'].eligible_applications).toBe(0);
      clock.set('2026-09-09T00:00:00Z');
      const report = await usageReport(ctx);
      expect(report.classes.unverified.retention['7']).toEqual({ eligible_applications: 1, returned_on_day: 1, rate: 1 });
      expect(report.classes.unverified.retention['30']).toEqual({ eligible_applications: 0, returned_on_day: 0, rate: null });
      expect(report.classes.unverified.applications_with_data_responses).toBe(1);
      expect(report.classes.unverified.deduplicated_data_responses).toBe(2);
      // Printed canonically, the rate keeps its float form.
      expect(encodeCanonicalDocument(report)).toContain('"rate": 1.0');
    });

    it('a use on another date than exactly first_day + 7 is not a D7 return', async () => {
      const { ctx, clock, app } = await setup('2026-09-01T09:00:00Z');
      const a = await enrolled(app);
      const b = await enrolled(app);
      const use = async (token: string) => recordUsage(ctx, { caller: await resolveCaller(ctx, `Bearer ${token}`), excluded: false, outcome: 'data_response', latestPacketId: P1 });
      await use(a.token);
      await use(b.token);
      clock.set('2026-09-07T12:00:00Z');
      await use(a.token);
      clock.set('2026-09-08T12:00:00Z');
      await use(b.token);
      clock.set('2026-09-10T12:00:00Z');
      const rate = (await usageReport(ctx)).classes.unverified.retention['7'];
      expect(rate).toEqual({ eligible_applications: 2, returned_on_day: 1, rate: 0.5 });
    });

    it('D30 over 90 retained dates; cohorts older than 89 dates are ignored', async () => {
      const { ctx, clock, app } = await setup('2026-05-01T09:00:00Z');
      const old = await enrolled(app);
      const use = async (token: string) => recordUsage(ctx, { caller: await resolveCaller(ctx, `Bearer ${token}`), excluded: false, outcome: 'data_response', latestPacketId: P1 });
      await use(old.token);
      clock.set('2026-05-31T09:00:00Z');
      await use(old.token);
      clock.set('2026-06-01T09:00:00Z');
      expect((await usageReport(ctx)).classes.unverified.retention['30']).toEqual({ eligible_applications: 1, returned_on_day: 1, rate: 1 });
      clock.set('2026-07-29T09:00:00Z'); // 2026-05-01 + 89
      expect((await usageReport(ctx)).classes.unverified.retention['30'].eligible_applications).toBe(1);
      clock.set('2026-07-30T09:00:00Z'); // 2026-05-01 + 90: outside
      expect((await usageReport(ctx)).classes.unverified.retention['30'].eligible_applications).toBe(0);
    });

    it('a key used on 2026-01-01 is gone by 2026-07-01 with no traffic in between: 0 completions, key refused', async () => {
      const { ctx, clock, app } = await setup('2026-01-01T08:00:00Z');
      const { token } = await enrolled(app);
      await recordUsage(ctx, { caller: await resolveCaller(ctx, `Bearer ${token}`), excluded: false, outcome: 'data_response', latestPacketId: P1 });
      clock.set('2026-07-01T08:00:00Z');
      const report = await usageReport(ctx);
      expect(report.classes.unverified.deduplicated_data_responses).toBe(0);
      expect(report.classes.unverified.applications_with_data_responses).toBe(0);
      expect(report.request_aggregates).toEqual([]);
      expect(await ctx.storage.db.selectFrom('applications').selectAll().execute()).toEqual([]);
      const refused = await resolveCaller(ctx, `Bearer ${token}`).then(() => null, (e: unknown) => (isAppError(e) ? e.code : e));
      expect(refused).toBe('unknown_credential');
    });

    it('lists request aggregates sorted by date, class and outcome', async () => {
      const { ctx, clock } = await setup('2026-09-01T09:00:00Z');
      await recordUsage(ctx, { caller: { kind: 'anonymous' }, excluded: true, outcome: 'not_modified', latestPacketId: P1 });
      await recordUsage(ctx, { caller: { kind: 'anonymous' }, excluded: false, outcome: 'not_modified', latestPacketId: P1 });
      await recordUsage(ctx, { caller: { kind: 'anonymous' }, excluded: false, outcome: 'data_response', latestPacketId: P1 });
      clock.set('2026-09-02T09:00:00Z');
      await recordUsage(ctx, { caller: { kind: 'anonymous' }, excluded: false, outcome: 'data_response', latestPacketId: P1 });
      expect((await usageReport(ctx)).request_aggregates).toEqual([
        { day: '2026-09-01', traffic_class: 'anonymous', outcome: 'data_response', count: 1 },
        { day: '2026-09-01', traffic_class: 'anonymous', outcome: 'not_modified', count: 1 },
        { day: '2026-09-01', traffic_class: 'synthetic', outcome: 'not_modified', count: 1 },
        { day: '2026-09-02', traffic_class: 'anonymous', outcome: 'data_response', count: 1 },
      ]);
    });
  });
}
