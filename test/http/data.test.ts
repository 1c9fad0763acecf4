// The data routes over HTTP (app.inject), in live mode against a local source server:
// upstream §8 items 15, 24, 27, 28, 37 and 38 as they apply here, the one 422 body, strong
// ETags and 304, consistent paging by snapshot id, vintages, CSV, the /openbb mount, CORS.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { sha256Hex } from '../../src/core/hash.js';
import { parseStrictJson } from '../../src/core/json.js';
import type { Config } from '../../src/core/config.js';
import type { QueryResult } from '../../src/data/schemas.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { DATA_ROUTES } from '../../src/http/routes/data.js';
import { DATA_REVIEW_ROUTES } from '../../src/http/routes/data-review.js';
import { atlasDoc, boardDoc, capitalDoc, liquidityDoc } from '../data/documents.js';
import { liveConfig, serveJson, startSourceServer, testClock, type SourceServer, type TestClock } from '../data/support.js';

const DATASETS = ['money_markets', 'money_market_history', 'capital_markets', 'bank_risk', 'market_liquidity', 'china_economy', 'source_health'];

let server: SourceServer;
let clock: TestClock;
let t: TestApp;

async function start(overrides: Partial<Config> = {}): Promise<void> {
  t = await makeTestApp(liveConfig(server, { maxEventLoopDelay: 0, ...overrides }), { clock });
}

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ url, headers });
const result = (res: LightMyRequestResponse) => parseStrictJson(res.rawPayload) as QueryResult;

function serveAll(): void {
  serveJson(server, 'money-market', atlasDoc([
    { id: 'US-USD', name: 'US dollar', value: 4.5, history: [['2026-09-23', 4.5], ['2026-09-24', 0]] },
    { id: 'XX', value: 99, availability: 'RESTRICTED' },
  ]));
  serveJson(server, 'capital-market', capitalDoc());
  serveJson(server, 'bank-risk', boardDoc());
  serveJson(server, 'market-liquidity', liquidityDoc());
  serveJson(server, 'china-economy-palimpsest', { status: 'restricted', publication_allowed: false, value: 99, reason: 'not yet licensed' });
  serveJson(server, 'china-economy-seiche', {
    schema: 'seiche.world-markets.v1',
    china_macro: { evidence_status: 'unavailable', rights_status: 'metadata_only', series_catalog: [{ series_id: 'cn.cpi', label: 'CPI', release_url: 'https://example.test/cpi' }] },
  });
}

beforeEach(async () => {
  server = await startSourceServer();
  clock = testClock('2026-09-25T12:00:00Z');
  serveAll();
});
afterEach(async () => {
  await t?.close();
  await server.close();
});

