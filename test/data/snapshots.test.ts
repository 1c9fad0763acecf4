// Snapshots in the store: pinning, vintages, the listing and the retention sweep.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, MIN_SNAPSHOT_PIN_HOURS } from '../../src/core/config.js';
import { sha256Hex } from '../../src/core/hash.js';
import { encodeDataBody } from '../../src/data/encode.js';
import { listDatasets, listSnapshots, queryDataset, sweep, type DataContext, type QueryResult } from '../../src/data/service.js';
import { SWEEP_PROOF_US } from '../../src/data/snapshots.js';
import { storeBlob } from '../../src/funding/archive.js';
import type { Storage } from '../../src/storage/storage.js';
import { backends } from '../helpers/storage.js';
import { atlasDoc } from './documents.js';
import { liveConfig, makeContext, refusal, serveJson, startSourceServer, testClock, type SourceServer, type TestClock } from './support.js';

const shaOf = (result: QueryResult) => (result.sources[0] as { content_sha256: string }).content_sha256;

for (const backend of backends) {
  describe(`data snapshots on ${backend.name}`, () => {
    let opened: Awaited<ReturnType<typeof backend.open>>;
    let storage: Storage;
    let server: SourceServer;
    let clock: TestClock;
    let ctx: DataContext;
    const markets = (values: number[]) => atlasDoc(values.map((value, i) => ({ id: `M${i}`, value, history: [['2026-09-23', value]] })));
    const count = async (table: 'data_snapshots' | 'data_retrievals' | 'funding_publisher_blobs') =>
      Number((await storage.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

    beforeEach(async () => {
      opened = await backend.open();
      storage = opened.storage;
      server = await startSourceServer();
      clock = testClock('2026-11-19T12:00:00Z');
      serveJson(server, 'money-market', markets([1, 2, 3, 4, 5]));
      ctx = makeContext(storage, liveConfig(server), clock);
    });
    afterEach(async () => {
      await server.close();
      await opened.cleanup();
    });

    /** Queries at the current clock, after serving `values` (a new document). */
    async function stateWith(values: number[] | null): Promise<QueryResult> {
      if (values) serveJson(server, 'money-market', markets(values));
      return queryDataset(ctx, { dataset: 'money_markets' });
    }

    it('pages over exactly one snapshot while the source changes between pages', async () => {
      const first = await queryDataset(ctx, { dataset: 'money_markets', limit: '2' });
      expect(first.snapshot_id).toMatch(/^[0-9a-f]{32}$/);
      clock.advance(61);
      const changed = await stateWith([10, 20]);
      expect(changed.snapshot_id).not.toBe(first.snapshot_id);
      expect(changed.total_rows).toBe(2);

      const values: (number | null)[] = [...first.results.map((r) => r.value)];
      let next = first.next_offset;
      while (next !== null) {
        const page = await queryDataset(ctx, { dataset: 'money_markets', limit: '2', offset: String(next), snapshot: first.snapshot_id });
        expect(page.snapshot_id).toBe(first.snapshot_id);
        expect(page.total_rows).toBe(5);
        expect(shaOf(page)).toBe(shaOf(first));
        // A chosen snapshot reports the copy's age when the snapshot was formed (here at once).
        expect(page.sources[0].cache).toEqual({ hit: true, age_seconds: 0, ttl_seconds: 60 });
        values.push(...page.results.map((r) => r.value));
        next = page.next_offset;
      }
      expect(values).toEqual([1, 2, 3, 4, 5]);
    });

    it('keeps the rows of two snapshots larger than the row budget, so paging through either projects it once', async () => {
      const small = makeContext(storage, liveConfig(server), clock, { snapshotRowBudget: 2 });
      const first = await small.snapshots.current('money_markets');
      expect(first.state.rows).toHaveLength(5);
      // Another dataset's snapshot comes and goes without pushing it out, and so does a
      // second large one read in turn with it.
      await small.snapshots.current('capital_markets');
      const history = await small.snapshots.current('money_market_history');
      expect(history.state.rows.length).toBeGreaterThan(2);
      for (let i = 0; i < 3; i++) {
        expect((await small.snapshots.current('money_markets')).state).toBe(first.state);
        expect((await small.snapshots.current('money_market_history')).state).toBe(history.state);
      }
      const pinned = await small.snapshots.byId('money_markets', first.state.row.snapshotId);
      expect(pinned.state).toBe(first.state);
    });

    it('answers a chosen snapshot with the same bytes however much later it is asked', async () => {
      const first = await stateWith(null);
      clock.advance(7);
      const fromIt = await queryDataset(ctx, { dataset: 'money_markets', snapshot: first.snapshot_id });
      // The current snapshot keeps reporting the age at answer time (upstream §8 item 25).
      expect((await stateWith(null)).sources[0].cache).toEqual({ hit: true, age_seconds: 7, ttl_seconds: 60 });
      clock.advance(3600);
      const later = await queryDataset(ctx, { dataset: 'money_markets', snapshot: first.snapshot_id });
      expect(encodeDataBody(later).equals(encodeDataBody(fromIt))).toBe(true);
      expect(fromIt.sources[0].cache).toEqual({ hit: true, age_seconds: 0, ttl_seconds: 60 });
    });

    it('answers a pinned query from another instance on the same store', async () => {
      const first = await stateWith(null);
      const other = makeContext(await opened.openAnother(), liveConfig(server), clock);
      const pinned = await queryDataset(other, { dataset: 'money_markets', snapshot: first.snapshot_id });
      expect(pinned.results).toEqual(first.results);
      expect(server.requests).toHaveLength(1);
    });

    it('answers a held snapshot by id without the store only while no sweep can have removed it', async () => {
      // No configuration allows a pin window under MIN_SNAPSHOT_PIN_HOURS, so a younger snapshot is still stored.
      expect(() => loadConfig({ EVIDENCE_SNAPSHOT_PIN_HOURS: String(MIN_SNAPSHOT_PIN_HOURS - 1) })).toThrow(ConfigError);
      const first = await stateWith(null);
      const gone = async () => {
        await storage.db.deleteFrom('data_snapshot_sources').where('snapshot_id', '=', first.snapshot_id).execute();
        await storage.db.deleteFrom('data_snapshots').where('snapshot_id', '=', first.snapshot_id).execute();
      };
      clock.advance(SWEEP_PROOF_US / 1e6 - 1);
      await gone();
      // Removed behind the sweep's back (no sweep could yet): this process still holds it.
      expect((await queryDataset(ctx, { dataset: 'money_markets', snapshot: first.snapshot_id })).snapshot_id).toBe(first.snapshot_id);
      clock.advance(1);
      expect(await refusal(queryDataset(ctx, { dataset: 'money_markets', snapshot: first.snapshot_id }))).toMatchObject({ code: 'snapshot_not_stored' });
    });

    it('refuses a snapshot id it does not hold, or one of another dataset, with the one 422 body', async () => {
      const first = await stateWith(null);
      const unknown = await refusal(queryDataset(ctx, { dataset: 'money_markets', snapshot: 'f'.repeat(32) }));
      expect(unknown).toMatchObject({ code: 'snapshot_not_stored', path: '/query/snapshot', detail: [{ type: 'snapshot_not_stored', loc: ['query', 'snapshot'], input: 'f'.repeat(32) }] });
      const other = await refusal(queryDataset(ctx, { dataset: 'money_market_history', snapshot: first.snapshot_id }));
      expect(other.code).toBe('snapshot_not_stored');
    });

    it('answers as_retrieved_at from the newest snapshot retrieved at or before it', async () => {
      const s1 = await stateWith(null);
      clock.advance(120);
      const s2 = await stateWith([7]);
      const at = async (instant: string) => (await queryDataset(ctx, { dataset: 'money_markets', as_retrieved_at: instant })).snapshot_id;
      expect(await at('2026-11-19T12:00:00Z')).toBe(s1.snapshot_id);
      expect(await at('2026-11-19T12:01:59.999999Z')).toBe(s1.snapshot_id);
      expect(await at('2026-11-19T12:02:00+00:00')).toBe(s2.snapshot_id);
      expect(await at('2027-01-01T00:00:00Z')).toBe(s2.snapshot_id);
      const none = await refusal(queryDataset(ctx, { dataset: 'money_markets', as_retrieved_at: '2026-11-19T11:59:59Z' }));
      expect(none).toMatchObject({ code: 'no_snapshot_at_or_before', path: '/query/as_retrieved_at', detail: [{ loc: ['query', 'as_retrieved_at'] }] });
      expect(server.requests).toHaveLength(2);
    });

    it('lists snapshots newest first with their clocks, hashes and row counts, paged', async () => {
      const s1 = await stateWith(null);
      clock.advance(61.5);
      const s2 = await stateWith([9, 8]);
      const page1 = await listSnapshots(ctx, { dataset: 'money_markets', limit: '1' });
      expect(page1).toMatchObject({ schema: 'evidence-desk.data-snapshots.v1', dataset: 'money_markets', total_rows: 2, returned_rows: 1, offset: 0, limit: 1, next_offset: 1 });
      expect(page1.results[0]).toEqual({
        snapshot_id: s2.snapshot_id,
        dataset: 'money_markets',
        retrieved_at: '2026-11-19T12:01:01.500000Z',
        created_at: '2026-11-19T12:01:01.500000Z',
        row_count: 2,
        transport_status: 'complete',
        sources: [{ topic: 'money-market', source_url: ctx.registry.get('money-market').url, ok: true, retrieved_at: '2026-11-19T12:01:01.500000Z', content_sha256: shaOf(s2) }],
      });
      // A listed retrieved_at chooses that very snapshot as a vintage.
      expect((await queryDataset(ctx, { dataset: 'money_markets', as_retrieved_at: page1.results[0].retrieved_at })).snapshot_id).toBe(s2.snapshot_id);
      const page2 = await listSnapshots(ctx, { dataset: 'money_markets', limit: '1', offset: '1' });
      expect(page2.results.map((r) => [r.snapshot_id, r.row_count])).toEqual([[s1.snapshot_id, 5]]);
      expect(page2.next_offset).toBeNull();
      expect((await listSnapshots(ctx, { dataset: 'bank_risk' })).total_rows).toBe(0);
    });

    it('reports each dataset with its columns and the newest snapshot row count, without fetching', async () => {
      const before = await listDatasets(ctx);
      expect(before.map((d) => d.id)).toEqual(['money_markets', 'money_market_history', 'capital_markets', 'bank_risk', 'market_liquidity', 'china_economy', 'source_health']);
      expect(before.every((d) => d.row_count === null && d.snapshot_id === null)).toBe(true);
      expect(before[0].columns).toHaveLength(23);
      expect(before[0].columns[5]).toMatchObject({ name: 'value', type: 'number', nullable: true });
      expect(server.requests).toHaveLength(0);
      const s1 = await stateWith(null);
      const after = await listDatasets(ctx);
      expect(after[0]).toMatchObject({ row_count: 5, snapshot_id: s1.snapshot_id, default_limit: 200, maximum_limit: 2000, filters: ['entity', 'start_date', 'end_date'] });
      expect(after[1].row_count).toBeNull();
    });

    it('thins repeated snapshots after the pin window, keeps changes, and keeps recent ones by id', async () => {
      const a1 = await stateWith(null);
      clock.advance(61);
      const a2 = await stateWith(null); // same bytes, new retrieval: a repeat of a1
      clock.advance(61);
      const b = await stateWith([6]);
      expect(new Set([a1.snapshot_id, a2.snapshot_id, b.snapshot_id]).size).toBe(3);

      clock.advance(3600); // within the 24 h pin window: nothing goes
      expect(await sweep(ctx)).toEqual({ snapshots_removed: 0, retrievals_removed: 0, blobs_removed: 0 });
      clock.advance(24 * 3600);
      expect(await sweep(ctx)).toEqual({ snapshots_removed: 1, retrievals_removed: 0, blobs_removed: 0 });
      const listed = (await listSnapshots(ctx, { dataset: 'money_markets' })).results.map((r) => r.snapshot_id);
      expect(listed).toEqual([b.snapshot_id, a1.snapshot_id]);
      expect(await refusal(queryDataset(ctx, { dataset: 'money_markets', snapshot: a2.snapshot_id }))).toMatchObject({ code: 'snapshot_not_stored' });
      // The vintage at a2's time still has a2's content: a1.
      const vintage = await queryDataset(ctx, { dataset: 'money_markets', as_retrieved_at: '2026-11-19T12:01:30Z' });
      expect(vintage.snapshot_id).toBe(a1.snapshot_id);
      expect(vintage.results).toEqual(a1.results.map((r) => ({ ...r })));
    });

    it('removes expired snapshots, their retrievals and data-only documents, never a document the funding archive mentions', async () => {
      const first = await stateWith(null);
      clock.advance(61);
      await stateWith([42]);
      const [kept, dropped] = (await storage.db.selectFrom('data_retrievals').select(['content_sha256']).orderBy('seq').execute()).map((r) => r.content_sha256!);
      // The funding archive stores the first document too (same bytes) and mentions it in an attempt's receipts.
      await storage.db.insertInto('funding_attempts').values({
        attempt_id: 'a'.repeat(32), seq: 1, mode: 'live', started_at_us: 0, recorded_at_us: 0, outcome: 'failed', packet_id: null, manifest_sha256: null,
        review_asof: null, error_code: 'x', error: 'x', receipts_json: JSON.stringify({ sofr: { sha256: kept } }), sample_day: null,
      }).execute();
      // And a packet review mentions a third, publisher-only blob.
      const publisherOnly = await storage.serialized('funding-archive', (trx) => storeBlob(trx, new TextEncoder().encode('{"publisher": true}'), 0));
      await storage.db.insertInto('funding_packets').values({
        packet_id: 'p', seq: 1, mode: 'live', archived_at_us: 0, source_captured_at_us: 0, review_asof: null, review_scope: 's', ready_at_capture: 1,
        manifest_sha256: 'm', source_manifest_sha256: 's', manifest: Buffer.from('{}'), review: Buffer.from(`{"sha256": "${publisherOnly}"}`), csv: Buffer.from(''),
      }).execute();
      expect(await count('funding_publisher_blobs')).toBe(3);

      clock.advance(91 * 86400);
      const report = await sweep(ctx);
      expect(report).toEqual({ snapshots_removed: 2, retrievals_removed: 2, blobs_removed: 1 });
      expect(await count('data_snapshots')).toBe(0);
      expect(await count('data_retrievals')).toBe(0);
      const blobs = (await storage.db.selectFrom('funding_publisher_blobs').select('sha256').execute()).map((r) => r.sha256).sort();
      expect(blobs).toEqual([kept, publisherOnly].sort());
      expect(blobs).not.toContain(dropped);
      expect(sha256Hex(JSON.stringify(markets([1, 2, 3, 4, 5])))).toBe(kept);
      expect(await refusal(queryDataset(ctx, { dataset: 'money_markets', snapshot: first.snapshot_id }))).toMatchObject({ code: 'snapshot_not_stored' });
    });

    it('keeps a document that a remaining retrieval still names', async () => {
      await stateWith(null);
      clock.advance(89 * 86400);
      await stateWith(null); // same bytes again, within retention
      clock.advance(2 * 86400);
      const report = await sweep(ctx);
      expect(report).toMatchObject({ snapshots_removed: 1, retrievals_removed: 1, blobs_removed: 0 });
      expect(await count('funding_publisher_blobs')).toBe(1);
    });
  });
}
