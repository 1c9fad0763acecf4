// Agent routes over HTTP (app.inject) with sources on a local server (upstream §8 items
// 39–43): revisions ignore retrieval clocks and cache ages, change with any evidence or
// filter, `unchanged` only with complete transport, every check before any fetch, the
// review's sections in order with each source fetched once, and snapshots pinned.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { atlasDoc, boardDoc, liquidityDoc } from './documents.js';
import { liveConfig, serveJson, SOURCE_PATHS, startSourceServer, testClock, type SourceServer, type TestClock } from './support.js';

interface Table {
  dataset: string;
  results: { source_field: string; value: unknown }[];
  returned_rows: number;
  total_rows: number;
  suppressed_rows?: number;
  diagnostics: unknown[];
  transport_status: string;
}
interface AgentBody extends Table {
  schema: string;
  revision: string;
  change_status: string;
  freshness_status: string;
  financial_authority: string;
  instructions: string;
  snapshot_id: string;
  sources: { retrieved_at: string; source_url: string; error?: string; document?: unknown }[];
}
interface ReviewBody {
  sections: Table[];
  sources: AgentBody['sources'];
  revision: string;
  change_status: string;
  snapshot_id: string;
  financial_authority: string;
  transport_status: string;
}

describe('agent routes', () => {
  let server: SourceServer;
  let clock: TestClock;
  let t: TestApp;

  beforeEach(async () => {
    server = await startSourceServer();
    clock = testClock();
    serveJson(server, 'money-market', atlasDoc([{ id: 'US-USD', value: 0 }, { id: 'EU-EUR', value: 3.2 }]));
    serveJson(server, 'bank-risk', boardDoc());
    serveJson(server, 'market-liquidity', liquidityDoc());
    // liveConfig carries every default, load shedding included: off here, as makeTestApp intends.
    t = await makeTestApp({ ...liveConfig(server), maxEventLoopDelay: 0 }, { clock });
  });
  afterEach(async () => {
    await t.close();
    await server.close();
  });

  const get = async <T>(url: string) => {
    const res = await t.app.inject({ url });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<T>();
  };
  const query = (extra = '') => get<AgentBody>(`/api/v1/agent-query?dataset=money_markets&limit=5${extra}`);

  it('a repeat whose sources only have a new retrieval time is unchanged: rows suppressed, sources kept', async () => {
    const first = await query();
    expect(first).toMatchObject({ schema: 'financial-evidence.agent-result.v1', change_status: 'changed', freshness_status: 'not_evaluated', financial_authority: 'none', returned_rows: 2 });
    expect(first.suppressed_rows).toBeUndefined();
    expect(first.revision).toMatch(/^[0-9a-f]{64}$/);
    expect(first.instructions.length).toBeGreaterThan(40);
    clock.advance(120); // past the cache lifetime: the same bytes are fetched again
    const second = await query(`&previous_revision=${first.revision}`);
    expect(server.requests.filter((p) => p === SOURCE_PATHS['money-market'])).toHaveLength(2);
    expect(second.sources[0].retrieved_at).not.toBe(first.sources[0].retrieved_at);
    expect(second).toMatchObject({ change_status: 'unchanged', revision: first.revision, results: [], returned_rows: 0, suppressed_rows: 2, total_rows: 2 });
    expect(second.sources).toHaveLength(1);
  });

  it.each([
    ['a new observation date', () => atlasDoc([{ id: 'US-USD', value: 0, asof: '2026-09-25' }, { id: 'EU-EUR', value: 3.2 }])],
    ['a new rights label', () => atlasDoc([{ id: 'US-USD', value: 0, redistribution: 'restricted' }, { id: 'EU-EUR', value: 3.2 }])],
  ])('%s makes a new revision (changed)', async (_name, doc) => {
    const first = await query();
    serveJson(server, 'money-market', doc());
    clock.advance(120);
    const second = await query(`&previous_revision=${first.revision}`);
    expect(second.change_status).toBe('changed');
    expect(second.revision).not.toBe(first.revision);
    expect(second.returned_rows).toBe(2);
  });

  it('bodies print row values in the data group\'s number forms (a float-kind 0 is 0.0)', async () => {
    for (const url of ['/api/v1/agent-query?dataset=money_markets&limit=1', '/api/v1/agent-review?limit=1']) {
      const res = await t.app.inject({ url });
      expect(res.body).toContain('"value":0.0');
    }
  });

  it('another filter is another revision', async () => {
    const first = await query();
    const filtered = await query(`&entity=usd&previous_revision=${first.revision}`);
    expect(filtered.change_status).toBe('changed');
    expect(filtered.revision).not.toBe(first.revision);
  });

  it('after a transport failure the same revision stays changed and keeps its diagnostics', async () => {
    server.routes.set(SOURCE_PATHS['money-market'], { status: 500, body: 'no' });
    const failed = await query();
    expect(failed.transport_status).toBe('unavailable');
    clock.advance(10);
    const again = await query(`&previous_revision=${failed.revision}`);
    expect(again.revision).toBe(failed.revision);
    expect(again.change_status).toBe('changed');
    expect(again.diagnostics.length).toBeGreaterThan(0);
    expect(again.suppressed_rows).toBeUndefined();
  });

  it('a snapshot id answers the cited evidence again, after the source changed', async () => {
    const first = await query();
    serveJson(server, 'money-market', atlasDoc([{ id: 'US-USD', value: 9 }]));
    clock.advance(120);
    const pinned = await query(`&snapshot=${first.snapshot_id}&previous_revision=${first.revision}`);
    expect(pinned.change_status).toBe('unchanged');
    const current = await query(`&previous_revision=${first.revision}`);
    expect(current.change_status).toBe('changed');
  });

  it('review: three sections in order, each source fetched once, bank filter only on bank_risk, no documents', async () => {
    const body = await get<ReviewBody>('/api/v1/agent-review?bank=missing%20bank&limit=2');
    expect(body.sections.map((s) => s.dataset)).toEqual(['money_markets', 'bank_risk', 'market_liquidity']);
    for (const key of ['money-market', 'bank-risk', 'market-liquidity'] as const) {
      expect(server.requests.filter((p) => p === SOURCE_PATHS[key])).toHaveLength(1);
    }
    expect(server.requests).toHaveLength(3);
    expect(body.sections[1].results).toEqual([]);
    expect(body.sections[0].results[0].source_field).toBe('/markets/0/benchmark/value');
    expect(body.sections[0].results[0].value).toBe(0);
    expect(body.financial_authority).toBe('none');
    expect(body.sources).toHaveLength(3);
    expect(body.sources.every((s) => s.document === undefined)).toBe(true);

    clock.advance(120);
    const again = await get<ReviewBody>(`/api/v1/agent-review?bank=missing%20bank&limit=2&previous_revision=${body.revision}`);
    expect(again.change_status).toBe('unchanged');
    expect(again.sections.map((s) => s.suppressed_rows)).toEqual([2, 0, body.sections[2].returned_rows]);
    const pinned = await get<ReviewBody>(`/api/v1/agent-review?bank=missing%20bank&limit=2&snapshot=${body.snapshot_id}`);
    expect(pinned.revision).toBe(body.revision);
  });

  it.each([
    '/api/v1/agent-query?dataset=money_markets&limit=101',
    '/api/v1/agent-query?dataset=money_markets&limit=true',
    '/api/v1/agent-query?dataset=money_markets&offset=-1',
    '/api/v1/agent-query?dataset=money_markets&previous_revision=ABC',
    '/api/v1/agent-query?dataset=money_markets&start_date=yesterday',
    '/api/v1/agent-review?limit=26',
    '/api/v1/agent-review?bank=' + 'x'.repeat(101),
    '/api/v1/agent-review?previous_revision=' + 'a'.repeat(63),
  ])('%s is a 422 in the one validation shape, before any fetch', async (url) => {
    const res = await t.app.inject({ url });
    expect(res.statusCode).toBe(422);
    const body = res.json<{ detail: { loc: string[] }[]; code: string; path: string }>();
    expect(body.detail[0].loc[0]).toBe('query');
    expect(body.path).toBe(`/query/${body.detail[0].loc[1]}`);
    expect(server.requests).toEqual([]);
  });
});