describe('GET /api/v1/query', () => {
  it('pages money_market_history for entity usd: next_offset 1, first value 4.5 (item 27)', async () => {
    await start();
    const res = await get('/api/v1/query?dataset=money_market_history&entity=usd&limit=1');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const body = result(res);
    expect(body.schema).toBe('liquidity-lab.openbb-table.v1');
    expect(body.next_offset).toBe(1);
    expect(body.total_rows).toBe(2);
    expect(body.results[0].value).toBe(4.5);
    expect(res.body).toContain('"value":4.5,');
    const second = result(await get(`/api/v1/query?dataset=money_market_history&entity=usd&limit=1&offset=1&snapshot=${body.snapshot_id}`));
    // A real zero stays zero, printed as the float it is.
    expect(second.results[0].value).toBe(0);
    expect(second.next_offset).toBeNull();
  });

  it('nulls only the value written as an integer too large for a double, as Python reads it (item 3)', async () => {
    const huge = `1${'0'.repeat(400)}`;
    const doc = JSON.stringify(atlasDoc([
      { id: 'US-USD', name: 'US dollar', value: 4.5, history: [['2026-09-23', 4.5], ['2026-09-24', 0]] },
      { id: 'BIG', value: 777.125, history: [['2026-09-23', 1.25], ['2026-09-24', 777.125]] },
      { id: 'NEG', value: 888.125 },
    ])).replaceAll('777.125', huge).replace('888.125', `-${huge}`);
    serveJson(server, 'money-market', doc);
    await start();
    const current = result(await get('/api/v1/query?dataset=money_markets'));
    expect(current.transport_status).toBe('complete');
    expect(current.results.map((r) => [r.entity_id, r.value, r.availability])).toEqual([
      ['US-USD', 4.5, 'AVAILABLE'], ['BIG', null, 'unavailable'], ['NEG', null, 'unavailable'],
    ]);
    const history = result(await get('/api/v1/query?dataset=money_market_history&entity=big'));
    expect(history.results.map((r) => r.value)).toEqual([1.25, null]);
    // A document with a non-finite float literal is still refused whole (item 4).
    serveJson(server, 'money-market', doc.replace(huge, '1e999'));
    clock.advance(120);
    expect(result(await get('/api/v1/query?dataset=money_markets')).transport_status).toBe('unavailable');
  });

  it('documents EvidenceRow and QueryResult in the OpenAPI document', async () => {
    await start();
    const text = (await get('/openapi.json')).body;
    const doc = JSON.parse(text) as { paths: Record<string, { get?: { responses: Record<string, unknown> } }>; components: { schemas: Record<string, { title: string; properties: Record<string, unknown> }> } };
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/v1/release', '/api/v1/datasets', '/api/v1/sources', '/api/v1/query', '/api/v1/snapshots']));
    expect(Object.keys(doc.paths).some((p) => p.startsWith('/openbb/'))).toBe(false);
    const query = JSON.stringify(doc.paths['/api/v1/query'].get!.responses['200']);
    expect(query).toContain('"title":"QueryResult"');
    expect(query).toContain('"title":"EvidenceRow"');
    // Under their names too, where a client generated from the document looks them up.
    const { EvidenceRow, QueryResult } = doc.components.schemas;
    expect([EvidenceRow.title, QueryResult.title]).toEqual(['EvidenceRow', 'QueryResult']);
    expect(Object.keys(EvidenceRow.properties)).toHaveLength(23);
    expect(Object.keys(QueryResult.properties)).toContain('results');
    // Without the `$id` of the inline copies: one id names one schema in a document.
    expect(JSON.stringify(doc.components)).not.toContain('$id');
  });

  it.each([
    ['dataset=bad', 'dataset', 'unknown_dataset'],
    ['dataset=money_markets&limit=2001', 'limit', 'invalid_limit'],
    ['dataset=money_markets&start_date=wrong', 'start_date', 'invalid_date'],
    ['', 'dataset', 'dataset_required'],
    ['dataset=money_markets&limit=true', 'limit', 'invalid_limit'],
    ['dataset=money_markets&offset=-1', 'offset', 'invalid_offset'],
    ['dataset=money_markets&start_date=2026-02-30', 'start_date', 'invalid_date'],
    ['dataset=money_markets&start_date=2026-09-02&end_date=2026-09-01', 'start_date', 'date_range_reversed'],
    ['dataset=money_markets&format=pdf', 'format', 'invalid_format'],
  ])('answers %j with the one 422 body and fetches nothing (item 28)', async (query, name, code) => {
    await start();
    const res = await get(`/api/v1/query?${query}`);
    expect(res.statusCode).toBe(422);
    const body = res.json<{ detail: { type: string; loc: unknown[]; msg: string; input: unknown }[]; code: string; path: string }>();
    expect(Object.keys(body)).toEqual(['detail', 'code', 'path']);
    expect(body.code).toBe(code);
    expect(body.path).toBe(`/query/${name}`);
    expect(body.detail[0].loc).toEqual(['query', name]);
    expect(Object.keys(body.detail[0])).toEqual(['type', 'loc', 'msg', 'input']);
    expect(server.requests).toEqual([]);
  });

  it('reports every invalid parameter in one body, the first one naming code and path', async () => {
    await start();
    const body = (await get('/api/v1/query?dataset=nope&limit=0&offset=100001')).json<{ detail: { loc: string[] }[]; code: string }>();
    expect(body.detail.map((d) => d.loc[1])).toEqual(['dataset', 'limit', 'offset']);
    expect(body.code).toBe('unknown_dataset');
  });

  it('reads limit and offset as the upstream does, a sign, spaces or a zero fraction included, on every route that takes them', async () => {
    await start();
    for (const url of ['/api/v1/query?dataset=bank_risk', '/api/v1/agent-query?dataset=bank_risk', '/api/v1/snapshots?dataset=bank_risk', '/api/v1/agent-review?']) {
      for (const [limit, expected] of [['%2B2', 2], ['%202%20', 2], ['2.0', 2], ['1_0', 10]] as const) {
        const res = await get(`${url}&limit=${limit}`);
        expect(res.statusCode, `${url} limit=${limit}: ${res.body}`).toBe(200);
        if (!url.includes('agent-review')) expect(res.json<{ limit: number }>().limit, url).toBe(expected);
      }
      expect((await get(`${url}&limit=%2B-2`)).statusCode, url).toBe(422);
    }
  });

  it('reads query escapes as the upstream does: a run that is no UTF-8 is replacement characters, echoed so', async () => {
    await start();
    const body = (await get('/api/v1/query?dataset=bank_risk&limit=%ff&offset=x%C3%A9%41')).json<{ detail: { loc: string[]; input: string }[] }>();
    expect(body.detail.map((d) => [d.loc[1], d.input])).toEqual([['limit', '\ufffd'], ['offset', 'xéA']]);
  });

  it('answers a failed source with 200, transport unavailable and a diagnostic (item 15)', async () => {
    server.routes.set('/api/v2/money-markets', { status: 503, body: 'down' });
    await start();
    const res = await get('/api/v1/query?dataset=money_markets&entity=US-USD');
    expect(res.statusCode).toBe(200);
    const body = result(res);
    expect(body.results).toEqual([]);
    expect(body.total_rows).toBe(0);
    expect(body.transport_status).toBe('unavailable');
    expect(body.diagnostics[0]).toMatchObject({ availability: 'source_unavailable', value: null, source_field: '', transport_status: 'unavailable' });
    expect(body.sources[0]).toMatchObject({ ok: false });
    expect(body.sources[0]).toHaveProperty('error');
  });

  it('passes the collection checks on every dataset (item 38)', async () => {
    await start();
    for (const dataset of DATASETS) {
      const res = await get(`/api/v1/query?dataset=${dataset}`);
      expect(res.statusCode, dataset).toBe(200);
      const body = result(res);
      expect(body).toMatchObject({ schema: 'liquidity-lab.openbb-table.v1', dataset, evidence_status: 'not_evaluated', carrier_verification: 'not_performed' });
      expect(typeof body.transport_status).toBe('string');
      expect(Array.isArray(body.sources) && Array.isArray(body.diagnostics)).toBe(true);
      expect(body.returned_rows).toBe(body.results.length);
      expect(body).toHaveProperty('next_offset');
      expect(body.total_rows).toBeGreaterThanOrEqual(body.returned_rows);
      expect(body.sources.every((s) => !('document' in s))).toBe(true);
    }
    for (const url of ['/api/v1/release', '/api/v1/datasets', '/api/v1/sources']) expect((await get(url)).statusCode, url).toBe(200);
  });

  it('fetches each source once for 12 concurrent queries; a response is never shared (item 24)', async () => {
    server.routes.set('/api/v2/money-markets', { ...server.routes.get('/api/v2/money-markets')!, delayMs: 100 });
    await start();
    const answers = await Promise.all(Array.from({ length: 12 }, () => get('/api/v1/query?dataset=money_markets')));
    expect(server.requests.filter((p) => p === '/api/v2/money-markets')).toHaveLength(1);
    const ids = new Set(answers.map((a) => result(a).snapshot_id));
    expect(ids.size).toBe(1);
    const retrieved = new Set(answers.map((a) => result(a).sources[0].retrieved_at));
    expect(retrieved.size).toBe(1);
  });

  it('pages over exactly one snapshot while the source changes underneath (consistent paging)', async () => {
    await start({ sourceCacheTtl: 60 });
    const first = result(await get('/api/v1/query?dataset=money_market_history&limit=2'));
    expect(first.total_rows).toBe(3);
    // The publisher rewrites its history; the cache expires.
    serveJson(server, 'money-market', atlasDoc([{ id: 'US-USD', name: 'US dollar', history: [['2026-09-25', 5]] }]));
    clock.advance(61);
    const unpinned = result(await get('/api/v1/query?dataset=money_market_history&limit=2&offset=2'));
    expect(unpinned.snapshot_id).not.toBe(first.snapshot_id);
    expect(unpinned.total_rows).toBe(1);
    const pinned = await get(`/api/v1/query?dataset=money_market_history&limit=2&offset=2&snapshot=${first.snapshot_id}`);
    const page2 = result(pinned);
    expect(page2.snapshot_id).toBe(first.snapshot_id);
    expect(page2.total_rows).toBe(3);
    expect(page2.returned_rows).toBe(1);
    expect(page2.next_offset).toBeNull();
    expect(pinned.headers['x-evidence-snapshot']).toBe(first.snapshot_id);
    expect(page2.sources[0]).toMatchObject({ ok: true, content_sha256: (first.sources[0] as { content_sha256: string }).content_sha256 });
  });

  it('answers as_retrieved_at from the newest snapshot retrieved at or before it, 422 before any', async () => {
    await start({ sourceCacheTtl: 60 });
    const early = result(await get('/api/v1/query?dataset=capital_markets'));
    clock.advance(120);
    serveJson(server, 'capital-market', capitalDoc({ vix: { value: 30 } }));
    const late = result(await get('/api/v1/query?dataset=capital_markets'));
    expect(late.snapshot_id).not.toBe(early.snapshot_id);
    const vintage = result(await get('/api/v1/query?dataset=capital_markets&as_retrieved_at=2026-09-25T12:01:00Z'));
    expect(vintage.snapshot_id).toBe(early.snapshot_id);
    expect(vintage.results[0].value).toBe(18.2);
    const none = await get('/api/v1/query?dataset=capital_markets&as_retrieved_at=2026-09-25T11:00:00Z');
    expect(none.statusCode).toBe(422);
    expect(none.json()).toMatchObject({ code: 'no_snapshot_at_or_before', path: '/query/as_retrieved_at' });
  });

  it('sends format=csv with formula-looking text escaped and numbers as they are', async () => {
    serveJson(server, 'money-market', atlasDoc([
      { id: 'EVIL', name: '=HYPERLINK("https://x.test")', value: -2 },
      { id: 'PLUS', name: '  +1 trick', value: 1.25 },
      { id: 'NULL', name: 'Null, value', value: null },
    ]));
    await start();
    const json = result(await get('/api/v1/query?dataset=money_markets'));
    const res = await get('/api/v1/query?dataset=money_markets&format=csv');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="money_markets.csv"');
    expect(res.headers['x-evidence-snapshot']).toBe(json.snapshot_id);
    expect(res.headers.etag).toBe(`"${sha256Hex(res.rawPayload)}"`);
    const lines = res.body.split('\r\n');
    expect(lines[0].split(',')).toHaveLength(23);
    expect(lines[0].startsWith('dataset,product,entity_id,entity_name,metric,value,')).toBe(true);
    expect(lines).toHaveLength(5);
    expect(lines[1]).toContain(`,EVIL,"'=HYPERLINK(""https://x.test"")",RATE,-2.0,%,`);
    expect(lines[2]).toContain(`,PLUS,'  +1 trick,RATE,1.25,%,`);
    expect(lines[3]).toContain(',NULL,"Null, value",RATE,,%,');
  });
});

