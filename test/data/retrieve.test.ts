// End-to-end retrieval through a real local HTTP server: every rule of upstream §1.1.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/core/config.js';
import { sha256Hex } from '../../src/core/hash.js';
import { platformSourceFetch, sourcePolicy } from '../../src/data/fetch-source.js';
import { buildRegistry, type SourceEntry } from '../../src/data/registry.js';
import { attemptRetrieval, isJsonMediaType } from '../../src/data/retrieve.js';
import { atlasDoc } from './documents.js';
import { liveConfig, serveJson, SOURCE_PATHS, startSourceServer, type SourceServer } from './support.js';

describe('source retrieval over HTTP', () => {
  let server: SourceServer;
  let registry: ReturnType<typeof buildRegistry>;
  const fetchFor = (r: ReturnType<typeof buildRegistry>) => platformSourceFetch(sourcePolicy(r.entries.map((e) => e.url)));
  const attempt = (entry: SourceEntry = registry.get('capital-market')) => attemptRetrieval(entry, registry, fetchFor(registry));
  const capitalPath = SOURCE_PATHS['capital-market'];

  beforeAll(async () => {
    server = await startSourceServer();
    registry = buildRegistry(liveConfig(server));
  });
  afterAll(() => server.close());
  beforeEach(() => {
    server.routes.clear();
    server.requests.length = 0;
  });

  it('reads a JSON document and keeps its exact bytes', async () => {
    const body = JSON.stringify(atlasDoc([{ id: 'US-USD' }]));
    serveJson(server, 'capital-market', body, { headers: { 'content-type': 'application/json; charset=utf-8' } });
    const outcome = await attempt();
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(Buffer.from(outcome.body).toString()).toBe(body);
    expect(sha256Hex(outcome.body)).toBe(sha256Hex(body));
    expect(outcome.resolvedUrl).toBe(registry.get('capital-market').url);
    expect(server.requests).toEqual([capitalPath]);
  });

  it.each([
    ['application/ld+json', true],
    ['application/vnd.seiche.v2+json', true],
    ['Application/JSON', true],
    ['text/html; charset=utf-8', false],
    ['text/json', false],
    ['application/jsonp', false],
    [null, false],
  ])('accepts media type %s: %s', (type, accepted) => {
    expect(isJsonMediaType(type)).toBe(accepted);
  });

  it('refuses a body labelled as HTML without reading it as JSON', async () => {
    server.routes.set(capitalPath, { body: '{"looks": "like json"}', headers: { 'content-type': 'text/html' } });
    const outcome = await attempt();
    expect(outcome).toEqual({ ok: false, error: expect.stringMatching(/^content_type: /) });
  });

  it('does not follow a redirect', async () => {
    server.routes.set(capitalPath, { status: 302, headers: { location: '/api/v2/money-markets' }, body: '' });
    serveJson(server, 'money-market', atlasDoc([]));
    const outcome = await attempt();
    expect(outcome).toEqual({ ok: false, error: 'redirect: the source answered 302; redirects are not followed' });
    expect(server.requests).toEqual([capitalPath]);
  });

  it('fails on any status but 200', async () => {
    server.routes.set(capitalPath, { status: 503, body: '{"private": "upstream stack trace"}' });
    const outcome = await attempt();
    expect(outcome).toEqual({ ok: false, error: 'http_status: the source answered HTTP 503' });
  });

  it('refuses a document above the cap, announced or streamed', async () => {
    const big = `{"pad": "${'x'.repeat(1024 * 1024)}"}`;
    serveJson(server, 'capital-market', big, { headers: { 'content-length': String(Buffer.byteLength(big)) } });
    expect(await attempt()).toEqual({ ok: false, error: expect.stringMatching(/^too_large: the source announced \d+ bytes, more than the 1048576 accepted$/) });
    serveJson(server, 'capital-market', big);
    expect(await attempt()).toEqual({ ok: false, error: 'too_large: the source sent more than the 1048576 bytes accepted' });
  });

  it('gives the money-market atlas a 4 MiB cap', async () => {
    const body = `{"schema": "x", "pad": "${'x'.repeat(3 * 1024 * 1024)}"}`;
    serveJson(server, 'money-market', body);
    expect((await attempt(registry.get('money-market'))).ok).toBe(true);
    serveJson(server, 'money-market', `{"pad": "${'x'.repeat(4 * 1024 * 1024)}"}`);
    expect((await attempt(registry.get('money-market'))).ok).toBe(false);
  });

  it.each(['NaN', 'Infinity', '-Infinity', '1e999', '-1e999'])('treats a body containing %s as a failed retrieval with no document', async (literal) => {
    serveJson(server, 'capital-market', `{"schema": "seiche.world-markets.v1", "value": ${literal}}`);
    const outcome = await attempt();
    expect(outcome.ok).toBe(false);
    expect(outcome).not.toHaveProperty('document');
    if (!outcome.ok) expect(outcome.error).toMatch(/^invalid_json: /);
  });

  it('accepts an integer literal too large for a double (10^400), as Python does: only that value is lost', async () => {
    serveJson(server, 'capital-market', `{"value": -1${'0'.repeat(400)}, "other": 2}`);
    const outcome = await attempt();
    expect(outcome.ok).toBe(true);
    // Held as the text of its digits: no double could hold it.
    if (outcome.ok) expect(outcome.document).toEqual({ value: `-1${'0'.repeat(400)}`, other: 2 });
    // Python also refuses integers of more than 4300 digits.
    serveJson(server, 'capital-market', `{"value": 1${'0'.repeat(4300)}}`);
    expect(await attempt()).toEqual({ ok: false, error: expect.stringMatching(/^invalid_json: integer literal has too many digits/) });
  });

  it.each(['"just text"', '42', 'null', '{"a": 1, "a": 2}', '{"a": 1'])('refuses %s (root must be an object or array of strict JSON)', async (body) => {
    serveJson(server, 'capital-market', body);
    expect(await attempt()).toEqual({ ok: false, error: expect.stringMatching(/^invalid_json: /) });
  });

  it('accepts an array at the root', async () => {
    serveJson(server, 'capital-market', '[1, 2]');
    expect((await attempt()).ok).toBe(true);
  });

  it('times out a silent source and a slow drip', async () => {
    const entry = { ...registry.get('capital-market'), timeoutMs: 200 };
    serveJson(server, 'capital-market', '{}', { delayMs: 1000 });
    expect(await attempt(entry)).toEqual({ ok: false, error: 'timeout: no answer within 0.2 s' });
    // Each gap (100 ms) is within the socket timeout; only the overall deadline (600 ms) stops it.
    serveJson(server, 'capital-market', `{"pad": "${'x'.repeat(400)}"}`, { dripMs: 100 });
    expect(await attempt(entry)).toEqual({ ok: false, error: expect.stringMatching(/^timeout: /) });
  });

  it('names transport failures without addresses or private detail', async () => {
    const closed = buildRegistry(loadConfig({ EVIDENCE_SOURCE_URL_CAPITAL_MARKET: 'http://127.0.0.1:9/nothing' }));
    const outcome = await attemptRetrieval(closed.get('capital-market'), closed, fetchFor(closed));
    expect(outcome).toEqual({ ok: false, error: 'transport: the source could not be reached (ECONNREFUSED)' });
  });

  it('refuses a URL that is not one of the configured sources', async () => {
    const entry = { ...registry.get('capital-market'), url: `${server.base}/elsewhere` };
    expect(await attempt(entry)).toEqual({ ok: false, error: 'not_allowed: the source URL is not an allowed https source of this service' });
    expect(server.requests).toEqual([]);
  });

  it('accepts only https source URLs, or http on a loopback address named explicitly', () => {
    expect(() => loadConfig({ EVIDENCE_SOURCE_URL_BANK_RISK: 'http://example.com/board' })).toThrow(ConfigError);
    expect(() => loadConfig({ EVIDENCE_SOURCE_URL_BANK_RISK: 'ftp://example.com/board' })).toThrow(/EVIDENCE_SOURCE_URL_BANK_RISK/);
    expect(() => loadConfig({ EVIDENCE_SOURCE_URL_BANK_RISK: 'https://user:pw@example.com/board' })).toThrow(ConfigError);
    expect(loadConfig({ EVIDENCE_SOURCE_URL_BANK_RISK: 'http://localhost:8000/board' }).sourceUrls['bank-risk']).toBe('http://localhost:8000/board');
    expect(loadConfig({ EVIDENCE_SOURCE_URL_CHINA_ECONOMY_SEICHE: 'https://mirror.example/wm?section=china_macro' }).sourceUrls['china-economy-seiche'])
      .toBe('https://mirror.example/wm?section=china_macro');
    expect(loadConfig({}).sourceUrls['money-market']).toBe('https://api.seiche.info/api/v2/money-markets');
  });
});
