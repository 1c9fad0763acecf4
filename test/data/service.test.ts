// The service functions the routes will call, over a real store and a local source server.
import { Value } from 'typebox/value';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/core/config.js';
import { parseStrictJson } from '../../src/core/json.js';
import { encodeDataBody } from '../../src/data/encode.js';
import { QueryValidationError } from '../../src/data/errors.js';
import { DatasetsSchema, QueryResultSchema, ReleaseSchema, SnapshotListSchema, ValidationErrorSchema } from '../../src/data/schemas.js';
import { listDatasets, listSnapshots, listSources, queryDataset, releaseIdentity, type DataContext } from '../../src/data/service.js';
import type { Storage } from '../../src/storage/storage.js';
import { backends } from '../helpers/storage.js';
import { atlasDoc, boardDoc, capitalDoc, liquidityDoc } from './documents.js';
import { liveConfig, makeContext, serveJson, startSourceServer, testClock, type SourceServer } from './support.js';

describe('release identity', () => {
  it('is unversioned-local without a commit', () => {
    const release = releaseIdentity(loadConfig({}));
    expect(release).toMatchObject({ schema: 'financial-evidence.workspace-release.v1', release_id: 'unversioned-local', source_commit: null, workspace_version: '1.2.0' });
    expect(Object.keys(release)).toEqual(['schema', 'release_id', 'workspace_version', 'package_version', 'source_commit', 'contract', 'source_repository', 'identity_scope', 'institutional_readiness']);
    expect(Value.Check(ReleaseSchema, release)).toBe(true);
  });

  it('keeps a 40-hex commit and ends the release id with its first 12 characters', () => {
    const commit = '6aa5d7a22823b2490d7500afeba18174ca2e8822';
    const release = releaseIdentity(loadConfig({ EVIDENCE_RELEASE_COMMIT: commit }));
    expect(release).toMatchObject({ source_commit: commit, release_id: 'workspace-1.2.0+6aa5d7a22823', contract: 'financial-evidence.workspace.v1', identity_scope: 'operator_supplied_build_revision', institutional_readiness: 'not_certified' });
    expect(Value.Check(ReleaseSchema, release)).toBe(true);
  });

  it.each(['main', '6aa5d7a', '6AA5D7A22823B2490D7500AFEBA18174CA2E8822', '6aa5d7a22823b2490d7500afeba18174ca2e8822\n', ' 6aa5d7a22823b2490d7500afeba18174ca2e882'])(
    'refuses %j at start (a configuration error: exit 2)',
    (commit) => {
      expect(() => loadConfig({ EVIDENCE_RELEASE_COMMIT: commit })).toThrow(ConfigError);
      expect(() => loadConfig({ EVIDENCE_RELEASE_COMMIT: commit })).toThrow(/EVIDENCE_RELEASE_COMMIT/);
    },
  );
});