describe('validators and mounts', () => {
  it('tags every GET with the SHA-256 of its bytes and answers If-None-Match with an empty 304', async () => {
    await start();
    const pinnedId = result(await get('/api/v1/query?dataset=bank_risk')).snapshot_id;
    for (const url of ['/api/v1/release', '/api/v1/datasets', `/api/v1/query?dataset=bank_risk&snapshot=${pinnedId}`, '/api/v1/snapshots?dataset=bank_risk']) {
      const res = await get(url);
      expect(res.headers.etag, url).toBe(`"${sha256Hex(res.rawPayload)}"`);
      const again = await get(url, { 'if-none-match': `"other", ${String(res.headers.etag)}` });
      expect(again.statusCode, url).toBe(304);
      expect(again.rawPayload.length).toBe(0);
      expect(again.headers.etag).toBe(res.headers.etag);
      expect((await get(url, { 'if-none-match': '"other"' })).statusCode, url).toBe(200);
    }
  });

  it('gives an answer from a chosen snapshot identical bytes later, while the current answer reports its age now', async () => {
    await start({ sourceCacheTtl: 60 });
    const id = result(await get('/api/v1/query?dataset=bank_risk')).snapshot_id;
    const a = await get(`/api/v1/query?dataset=bank_risk&snapshot=${id}`);
    clock.advance(30);
    const b = await get(`/api/v1/query?dataset=bank_risk&snapshot=${id}`);
    expect(b.body).toBe(a.body);
    expect(b.headers['cache-control']).toBe('no-cache');
    const current = await get('/api/v1/query?dataset=bank_risk');
    expect(current.headers['cache-control']).toBe('no-store');
    expect(result(current).sources[0].cache).toEqual({ hit: true, age_seconds: 30, ttl_seconds: 60 });
  });

  it('serves the same bytes under /openbb as at the root', async () => {
    await start();
    for (const url of ['/api/v1/release', '/api/v1/datasets']) {
      const root = await get(url);
      const prefixed = await get(`/openbb${url}`);
      expect(prefixed.statusCode).toBe(200);
      expect(prefixed.body).toBe(root.body);
    }
    const id = result(await get('/api/v1/query?dataset=china_economy')).snapshot_id;
    const root = await get(`/api/v1/query?dataset=china_economy&snapshot=${id}`);
    const prefixed = await get(`/openbb/api/v1/query?dataset=china_economy&snapshot=${id}`);
    expect(prefixed.body).toBe(root.body);
  });

  it('answers unknown paths of the group with the evidence error shape', async () => {
    await start();
    for (const url of ['/api/v1/nothing', '/openbb/api/v1/nothing']) {
      const res = await get(url);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'route_not_found' });
      expect(res.json()).toHaveProperty('detail');
      expect(res.json()).not.toHaveProperty('error');
    }
    const post = await t.app.inject({ method: 'POST', url: '/api/v1/query', payload: '{}', headers: { 'content-type': 'application/json' } });
    expect(post.statusCode).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD, OPTIONS');
  });
});

