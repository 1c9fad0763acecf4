// Usage measurement of data queries over HTTP (upstream §2.2, items 31–35): the read never
// depends on it; X-Financial-Evidence-Measurement says what was counted. Anonymous counts
// are buffered in memory (applications/anonymous-counts.ts), so the aggregates are read
// after a flush; keyed records are written at once.
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { flushAnonymousCounts } from '../../src/applications/anonymous-counts.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { enrolled } from '../applications/support.js';
import { liveConfig, serveJson, startSourceServer, testClock, type SourceServer } from '../data/support.js';
import { atlasDoc, boardDoc } from '../data/documents.js';

let server: SourceServer;
let t: TestApp;
const HEADER = 'x-financial-evidence-measurement';
const QUERY = '/api/v1/query?dataset=money_markets';

beforeEach(async () => {
  server = await startSourceServer();
  serveJson(server, 'money-market', atlasDoc([{ id: 'US-USD', value: 4.3 }]));
  serveJson(server, 'bank-risk', boardDoc());
  t = await makeTestApp(liveConfig(server, { maxEventLoopDelay: 0 }), { clock: testClock('2026-09-25T12:00:00Z') });
});
afterEach(async () => {
  await t.close();
  await server.close();
});

const read = (url: string, headers: Record<string, string> = {}) => t.app.inject({ url, headers });
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const stored = () => t.storage.db.selectFrom('aggregates').selectAll().where('outcome', 'in', ['data_query', 'data_query_not_modified']).execute();
const aggregates = async () => {
  await flushAnonymousCounts(t.storage);
  return stored();
};

