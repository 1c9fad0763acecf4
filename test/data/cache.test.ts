// The store-backed source cache: freshness with a moved clock, single flight in one
// process and across instances sharing a store, four fetch slots.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/core/hash.js';
import { listSources, queryDataset, type DataContext } from '../../src/data/service.js';
import type { Storage } from '../../src/storage/storage.js';
import { backends } from '../helpers/storage.js';
import { atlasDoc, boardDoc, capitalDoc, liquidityDoc } from './documents.js';
import { liveConfig, makeContext, serveJson, SOURCE_PATHS, startSourceServer, testClock, type SourceServer, type TestClock } from './support.js';

for (const backend of backends) {
  describe(`source cache on ${backend.name}`, () => {
    let opened: Awaited<ReturnType<typeof backend.open>>;
    let storage: Storage;
    let server: SourceServer;
    let clock: TestClock;
    let ctx: DataContext;
    const atlasPath = SOURCE_PATHS['money-market'];
    const fetchesOf = (path: string) => server.requests.filter((p) => p === path).length;

    beforeEach(async () => {
      opened = await backend.open();
      storage = opened.storage;
      server = await startSourceServer();
      clock = testClock();
      serveJson(server, 'money-market', atlasDoc([{ id: 'US-USD', value: 4.5 }, { id: 'XX', value: 99, availability: 'RESTRICTED' }]));
      ctx = makeContext(storage, liveConfig(server), clock);
    });
    afterEach(async () => {
      await server.close();
      await opened.cleanup();
    });

    it('serves 12 concurrent queries from one fetch; copies are independent and retrieval clocks stay put', async () => {
      server.routes.get(atlasPath)!.delayMs = 100;
      const results = await Promise.all(Array.from({ length: 12 }, () => queryDataset(ctx, { dataset: 'money_markets' })));
      expect(fetchesOf(atlasPath)).toBe(1);
      expect(new Set(results.map((r) => r.snapshot_id)).size).toBe(1);
      results[0].results[0].value = -1;
      (results[0].sources[0] as { bytes: number }).bytes = 0;
      clock.advance(30);
      const later = await queryDataset(ctx, { dataset: 'money_markets' });
      expect(fetchesOf(atlasPath)).toBe(1);
      expect(later.results[0].value).toBe(4.5);
      expect((later.sources[0] as { bytes: number }).bytes).toBeGreaterThan(0);
      expect(later.sources[0].retrieved_at).toBe(results[1].sources[0].retrieved_at);
      expect(later.results[0].retrieved_at).toBe('2026-11-19T12:00:00Z');
      expect(later.sources[0].cache).toEqual({ hit: true, age_seconds: 30, ttl_seconds: 60 });
      // Whoever waited for the fetch says so; a query that only reached the store after it
      // finished found a fresh entry. Either way the copy is 0 s old.
      expect(results.some((r) => r.sources[0].cache.hit === false)).toBe(true);
      for (const r of results) expect(r.sources[0].cache).toMatchObject({ age_seconds: 0, ttl_seconds: 60 });
    });

    it('refetches at the TTL, never serves the expired success after a failed refresh, and retries failures after 5 s', async () => {
      await queryDataset(ctx, { dataset: 'money_markets' });
      clock.advance(59);
      const at59 = await queryDataset(ctx, { dataset: 'money_markets' });
      expect(at59.sources[0].cache.age_seconds).toBe(59);
      expect(fetchesOf(atlasPath)).toBe(1);

      server.routes.set(atlasPath, { status: 500, body: 'down' });
      clock.advance(1);
      const at60 = await queryDataset(ctx, { dataset: 'money_markets' });
      expect(fetchesOf(atlasPath)).toBe(2);
      expect(at60.transport_status).toBe('unavailable');
      expect(at60.results.every((r) => r.value === null)).toBe(true);
      expect(at60.results[0]).toMatchObject({ availability: 'source_unavailable', transport_status: 'unavailable' });
      expect(at60.sources[0]).toMatchObject({ ok: false, error: 'http_status: the source answered HTTP 500', cache: { hit: false, ttl_seconds: 5 } });

      serveJson(server, 'money-market', atlasDoc([{ id: 'US-USD', value: 4.6 }]));
      clock.advance(4);
      const at64 = await queryDataset(ctx, { dataset: 'money_markets' });
      expect(fetchesOf(atlasPath)).toBe(2);
      expect(at64.transport_status).toBe('unavailable');
      expect(at64.snapshot_id).toBe(at60.snapshot_id);

      clock.advance(1);
      const at65 = await queryDataset(ctx, { dataset: 'money_markets' });
      expect(fetchesOf(atlasPath)).toBe(3);
      expect(at65.transport_status).toBe('complete');
      expect(at65.results[0].value).toBe(4.6);
    });

    it('fetches every source with at most four at a time, in route order, one stored retrieval per URL', async () => {
      serveJson(server, 'capital-market', capitalDoc());
      serveJson(server, 'china-economy-palimpsest', { status: 'restricted' });
      serveJson(server, 'china-economy-seiche', { china_macro: { series_catalog: [{ series_id: 'A' }] } });
      serveJson(server, 'bank-risk', boardDoc());
      serveJson(server, 'market-liquidity', liquidityDoc());
      for (const served of server.routes.values()) served.delayMs = 150;
      const result = await listSources(ctx);
      expect(server.maxInFlight).toBe(4);
      expect(result.sources.map((s) => s.topic)).toEqual(['money-market', 'capital-market', 'china-economy', 'china-economy', 'bank-risk', 'market-liquidity']);
      expect(result.results.map((r) => r.entity_id)).toEqual(['money-market', 'capital-market', 'china-economy', 'china-economy', 'bank-risk', 'market-liquidity']);
      const stored = await storage.db.selectFrom('data_retrievals').select(['source_url']).execute();
      expect(stored).toHaveLength(6);
      expect(new Set(stored.map((r) => r.source_url)).size).toBe(6);
      await listSources(ctx);
      expect(server.requests).toHaveLength(6);
    });

    it('lets two instances on one store fetch once and answer with the same snapshot and rows', async () => {
      server.routes.get(atlasPath)!.delayMs = 150;
      const other = makeContext(await opened.openAnother(), liveConfig(server), clock);
      const [a, b, c, d] = await Promise.all([
        queryDataset(ctx, { dataset: 'money_markets' }),
        queryDataset(other, { dataset: 'money_markets' }),
        queryDataset(other, { dataset: 'money_markets' }),
        queryDataset(ctx, { dataset: 'money_markets' }),
      ]);
      expect(fetchesOf(atlasPath)).toBe(1);
      expect(ctx.cache.fetches + other.cache.fetches).toBe(1);
      expect(new Set([a, b, c, d].map((r) => r.snapshot_id)).size).toBe(1);
      expect(b.results).toEqual(a.results);
      const pinned = await queryDataset(other, { dataset: 'money_markets', snapshot: a.snapshot_id, limit: '1', offset: '1' });
      expect(pinned.results).toEqual([a.results[1]]);
    });

    it('takes over the fetch when the instance holding it has gone (its lease expires)', async () => {
      const url = ctx.registry.get('money-market').url;
      // Timed from before the lease is taken: it runs from the moment the store took it, which
      // a busy machine may reach well after the call began.
      const started = Date.now();
      expect(await storage.tryLease(`data-fetch:live:${sha256Hex(url).slice(0, 32)}`, 'a-crashed-instance', 300)).toBe(true);
      const result = await queryDataset(ctx, { dataset: 'money_markets' });
      expect(Date.now() - started).toBeGreaterThanOrEqual(250);
      expect(result.transport_status).toBe('complete');
      expect(fetchesOf(atlasPath)).toBe(1);
    });

    it('fetches again on every query when both TTLs are 0, one fetch per concurrent burst', async () => {
      const eager = makeContext(storage, liveConfig(server, { sourceCacheTtl: 0, sourceErrorTtl: 0 }), clock);
      // Long enough that the two queries surely overlap.
      server.routes.get(atlasPath)!.delayMs = 500;
      await Promise.all([queryDataset(eager, { dataset: 'money_markets' }), queryDataset(eager, { dataset: 'money_markets' })]);
      expect(fetchesOf(atlasPath)).toBe(1);
      await queryDataset(eager, { dataset: 'money_markets' });
      expect(fetchesOf(atlasPath)).toBe(2);
    });
  });
}