describe('release', () => {
  it('is unversioned-local without a commit (item 37)', async () => {
    await start();
    expect((await get('/api/v1/release')).json()).toMatchObject({ release_id: 'unversioned-local', source_commit: null });
  });

  it('keeps a configured 40-hex commit and ends release_id with its first 12 characters (item 37)', async () => {
    const commit = '6aa5d7a22823b2490d7500afeba18174ca2e8822';
    await start({ releaseCommit: commit });
    expect((await get('/api/v1/release')).json()).toMatchObject({ release_id: 'workspace-1.2.0+6aa5d7a22823', source_commit: commit });
    expect(server.requests).toEqual([]);
  });
});

describe('long valid queries', () => {
  // 100 characters of four UTF-8 bytes each: 1,200 characters once percent-encoded.
  const wide = encodeURIComponent('\u{1F600}'.repeat(100));
  const revision = 'a'.repeat(64);

  it('answers the longest valid query strings of every group C route instead of refusing them as too long', async () => {
    await start();
    const first = result(await get('/api/v1/query?dataset=money_market_history'));
    const review = (await get('/api/v1/agent-review')).json<{ snapshot_id: string }>();
    const urls = [
      `/api/v1/query?dataset=money_market_history&entity=${wide}&start_date=2026-01-01&end_date=2026-12-31&limit=2000&offset=100000&snapshot=${first.snapshot_id}&format=csv`,
      `/api/v1/agent-query?dataset=money_market_history&entity=${wide}&start_date=2026-01-01&end_date=2026-12-31&limit=100&offset=0&previous_revision=${revision}&snapshot=${first.snapshot_id}`,
      `/openbb/api/v1/agent-review?bank=${wide}&limit=25&previous_revision=${revision}&snapshot=${review.snapshot_id}`,
    ];
    // The router reads repeated slashes as one: so does the limit.
    urls.push(`//api/v1/query?dataset=money_markets&entity=${wide}`, `/openbb//api/v1/query?dataset=money_markets&entity=${wide}`);
    for (const url of urls) {
      expect(url.length, url).toBeGreaterThan(1200);
      const res = await get(url);
      expect(res.statusCode, `${url} → ${res.body.slice(0, 200)}`).toBe(200);
    }
    const tooLong = await get(`/api/v1/query?dataset=money_markets&entity=${'x'.repeat(5000)}`);
    expect(tooLong.statusCode).toBe(414);
  });
});