describe('X-Financial-Evidence-Measurement', () => {
  it('counts an anonymous read in the aggregates only and creates no installation (item 31)', async () => {
    const res = await read(QUERY);
    expect(res.statusCode).toBe(200);
    expect(res.headers[HEADER]).toBe('aggregate_or_duplicate');
    expect(await t.storage.db.selectFrom('applications').selectAll().execute()).toEqual([]);
    expect(await aggregates()).toEqual([{ day: '2026-09-25', traffic_class: 'anonymous', outcome: 'data_query', count: 1 }]);
  });

  it('records a keyed read once per evidence and day; an erased key reads on as invalid_measurement_key (item 32)', async () => {
    const { token } = await enrolled(t.app);
    expect((await read(QUERY, bearer(token))).headers[HEADER]).toBe('recorded');
    expect((await read(QUERY, bearer(token))).headers[HEADER]).toBe('aggregate_or_duplicate');
    // A filter that keeps the same rows gives the same evidence: the same read.
    expect((await read(`${QUERY}&entity=us`, bearer(token))).headers[HEADER]).toBe('aggregate_or_duplicate');
    expect((await read('/api/v1/query?dataset=bank_risk', bearer(token))).headers[HEADER]).toBe('recorded');
    const erased = await t.app.inject({ method: 'DELETE', url: '/v1/applications/current', headers: bearer(token) });
    expect(erased.statusCode).toBe(200);
    const after = await read(QUERY, bearer(token));
    expect(after.statusCode).toBe(200);
    expect(after.headers[HEADER]).toBe('invalid_measurement_key');
    expect((await read(QUERY, { authorization: 'Bearer nope' })).headers[HEADER]).toBe('invalid_measurement_key');
    expect(await t.storage.db.selectFrom('data_reads').selectAll().execute()).toEqual([]);
  });

  it.each([
    ['x-liquilens-traffic-class', 'synthetic'],
    ['x-service-traffic-class', 'TEST'],
    ['x-traffic-class', 'operator'],
  ])('counts a read labelled %s: %s as synthetic (item 33)', async (name, value) => {
    const { token } = await enrolled(t.app);
    expect((await read(QUERY, { ...bearer(token), [name]: value })).headers[HEADER]).toBe('recorded');
    expect(await t.storage.db.selectFrom('data_reads').select('traffic_class').execute()).toEqual([{ traffic_class: 'synthetic' }]);
    expect((await aggregates()).map((a) => a.traffic_class)).toEqual(['synthetic']);
  });

  it('treats a developer label as ordinary traffic', async () => {
    await read(QUERY, { 'x-liquilens-traffic-class': 'developer' });
    expect((await aggregates()).map((a) => a.traffic_class)).toEqual(['anonymous']);
  });

  it('writes anonymous counts in one batch: none per read, all of them on flush or close', async () => {
    const first = await read(QUERY);
    const id = first.json<{ snapshot_id: string }>().snapshot_id;
    const pinned = `${QUERY}&snapshot=${id}`;
    const tag = String((await read(pinned)).headers.etag);
    for (let i = 0; i < 3; i++) expect((await read(pinned, { 'if-none-match': tag })).headers[HEADER]).toBe('aggregate_or_duplicate');
    expect(await stored()).toEqual([]);
    await t.app.close();
    const outcomes = (await stored()).map((a) => `${a.traffic_class}:${a.outcome}:${a.count}`).sort();
    expect(outcomes).toEqual(['anonymous:data_query:2', 'anonymous:data_query_not_modified:3']);
  });

  it('says unavailable to anonymous reads while the batched counts cannot be written, and keeps them', async () => {
    expect((await read(QUERY)).headers[HEADER]).toBe('aggregate_or_duplicate');
    await sql`alter table aggregates rename to aggregates_away`.execute(t.storage.db);
    await expect(flushAnonymousCounts(t.storage)).rejects.toThrow();
    const during = await read(QUERY);
    expect(during.statusCode).toBe(200);
    expect(during.headers[HEADER]).toBe('unavailable');
    await sql`alter table aggregates_away rename to aggregates`.execute(t.storage.db);
    expect(await aggregates()).toEqual([{ day: '2026-09-25', traffic_class: 'anonymous', outcome: 'data_query', count: 2 }]);
    expect((await read(QUERY)).headers[HEADER]).toBe('aggregate_or_duplicate');
  });

  it('serves the read with unavailable when the measurement store fails (item 33)', async () => {
    const { token } = await enrolled(t.app);
    await sql`drop table data_reads`.execute(t.storage.db);
    const res = await read(QUERY, bearer(token));
    expect(res.statusCode).toBe(200);
    expect(res.headers[HEADER]).toBe('unavailable');
    expect(res.json()).toHaveProperty('results');
  });

  it('says not_eligible for an answer without published evidence (item 35)', async () => {
    expect((await read(`${QUERY}&entity=nothing-matches`)).headers[HEADER]).toBe('not_eligible');
    expect((await read('/api/v1/query?dataset=source_health')).headers[HEADER]).toBe('not_eligible');
    // A failed source: transport is not complete.
    expect((await read('/api/v1/query?dataset=capital_markets')).headers[HEADER]).toBe('not_eligible');
    expect(await aggregates()).toEqual([]);
  });

  it('counts a 304 in the aggregates only, and a HEAD not at all', async () => {
    const { token } = await enrolled(t.app);
    const id = (await read(QUERY)).json<{ snapshot_id: string }>().snapshot_id;
    const pinned = `${QUERY}&snapshot=${id}`;
    const first = await read(pinned, bearer(token));
    const again = await read(pinned, { ...bearer(token), 'if-none-match': String(first.headers.etag) });
    expect(again.statusCode).toBe(304);
    expect(again.headers[HEADER]).toBe('aggregate_or_duplicate');
    expect((await t.app.inject({ method: 'HEAD', url: pinned })).headers[HEADER]).toBe('not_eligible');
    const outcomes = (await aggregates()).map((a) => `${a.traffic_class}:${a.outcome}:${a.count}`).sort();
    expect(outcomes).toEqual(['anonymous:data_query:1', 'unverified:data_query:1', 'unverified:data_query_not_modified:1']);
  });

  it('never measures the other data routes', async () => {
    for (const url of ['/api/v1/release', '/api/v1/datasets', '/api/v1/sources']) expect((await read(url)).headers[HEADER], url).toBeUndefined();
  });
});