for (const backend of backends) {
  describe(`data service on ${backend.name}`, () => {
    let opened: Awaited<ReturnType<typeof backend.open>>;
    let storage: Storage;
    let server: SourceServer;
    let ctx: DataContext;

    beforeEach(async () => {
      opened = await backend.open();
      storage = opened.storage;
      server = await startSourceServer();
      ctx = makeContext(storage, liveConfig(server), testClock());
    });
    afterEach(async () => {
      await server.close();
      await opened.cleanup();
    });

    it('validates before any fetch or store read', async () => {
      for (const raw of [{ dataset: 'bad' }, { dataset: 'money_markets', limit: '0' }, { dataset: 'money_markets', limit: 'true' }, { dataset: 'money_markets', offset: '-1' },
        { dataset: 'money_markets', entity: 'x'.repeat(101) }, { dataset: 'money_markets', start_date: '20260901' }, { dataset: 'money_markets', start_date: '2026-02-30' },
        { dataset: 'money_markets', start_date: '2026-09-02', end_date: '2026-09-01' }, { dataset: 'money_markets', limit: '2001' }, { dataset: 'money_markets', start_date: 'wrong' }]) {
        const error = await queryDataset(ctx, raw).then(() => null, (e: unknown) => e);
        expect(error).toBeInstanceOf(QueryValidationError);
        expect(Value.Check(ValidationErrorSchema, (error as QueryValidationError).body())).toBe(true);
      }
      expect(server.requests).toEqual([]);
      expect(ctx.cache.fetches).toBe(0);
    });

    it('turns a failed source into an unavailable, filtered-away page with a diagnostic and the error in sources', async () => {
      const result = await queryDataset(ctx, { dataset: 'money_markets', entity: 'US-USD' });
      expect(result.results).toEqual([]);
      expect(result.total_rows).toBe(0);
      expect(result.transport_status).toBe('unavailable');
      expect(result.diagnostics).toHaveLength(1);
      expect(result.diagnostics[0]).toMatchObject({ entity_id: 'Seiche', metric: 'source_status', availability: 'source_unavailable', value: null, source_field: '', context: 'http_status: the source answered HTTP 404', transport_status: 'unavailable', content_sha256: null });
      expect(result.sources[0]).toMatchObject({ ok: false, error: 'http_status: the source answered HTTP 404' });
      expect(result.sources[0]).not.toHaveProperty('content_sha256');
      expect(Value.Check(QueryResultSchema, result)).toBe(true);
    });

    it.each([['schema "new-format"', { schema: 'new-format' }], ['markets null', { markets: null }]])('reports schema drift (%s) as a diagnostic and a null row', async (_what, change) => {
      serveJson(server, 'money-market', { ...atlasDoc([{ id: 'US-USD' }]), ...change });
      const result = await queryDataset(ctx, { dataset: 'money_markets' });
      expect(result.transport_status).toBe('complete');
      expect(result.diagnostics.map((r) => r.availability)).toEqual(['schema_unavailable']);
      expect(result.results).toHaveLength(1);
      expect(result.results[0]).toMatchObject({ value: null, availability: 'schema_unavailable', entity_id: 'Seiche', transport_status: 'complete' });
      expect(result.results[0].content_sha256).toBe((result.sources[0] as { content_sha256: string }).content_sha256);
    });

    it('answers every dataset with bodies that match the published schemas, and is partial when some sources fail', async () => {
      serveJson(server, 'money-market', atlasDoc([{ id: 'US-USD', value: 4.5 }]));
      serveJson(server, 'capital-market', capitalDoc());
      serveJson(server, 'bank-risk', boardDoc());
      serveJson(server, 'market-liquidity', liquidityDoc());
      serveJson(server, 'china-economy-seiche', { china_macro: { series_catalog: [{ series_id: 'CPI' }] } });
      for (const dataset of ['money_markets', 'money_market_history', 'capital_markets', 'bank_risk', 'market_liquidity', 'china_economy', 'source_health']) {
        const result = await queryDataset(ctx, { dataset });
        expect(Value.Check(QueryResultSchema, result), `${dataset}: ${JSON.stringify([...Value.Errors(QueryResultSchema, result)].slice(0, 2))}`).toBe(true);
        // What the routes send parses back to the same values.
        expect(parseStrictJson(encodeDataBody(result))).toEqual(JSON.parse(JSON.stringify(result)));
      }
      const china = await queryDataset(ctx, { dataset: 'china_economy' });
      expect(china.transport_status).toBe('partial');
      expect(china.results.map((r) => r.availability)).toEqual(['source_unavailable', 'metadata_only']);
      const sources = await listSources(ctx);
      expect(sources.dataset).toBe('source_health');
      expect(sources.transport_status).toBe('partial');
      // The source_reported object as a Python-style JSON text: sorted keys, ", " and ": ".
      expect(sources.results[0].context).toMatch(/^\{"adapter": "seiche_money_markets_v1", "clocks": \[\{"name": "generated_at", "path": "\/generated_at", "provenance": \{"content_sha256": /);
      expect(JSON.parse(sources.results[0].context!)).toEqual(sources.sources[0].ok ? (sources.sources[0] as { source_reported: unknown }).source_reported : null);
      expect(Value.Check(DatasetsSchema, await listDatasets(ctx))).toBe(true);
      expect(Value.Check(SnapshotListSchema, await listSnapshots(ctx, { dataset: 'source_health' }))).toBe(true);
    });

    it('describes a successful source record with the upstream fields in order', async () => {
      serveJson(server, 'money-market', atlasDoc([{ id: 'US-USD' }]));
      const [record] = (await queryDataset(ctx, { dataset: 'money_markets' })).sources;
      expect(Object.keys(record)).toEqual([
        'topic', 'product', 'source_url', 'human_scope_url', 'financial_authority', 'carrier_state', 'retrieved_at', 'evidence_class', 'ok',
        'resolved_url', 'bytes', 'content_sha256', 'source_reported', 'cache',
      ]);
      expect(record).toMatchObject({
        topic: 'money-market', product: 'Seiche', human_scope_url: 'https://seiche.info/use-cases/money-market-research/', financial_authority: 'none',
        carrier_state: 'not_published', retrieved_at: '2026-11-19T12:00:00Z', evidence_class: 'observed_or_unavailable', ok: true,
        source_reported: { adapter: 'seiche_money_markets_v1', state: [{ name: 'response_status', value: 'PARTIAL', path: '/status' }], clocks: [{ name: 'generated_at', path: '/generated_at' }] },
      });
      expect(encodeDataBody(record).toString()).toContain('"cache":{"hit":false,"age_seconds":0.0,"ttl_seconds":60}');
    });
  });
}