describe('datasets and sources', () => {
  it('lists the seven datasets with columns and the current row count, without fetching', async () => {
    await start();
    const before = (await get('/api/v1/datasets')).json<{ id: string; name: string; row_count: number | null; columns: unknown[] }[]>();
    expect(before.map((d) => d.id)).toEqual(DATASETS);
    // The upstream's names (upstream §3.2): clients show and match them.
    expect(before.map((d) => d.name)).toEqual([
      'Global money-market benchmarks', 'Money-market benchmark history', 'Capital-market observations', 'Covered-bank research diagnostics',
      'Public market-liquidity observations', 'China economic publication coverage', 'Evidence source and transport audit',
    ]);
    expect(before.every((d) => d.row_count === null && d.columns.length === 23)).toBe(true);
    expect(server.requests).toEqual([]);
    await get('/api/v1/query?dataset=bank_risk');
    const after = (await get('/api/v1/datasets')).json<{ id: string; row_count: number | null }[]>();
    expect(after.find((d) => d.id === 'bank_risk')?.row_count).toBe(2);
  });

  it('answers /sources as the source_health table and ignores its query parameters', async () => {
    await start();
    const res = await get('/api/v1/sources?dataset=bad&limit=0');
    expect(res.statusCode).toBe(200);
    const body = result(res);
    expect(body.dataset).toBe('source_health');
    expect(body.results.map((r) => r.entity_id)).toEqual(['money-market', 'capital-market', 'china-economy', 'china-economy', 'bank-risk', 'market-liquidity']);
    expect(body.limit).toBe(200);
  });
});

