import { describe, expect, it } from 'vitest';
import { backends } from '../helpers/storage.js';
import { sha256Hex } from '../../src/core/hash.js';
import { resolveCaller } from '../../src/applications/credential.js';
import { recordUsage } from '../../src/applications/measure.js';
import { usageReport } from '../../src/applications/report.js';
import { reclassify, ReclassifyError } from '../../src/applications/reclassify.js';
import { applicationCounts } from '../../src/applications/counts.js';
import { appOnBackend, enrolled } from './support.js';

const P1 = '20260901T115900.123456Z-3f9c2a7e5b6d4c1e8a0f9b2d7c6e5a41';
const evidence = (doc: unknown) => Buffer.from(JSON.stringify(doc));

for (const backend of backends) {
  describe(`reclassification on ${backend.name}`, () => {
    const open = appOnBackend(backend);
    const setup = () => open('2026-09-01T09:00:00Z');

    it('external_verified needs evidence; with it, earlier completions keep their class and synthetic traffic stays synthetic', async () => {
      const { ctx, clock, app } = await setup();
      const { id, token } = await enrolled(app);
      const use = async (excluded: boolean) =>
        recordUsage(ctx, { caller: await resolveCaller(ctx, `Bearer ${token}`), excluded, outcome: 'data_response', latestPacketId: P1 });
      await use(false);
      await expect(reclassify(ctx, { applicationId: id, classification: 'external_verified' })).rejects.toThrow(ReclassifyError);

      const file = evidence({ application_id: id, independent_operator: true, basis: 'signed agreement reviewed 2026-09-01' });
      const result = await reclassify(ctx, { applicationId: id, classification: 'external_verified', evidence: file });
      expect(result).toEqual({ application_id: id, classification: 'external_verified', evidence_sha256: sha256Hex(file), past_completions_reclassified: false });
      const row = await ctx.storage.db.selectFrom('applications').select(['traffic_class', 'evidence_sha256']).where('id', '=', id).executeTakeFirstOrThrow();
      expect(row).toEqual({ traffic_class: 'external_verified', evidence_sha256: sha256Hex(file) });

      let report = await usageReport(ctx);
      expect(report.classes.unverified.deduplicated_data_responses).toBe(1);
      expect(report.classes.external_verified.deduplicated_data_responses).toBe(0);

      clock.set('2026-09-02T09:00:00Z');
      await use(true);
      report = await usageReport(ctx);
      expect(report.classes.synthetic.deduplicated_data_responses).toBe(1);
      expect(report.classes.external_verified.deduplicated_data_responses).toBe(0);

      await use(false);
      report = await usageReport(ctx);
      expect(report.classes.external_verified.deduplicated_data_responses).toBe(1);
      expect(report.classes.unverified.deduplicated_data_responses).toBe(1);
      expect(await applicationCounts(ctx)).toEqual({ unverified: 0, internal: 0, synthetic: 0, external_verified: 1 });
    });

    it.each([
      ['a different application id', (id: string) => evidence({ application_id: id.replace(/^./, id[0] === 'a' ? 'b' : 'a'), independent_operator: true, basis: 'x' })],
      ['independent_operator not true', (id: string) => evidence({ application_id: id, independent_operator: 'true', basis: 'x' })],
      ['an empty basis', (id: string) => evidence({ application_id: id, independent_operator: true, basis: '  ' })],
      ['no basis', (id: string) => evidence({ application_id: id, independent_operator: true })],
      ['a JSON array', (id: string) => evidence([id])],
      ['not JSON', () => Buffer.from('{"application_id": ')],
      ['more than 16 KiB', (id: string) => evidence({ application_id: id, independent_operator: true, basis: 'x'.repeat(16 * 1024) })],
    ])('refuses evidence with %s and leaves the class alone', async (_label, make) => {
      const { ctx, app } = await setup();
      const { id } = await enrolled(app);
      await expect(reclassify(ctx, { applicationId: id, classification: 'external_verified', evidence: make(id) })).rejects.toThrow(ReclassifyError);
      const row = await ctx.storage.db.selectFrom('applications').select('traffic_class').where('id', '=', id).executeTakeFirstOrThrow();
      expect(row.traffic_class).toBe('unverified');
    });

    it('moves between internal and unverified without evidence, and refuses other classes, bad ids and unknown ids', async () => {
      const { ctx, app } = await setup();
      const { id } = await enrolled(app);
      expect(await reclassify(ctx, { applicationId: id, classification: 'internal' })).toEqual({
        application_id: id, classification: 'internal', evidence_sha256: null, past_completions_reclassified: false,
      });
      expect((await reclassify(ctx, { applicationId: id, classification: 'unverified' })).classification).toBe('unverified');
      await expect(reclassify(ctx, { applicationId: id, classification: 'synthetic' })).rejects.toThrow(/one of internal, unverified, external_verified/);
      await expect(reclassify(ctx, { applicationId: id, classification: 'anonymous' })).rejects.toThrow(ReclassifyError);
      await expect(reclassify(ctx, { applicationId: id.toUpperCase(), classification: 'internal' })).rejects.toThrow(/32 lowercase hex/);
      await expect(reclassify(ctx, { applicationId: '0'.repeat(32), classification: 'internal' })).rejects.toThrow(/no retained application/);
      await expect(reclassify(ctx, { applicationId: id, classification: 'internal', evidence: evidence({}) })).rejects.toThrow(/only used for external_verified/);
    });
  });
}