describe('CORS', () => {
  it('answers an OpenBB preflight and echoes the origin on reads', async () => {
    await start();
    const pre = await t.app.inject({
      method: 'OPTIONS', url: '/openbb/api/v1/query',
      headers: { origin: 'https://pro.openbb.co', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization, x-liquilens-traffic-class' },
    });
    expect(pre.statusCode).toBe(200);
    expect(pre.headers['access-control-allow-origin']).toBe('https://pro.openbb.co');
    expect(String(pre.headers['access-control-allow-headers']).toLowerCase()).toContain('x-liquilens-traffic-class');
    const read = await get('/api/v1/release', { origin: 'https://my.openbb.co' });
    expect(read.headers['access-control-allow-origin']).toBe('https://my.openbb.co');
    expect(String(read.headers['access-control-expose-headers'])).toContain('ETag');
  });

  it('answers the preflight of every group C route at both mounts and marks its reads for the origin', async () => {
    await start();
    for (const route of [...DATA_ROUTES, ...DATA_REVIEW_ROUTES]) {
      for (const mount of ['', '/openbb']) {
        const url = mount + route.url;
        const pre = await t.app.inject({ method: 'OPTIONS', url, headers: { origin: 'https://pro.openbb.co', 'access-control-request-method': 'GET' } });
        expect(pre.statusCode, url).toBe(200);
        expect(pre.headers['access-control-allow-origin'], url).toBe('https://pro.openbb.co');
        const read = await get(url, { origin: 'https://my.openbb.co' });
        expect(read.headers['access-control-allow-origin'], url).toBe('https://my.openbb.co');
        expect(String(read.headers['access-control-expose-headers']), url).toContain('ETag');
      }
    }
  });

  it('refuses a preflight from a foreign origin with 400', async () => {
    await start();
    const pre = await t.app.inject({ method: 'OPTIONS', url: '/api/v1/query', headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' } });
    expect(pre.statusCode).toBe(400);
    expect(pre.json()).toMatchObject({ code: 'cors_preflight_refused' });
    expect((await get('/api/v1/release', { origin: 'https://evil.example' })).headers['access-control-allow-origin']).toBeUndefined();
  });
});
