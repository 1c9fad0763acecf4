import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import type { LightMyRequestResponse } from 'fastify';
import { defaultConfig } from '../../src/core/config.js';
import { nowInstant } from '../../src/core/time.js';
import { buildApp } from '../../src/http/app.js';
import { loggerOptions } from '../../src/http/logging.js';
import { capabilitiesBody } from '../../src/http/plugins/analysis.js';
import { encodePythonBody, parseStrictJson } from '../../src/core/json.js';
import { assessMarket } from '../../src/analysis/market.js';
import { triageNarrative } from '../../src/analysis/narrative/triage.js';
import { assessSpectral } from '../../src/analysis/spectral.js';
import { dysonReference } from '../../src/analysis/dyson.js';
import { DysonRequestSchema, MarketRequestSchema, NarrativeRequestSchema, SpectralRequestSchema } from '../../src/analysis/schemas/index.js';
import { inputSchemaOf } from '../../src/analysis/tools/catalogue.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { sqliteBackend } from '../helpers/storage.js';
import { narrativeRequest, seriesRequest } from '../helpers/analysis-requests.js';
import { TOOL_ARGUMENTS } from '../mcp/arguments.js';

const JSON_HEADERS = { 'content-type': 'application/json' };
const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': 'Content-Type, Accept, Authorization, Mcp-Session-Id, MCP-Protocol-Version',
};
const TOOL_PATHS = {
  market_assessment: '/v1/market/assess',
  narrative_triage: '/v1/narrative/triage',
  spectral_assessment: '/v1/spectral/assess',
  dyson_reference: '/v1/research/dyson',
} as const;
const SCHEMAS = {
  market_assessment: MarketRequestSchema,
  narrative_triage: NarrativeRequestSchema,
  spectral_assessment: SpectralRequestSchema,
  dyson_reference: DysonRequestSchema,
};

const CLOCK = '2026-10-08T09:00:00Z';
// Taken before any app is built: registering routes or generating OpenAPI must not alter them.
const PRISTINE_SCHEMAS = JSON.stringify(SCHEMAS);
const EMPTY_MARKET = `{"series": [], "as_of": "${CLOCK}"}`;

let t: TestApp;
let small: TestApp;
beforeAll(async () => {
  // Load shedding off: the maximal requests below block the loop long enough on a busy
  // test machine to make the next request a 503, which is not what these tests are about.
  t = await makeTestApp({ maxEventLoopDelay: 0 });
  small = await makeTestApp({ bodyLimit: 2048, maxEventLoopDelay: 0 });
});
afterAll(async () => {
  await t.close();
  await small.close();
});

function post(url: string, payload: string | Buffer | object, headers: Record<string, string> = JSON_HEADERS, app = t): Promise<LightMyRequestResponse> {
  const body = typeof payload === 'string' || Buffer.isBuffer(payload) ? payload : JSON.stringify(payload);
  return app.app.inject({ method: 'POST', url, payload: body, headers });
}

function expectError(res: LightMyRequestResponse, status: number, code: string, path?: string): Record<string, unknown> {
  expect(res.statusCode, res.body).toBe(status);
  const body = res.json();
  expect(typeof body.error).toBe('string');
  expect(body.code).toBe(code);
  if (path !== undefined) expect(body.path).toBe(path);
  return body;
}

function marketSeries(id: string, points = 3): Record<string, unknown> {
  return {
    id,
    kind: 'price',
    unit: 'USD',
    source: { id: 'src', rights: 'permitted' },
    max_age_seconds: 86400,
    observations: Array.from({ length: points }, (_, i) => ({ observed_at: `2026-10-08T0${i}:00:00Z`, value: 10 + i })),
  };
}

describe('analysis routes', () => {
  it.each(Object.entries(TOOL_PATHS))('%s answers POST %s at the root and under /noisefloor', async (_tool, path) => {
    const body = path === '/v1/research/dyson' ? '{"dimension": 2, "steps": 1}' : path === '/v1/narrative/triage' ? `{"events": [], "as_of": "${CLOCK}"}` : EMPTY_MARKET;
    const root = await post(path, body);
    const prefixed = await post(`/noisefloor${path}`, body);
    expect(root.statusCode).toBe(200);
    expect(prefixed.statusCode).toBe(200);
    expect(prefixed.body).toBe(root.body);
  });

  it('serves capabilities, health and the OpenAPI document under /noisefloor too', async () => {
    for (const url of ['/noisefloor/v1/capabilities', '/noisefloor/healthz', '/noisefloor/health', '/noisefloor/openapi.json']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
    }
    const health = (await t.app.inject({ method: 'GET', url: '/noisefloor/healthz' })).json();
    expect(health).toMatchObject({ name: 'noisefloor', version: '0.4.0', transport: 'streamable-http' });
    expect(health.implementation_sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('ignores a trailing slash and the query string', async () => {
    const plain = await post('/v1/research/dyson', '{"dimension": 2, "steps": 1}');
    expect((await post('/v1/research/dyson/', '{"dimension": 2, "steps": 1}')).body).toBe(plain.body);
    expect((await post('/noisefloor/v1/research/dyson?verbose=1', '{"dimension": 2, "steps": 1}')).body).toBe(plain.body);
  });

  it('does not strip the prefix twice or serve the bare prefix', async () => {
    expect((await post('/noisefloor/noisefloor/v1/research/dyson', '{}')).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/noisefloor' })).statusCode).toBe(404);
  });

  it('answers an unknown analysis path with a 404 in the analysis error shape', async () => {
    const res = await post('/v1/market/nowhere', '{}');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: expect.any(String), code: 'route_not_found' });
  });

  it('answers GET and HEAD on an operation with 405 and an Allow header', async () => {
    for (const method of ['GET', 'HEAD', 'PUT', 'DELETE'] as const) {
      const res = await t.app.inject({ method, url: '/v1/research/dyson' });
      expect(res.statusCode, method).toBe(405);
      expect(res.headers.allow).toBe('OPTIONS, POST');
    }
    const body = (await t.app.inject({ method: 'GET', url: '/noisefloor/v1/market/assess' })).json();
    expect(body).toMatchObject({ code: 'method_not_allowed' });
  });

  it('answers HEAD on capabilities and the prefixed health with headers only', async () => {
    for (const url of ['/v1/capabilities', '/noisefloor/healthz']) {
      const res = await t.app.inject({ method: 'HEAD', url });
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe('');
    }
  });

  it('answers OPTIONS on every analysis path with 204, CORS headers, Content-Length: 0 and no body or content type', async () => {
    const urls = [
      ...Object.values(TOOL_PATHS),
      '/v1/capabilities',
      ...Object.values(TOOL_PATHS).map((p) => `/noisefloor${p}`),
      '/noisefloor/v1/capabilities',
      '/noisefloor/healthz',
      '/noisefloor/health',
      '/noisefloor/openapi.json',
      '/healthz',
      '/health',
      '/openapi.json',
      '/mcp',
      '/noisefloor/mcp',
    ];
    for (const url of urls) {
      // A preflight naming a JSON type without a body is still a preflight.
      const res = await t.app.inject({ method: 'OPTIONS', url, headers: url.endsWith('assess') ? { 'content-type': 'application/json' } : {} });
      expect(res.statusCode, url).toBe(204);
      expect(res.headers).toMatchObject(CORS);
      // §2.1 names it, though a 204 needs none.
      expect(res.headers['content-length'], url).toBe('0');
      expect(res.headers['content-type']).toBeUndefined();
      expect(res.body).toBe('');
    }
  });
  it('lets every path whose preflight promises CORS be read cross-origin (GET)', async () => {
    for (const url of ['/healthz', '/health', '/noisefloor/healthz', '/noisefloor/health', '/v1/capabilities', '/noisefloor/v1/capabilities']) {
      const res = await t.app.inject({ method: 'GET', url, headers: { origin: 'https://elsewhere.example' } });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers, url).toMatchObject({ ...CORS, 'cache-control': 'no-store' });
    }
    // /noisefloor/X is the upstream's /X: the same bytes, in the reference's encoding and type.
    const root = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(root.body).toMatch(/^\{"name": "noisefloor", "version": "0\.4\.0", /);
    for (const url of ['/health', '/noisefloor/healthz', '/noisefloor/health']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.body, url).toBe(root.body);
      expect(res.headers['content-type'], url).toBe('application/json');
    }
    expect(root.headers['content-type']).toBe('application/json');
    for (const url of ['/openapi.json', '/noisefloor/openapi.json']) {
      const res = await t.app.inject({ method: 'GET', url, headers: { origin: 'https://elsewhere.example' } });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers, url).toMatchObject(CORS);
    }
  });

  it('carries the CORS and cache headers on 404 and 405 answers for its paths', async () => {
    const tool = Object.values(TOOL_PATHS);
    const cases: [string, string, number][] = [
      ...tool.flatMap((p): [string, string, number][] => [['GET', p, 405], ['PUT', p, 405], ['GET', `/noisefloor${p}`, 405], ['DELETE', `/noisefloor${p}`, 405]]),
      ['POST', '/noisefloor/v1/nope', 404],
      ['GET', '/noisefloor/nothing/here', 404],
      ['POST', '/v1/research/nope', 404],
      ['POST', '/healthz', 405],
      ['DELETE', '/health', 405],
      ['POST', '/openapi.json', 405],
    ];
    for (const [method, url, status] of cases) {
      const res = await t.app.inject({ method: method as 'GET', url, headers: JSON_HEADERS, payload: method === 'GET' ? undefined : '{}' });
      expect(res.statusCode, `${method} ${url}`).toBe(status);
      expect(res.headers, `${method} ${url}`).toMatchObject({ ...CORS, 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
    }
  });
});

describe('analysis responses', () => {
  it('are application/json, not cached, carry CORS headers and use Python separators', async () => {
    const res = await post('/v1/research/dyson', '{"dimension": 2, "steps": 1, "seed": 1}');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers).toMatchObject(CORS);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers.server).toBeUndefined();
    expect(res.body.startsWith('{"schema": "noisefloor.dyson-reference.v1", "status": "synthetic", ')).toBe(true);
    expect(res.body).toContain('"path": [{"time": 0.0, "eigenvalues": [0.0, 0.0]}, {"time": 0.05, ');
  });

  it('carry the CORS and cache headers on errors too', async () => {
    const res = await post('/v1/research/dyson', '{"dimension": 99}');
    expect(res.statusCode).toBe(422);
    expect(res.headers).toMatchObject({ ...CORS, 'cache-control': 'no-store' });
  });

  it('keep number kinds in echoed values (dt 1 stays an integer, 0.5 a float)', async () => {
    const res = await post('/v1/research/dyson', '{"dimension": 2, "steps": 2, "dt": 1, "seed": 3}');
    expect(res.body).toContain('"parameters": {"dimension": 2, "steps": 2, "dt": 1, "seed": 3}');
    expect(res.body).toContain('{"time": 1, "eigenvalues"');
  });

  it('reproduce the reference Dyson sample {"dimension":3,"steps":5,"seed":6116}', async () => {
    const res = await post('/v1/research/dyson', '{"dimension":3,"steps":5,"seed":6116}');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    const expected = [
      [0.0, [0.0, 0.0, 0.0]],
      [0.05, [0.22733429434524402, 0.07348853056153598, -0.2923388810254674]],
      [0.1, [0.11349222765491904, -0.21788193974540712, -0.627808034613055]],
      [0.15000000000000002, [0.27078080990163017, -0.23825539648825717, -0.5660977086888748]],
      [0.2, [0.4065915042813583, -0.2723542505910013, -0.7962040863350046]],
      [0.25, [0.42475779655953627, 0.012399715594453579, -0.8568426833105478]],
    ] as const;
    expect(Object.keys(body)).toEqual([
      'schema', 'status', 'maturity', 'validity', 'guarantee', 'parameters', 'beta', 'path', 'initial_condition', 'mean_reversion',
      'normalization', 'market_calibrated', 'is_covariance_model', 'execution_authority', 'request_sha256', 'limits',
    ]);
    expect(body).toMatchObject({
      schema: 'noisefloor.dyson-reference.v1',
      status: 'synthetic',
      maturity: 'research',
      validity: 'synthetic_reference',
      guarantee: null,
      parameters: { dimension: 3, steps: 5, dt: 0.05, seed: 6116 },
      beta: 1,
      initial_condition: 'zero_matrix',
      mean_reversion: false,
      normalization: 'off_diagonal_variance=dt/N; diagonal_variance=2*dt/N',
      market_calibrated: false,
      is_covariance_model: false,
      execution_authority: false,
      request_sha256: '72158c5170f6ecee53d0ff66f229f6692fa0a51ba9e7ae1977d91248b7c90170',
    });
    expect(body.path).toHaveLength(expected.length);
    expected.forEach(([time, eigenvalues], k) => {
      expect(body.path[k].time).toBe(time);
      body.path[k].eigenvalues.forEach((v: number, i: number) => expect(Math.abs(v - eigenvalues[i])).toBeLessThanOrEqual(1e-14));
    });
    expect(res.body).toContain('"parameters": {"dimension": 3, "steps": 5, "dt": 0.05, "seed": 6116}, "beta": 1, ');
    expect(body.limits).toHaveLength(4);
  });

  it('equal the library result encoded the Python way, for each operation', async () => {
    const cases: [string, string, (parsed: never) => unknown][] = [
      ['/v1/market/assess', EMPTY_MARKET, assessMarket],
      ['/v1/market/assess', JSON.stringify(seriesRequest({ series: 4, points: 90, allFields: true })), assessMarket],
      ['/v1/narrative/triage', `{"events": [], "as_of": "${CLOCK}"}`, triageNarrative],
      ['/v1/narrative/triage', JSON.stringify(narrativeRequest({ events: 40, titleLength: 60 })), triageNarrative],
      ['/v1/spectral/assess', EMPTY_MARKET, (p) => assessSpectral(p, p)],
      ['/v1/spectral/assess', JSON.stringify({ ...seriesRequest({ series: 5, points: 130 }), policy: { window_points: 60, step_points: 60, max_windows: 2 } }), (p) => assessSpectral(p, p)],
      ['/v1/research/dyson', '{"dimension": 3, "steps": 5, "seed": 6116}', dysonReference],
    ];
    for (const [path, body, run] of cases) {
      const res = await post(path, body);
      expect(res.statusCode, path).toBe(200);
      expect(res.body).toBe(encodePythonBody(run(parseStrictJson(body) as never)));
    }
  });

  it('give byte-identical bodies for the same request', async () => {
    const request = JSON.stringify(seriesRequest({ series: 3, points: 80, allFields: true }));
    const a = await post('/v1/market/assess', request);
    const b = await post('/v1/market/assess', request);
    expect(a.statusCode).toBe(200);
    expect(b.body).toBe(a.body);
  });
});

describe('analysis request pipeline: route, media type, size, JSON, schema, domain', () => {
  it('refuses a body that is not application/json with 415, whatever the body', async () => {
    expectError(await post('/v1/market/assess', EMPTY_MARKET, { 'content-type': 'text/plain' }), 415, 'unsupported_media_type');
    expectError(await post('/v1/market/assess', '{"x": NaN', { 'content-type': 'text/plain' }), 415, 'unsupported_media_type');
    expectError(await post('/v1/market/assess', EMPTY_MARKET, {}), 415, 'unsupported_media_type');
  });

  it('accepts application/json with parameters and in any case', async () => {
    for (const type of ['application/json; charset=utf-8', 'Application/JSON']) {
      expect((await post('/v1/market/assess', EMPTY_MARKET, { 'content-type': type })).statusCode, type).toBe(200);
    }
  });

  it('checks the route before the media type', async () => {
    expect((await post('/v1/nowhere', EMPTY_MARKET, { 'content-type': 'text/plain' })).statusCode).toBe(404);
  });

  it('refuses a body above the limit with 413 before parsing it', async () => {
    const big = `{"series": [], "as_of": "${CLOCK}", "x": "${'a'.repeat(3000)}"`; // also malformed
    expectError(await post('/v1/market/assess', big, JSON_HEADERS, small), 413, 'body_too_large');
    expectError(await post('/v1/market/assess', big, { 'content-type': 'text/plain' }, small), 415, 'unsupported_media_type');
  });

  it.each([
    ['NaN', '{"dimension": NaN}'],
    ['Infinity', '{"dt": Infinity}'],
    ['-Infinity', '{"dt": -Infinity}'],
    ['duplicate keys', '{"dimension": 3, "dimension": 4}'],
    ['nested duplicate keys', `{"series": [{"id": "a", "id": "b"}], "as_of": "${CLOCK}"}`],
    ['truncated', '{"dimension": 3'],
    ['invalid UTF-8', Buffer.from([0x7b, 0x22, 0xc3, 0x28, 0x22, 0x3a, 0x31, 0x7d])],
  ])('answers %s with 400 malformed_json before any schema check', async (_name, body) => {
    expectError(await post('/v1/research/dyson', body), 400, 'malformed_json');
  });

  it('answers NaN and Infinity as market observation values with 400', async () => {
    for (const literal of ['NaN', 'Infinity', '-Infinity']) {
      const body = `{"series": [{"id": "a", "kind": "price", "unit": "u", "source": {"id": "s", "rights": "permitted"}, "max_age_seconds": 1, "observations": [{"observed_at": "${CLOCK}", "value": ${literal}}]}], "as_of": "${CLOCK}"}`;
      expectError(await post('/v1/market/assess', body), 400, 'malformed_json');
    }
  });

  it('answers an empty body with 400', async () => {
    expectError(await post('/v1/research/dyson', ''), 400, 'empty_body');
  });

  it('requires a JSON object body (422 input: expected object)', async () => {
    for (const body of ['[]', 'null', '"dyson"', '7', 'true']) {
      const error = expectError(await post('/v1/research/dyson', body), 422, 'invalid_input', '');
      expect(error.error).toBe('input: expected object');
    }
  });

  it('answers schema problems with 422 invalid_input, a dotted message and a JSON pointer', async () => {
    const error = expectError(await post('/v1/research/dyson', '{"dimension": 3.0}'), 422, 'invalid_input', '/dimension');
    expect(error.error).toBe('input.dimension: expected integer');
    expect(Object.keys(error)).toEqual(['error', 'code', 'path']);
    // A float token whose nearest double is whole is still a float, in a small body as in a large one.
    for (const token of ['3.0000000000000000001', '2.99999999999999999999']) {
      for (const pad of ['', ' '.repeat(70 * 1024)]) {
        expect(expectError(await post('/v1/research/dyson', `{"dimension": ${token}${pad}}`), 422, 'invalid_input', '/dimension').error).toBe('input.dimension: expected integer');
      }
    }
  });

  it.each([
    ['dimension: true', '{"dimension": true}', '/dimension', 'expected integer'],
    ['dimension: 17', '{"dimension": 17}', '/dimension', 'violates maximum 16'],
    ['steps: 101', '{"steps": 101}', '/steps', 'violates maximum 100'],
    ['seed: -1', '{"seed": -1}', '/seed', 'violates minimum 0'],
    ['dt: 0', '{"dt": 0}', '/dt', 'violates minimum 1e-06'],
    ['unknown buy', '{"buy": 1}', '/buy', 'unknown field "buy"'],
  ])('refuses the Dyson request %s', async (_name, body, path, text) => {
    const error = expectError(await post('/v1/research/dyson', body), 422, 'invalid_input', path);
    expect(error.error).toContain(text);
  });

  it('checks the schema before domain rules (duplicate ids are a domain error)', async () => {
    const duplicate = { series: [marketSeries('a'), marketSeries('a')], as_of: CLOCK };
    expectError(await post('/v1/market/assess', duplicate), 422, 'duplicate_series_id');
    expectError(await post('/v1/spectral/assess', duplicate), 422, 'duplicate_series_id');
    const both = { series: [marketSeries('a'), { ...marketSeries('a'), unit: '' }], as_of: CLOCK };
    expectError(await post('/v1/market/assess', both), 422, 'invalid_input', '/series/1/unit');
  });

  it('refuses extra fields at the top level and inside a source', async () => {
    expectError(await post('/v1/market/assess', { series: [], as_of: CLOCK, extra: 1 }), 422, 'invalid_input', '/extra');
    const inSource = { series: [{ ...marketSeries('a'), source: { id: 's', rights: 'permitted', licence: 'x' } }], as_of: CLOCK };
    expectError(await post('/v1/market/assess', inSource), 422, 'invalid_input', '/series/0/source/licence');
    const event = { events: [{ id: 'e', title: 't', published_at: CLOCK, entities: [], source: { id: 's', kind: 'primary' }, extra: 1 }], as_of: CLOCK };
    expectError(await post('/v1/narrative/triage', event), 422, 'invalid_input', '/events/0/extra');
  });

  it('refuses a 2049-value history and a boolean value', async () => {
    const long = { series: [marketSeries('a', 0)], as_of: CLOCK };
    (long.series[0] as { observations: unknown[] }).observations = Array.from({ length: 2049 }, (_, i) => ({
      observed_at: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
      value: i,
    }));
    expectError(await post('/v1/market/assess', long), 422, 'invalid_input', '/series/0/observations');
    const flag = { series: [marketSeries('a')], as_of: CLOCK };
    (flag.series[0] as { observations: { value: unknown }[] }).observations[1].value = true;
    const error = expectError(await post('/v1/spectral/assess', flag), 422, 'invalid_input', '/series/0/observations/1/value');
    expect(error.error).toBe('input.series[0].observations[1].value: expected number or null');
  });

  it.each(['2026-10-08', '2026-10-08T01:00:00', '2026-10-08T01:00:00+01:00', 'bad', '2026-10-08T01:00:00.1234567Z'])(
    'requires as_of to be an explicit UTC clock: refuses %s',
    async (asOf) => {
      expectError(await post('/v1/market/assess', { series: [], as_of: asOf }), 422, 'invalid_input', '/as_of');
      expectError(await post('/v1/narrative/triage', { events: [], as_of: asOf }), 422, 'invalid_input', '/as_of');
    },
  );

  it('accepts 1 to 6 fractional digits with Z or +00:00 and echoes the clock verbatim', async () => {
    for (const asOf of ['2026-10-08T09:00:00.1Z', '2026-10-08T09:00:00.12+00:00', '2026-10-08T09:00:00.123456Z', '2026-10-08T09:00:00+00:00']) {
      const res = await post('/v1/market/assess', { series: [], as_of: asOf });
      expect(res.statusCode).toBe(200);
      expect(res.json().as_of).toBe(asOf);
    }
  });

  it('answers a lone surrogate with 422 lone_surrogate and its pointer', async () => {
    const body = `{"events": [{"id": "e1", "title": "rates \\ud800 rise", "published_at": "${CLOCK}", "entities": [], "source": {"id": "s", "kind": "primary"}}], "as_of": "${CLOCK}"}`;
    const error = expectError(await post('/v1/narrative/triage', body), 422, 'lone_surrogate', '/events/0/title');
    expect(error.error).toMatch(/surrogate/);
    const id = `{"series": [{"id": "\\udfff", "kind": "price", "unit": "u", "source": {"id": "s", "rights": "permitted"}, "max_age_seconds": 1, "observations": []}], "as_of": "${CLOCK}"}`;
    expectError(await post('/v1/market/assess', id), 422, 'lone_surrogate', '/series/0/id');
  });
});

describe('documented maxima fit in one request under the default 16 MiB limit', () => {
  it('market and spectral take 32 series × 2048 observations with every optional field', async () => {
    const body = JSON.stringify(seriesRequest({ series: 32, points: 2048, allFields: true }));
    expect(Buffer.byteLength(body)).toBeGreaterThan(2 * 1024 * 1024);
    expect(Buffer.byteLength(body)).toBeLessThan(t.deps.config.bodyLimit);
    const market = await post('/v1/market/assess', body);
    expect(market.statusCode, market.body.slice(0, 300)).toBe(200);
    expect(market.json().series).toHaveLength(32);
    const spectral = await post('/v1/spectral/assess', body);
    expect(spectral.statusCode, spectral.body.slice(0, 300)).toBe(200);
    expect(spectral.json().series).toHaveLength(32);
  });

  it('narrative takes 500 events with 2000-character titles', async () => {
    const body = JSON.stringify(narrativeRequest({ events: 500, titleLength: 2000 }));
    const res = await post('/v1/narrative/triage', body);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.json().events).toHaveLength(500);
  });

  it('narrative takes 2000-code-point titles of astral characters', async () => {
    const request = narrativeRequest({ events: 3, titleLength: 10 }) as { events: { title: string }[] };
    request.events[0].title = '\u{1F4C8}'.repeat(2000);
    const res = await post('/v1/narrative/triage', request);
    expect(res.statusCode).toBe(200);
    request.events[0].title = '\u{1F4C8}'.repeat(2001);
    expectError(await post('/v1/narrative/triage', request), 422, 'invalid_input', '/events/0/title');
  });
});

describe('capabilities', () => {
  it('describes all ten tools, sorted by name, with their exact input schemas, and says MCP reaches them', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/capabilities' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    const body = res.json();
    expect(Object.keys(body)).toEqual([
      'schema_version', 'name', 'version', 'implementation_sha256', 'transports', 'tools', 'rest', 'openapi', 'limits', 'posture', 'defaults',
    ]);
    expect(body).toMatchObject({ schema_version: 'noisefloor.capabilities.v1', name: 'noisefloor', version: '0.4.0', transports: ['cli', 'stdio', 'streamable-http', 'rest', 'mcp'], openapi: '/openapi.json' });
    expect(body.tools.map((tool: { name: string }) => tool.name)).toEqual([
      'ab_test', 'did_it_change', 'dyson_reference', 'forecast_next', 'market_assessment', 'narrative_triage', 'real_or_sampling',
      'score_forecasts', 'spectral_assessment', 'which_metrics_matter',
    ]);
    for (const tool of body.tools) {
      expect(Object.keys(tool)).toEqual(['name', 'description', 'input_schema']);
      expect(tool.description.length).toBeGreaterThan(20);
      expect(tool.input_schema).toEqual(JSON.parse(JSON.stringify(inputSchemaOf(tool.name))));
      if (tool.name in SCHEMAS) expect(tool.input_schema).toEqual(JSON.parse(JSON.stringify(SCHEMAS[tool.name as keyof typeof SCHEMAS])));
    }
    expect(body.rest).toEqual({
      '/v1/market/assess': 'market_assessment',
      '/v1/narrative/triage': 'narrative_triage',
      '/v1/spectral/assess': 'spectral_assessment',
      '/v1/research/dyson': 'dyson_reference',
    });
  });

  it('emits schema keys in the published order (type, properties, required, additionalProperties)', async () => {
    const body = (await t.app.inject({ method: 'GET', url: '/v1/capabilities' })).json();
    const market = body.tools.find((tool: { name: string }) => tool.name === 'market_assessment').input_schema;
    expect(Object.keys(market)).toEqual(['type', 'properties', 'required', 'additionalProperties']);
    expect(Object.keys(market.properties.series)).toEqual(['type', 'items', 'minItems', 'maxItems']);
    expect(Object.keys(market.properties.as_of)).toEqual(['type', 'minLength', 'maxLength', 'format']);
    expect(market.properties.as_of.format).toBe('utc-date-time');
    expect(Object.keys(market.properties.series.items.properties.id)).toEqual(['type', 'minLength', 'maxLength']);
    expect(market.properties.series.items.required).toEqual(['id', 'kind', 'unit', 'source', 'max_age_seconds', 'observations']);
  });

  it('advertises real limits, the posture and each operation’s defaults (float defaults print as floats)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/capabilities' });
    const body = res.json();
    expect(body.limits).toEqual({
      max_body_bytes: t.deps.config.bodyLimit,
      max_series: 32,
      max_observations_per_series: 2048,
      max_events: 500,
      max_rpc_batch: 16,
      max_spectral_windows: 8,
      max_spectral_window_points: 512,
      max_dyson_dimension: 16,
      max_dyson_steps: 100,
      max_http_connections_per_process: null,
    });
    const smallLimit = (await small.app.inject({ method: 'GET', url: '/v1/capabilities' })).json();
    expect(smallLimit.limits.max_body_bytes).toBe(2048);
    expect(body.posture).toEqual({
      offline_computation: true,
      fetches_sources: false,
      executes_trades: false,
      persists_submitted_data: false,
      market_assessment: 'descriptive',
      narrative_triage: 'review_priority_not_truth',
      spectral_assessment: 'research_descriptive',
      dyson_reference: 'synthetic_reference_not_market_evidence',
    });
    expect(body.defaults).toEqual({
      dyson_reference: { dimension: 6, steps: 40, dt: 0.05, seed: 0 },
      market_assessment: { baseline_points: 30, recent_points: 3, move_threshold: 3, volatility_ratio: 3, coverage_drop_fraction: 0.2 },
      narrative_triage: { max_age_seconds: 86400, max_items: 20, similarity_threshold: 0.8 },
      spectral_assessment: { window_points: 60, step_points: 20, max_windows: 4 },
    });
    expect(res.body).toContain('"market_assessment": {"baseline_points": 30, "recent_points": 3, "move_threshold": 3.0, "volatility_ratio": 3.0, "coverage_drop_fraction": 0.2}');
    expect(res.body).toContain('"dt": {"type": "number", "minimum": 1e-06, "maximum": 1, "default": 0.05}');
  });

  it('is deterministic and returns a fresh copy of every schema each call', async () => {
    const a = await t.app.inject({ method: 'GET', url: '/v1/capabilities' });
    const b = await t.app.inject({ method: 'GET', url: '/v1/capabilities' });
    expect(b.body).toBe(a.body);
    const first = capabilitiesBody(1024) as { tools: { input_schema: Record<string, unknown> }[] };
    first.tools[0].input_schema.type = 'mutated';
    (first.tools[1].input_schema.properties as Record<string, unknown>).series = null;
    const second = capabilitiesBody(1024) as { tools: { input_schema: Record<string, unknown> }[] };
    expect(second.tools[0].input_schema.type).toBe('object');
    expect((second.tools[1].input_schema.properties as Record<string, unknown>).series).not.toBeNull();
    expect(DysonRequestSchema).toMatchObject({ type: 'object' });
    const c = await t.app.inject({ method: 'GET', url: '/v1/capabilities' });
    expect(c.body).toBe(a.body);
    expect(c.body).toBe(encodePythonBody(capabilitiesBody(t.deps.config.bodyLimit)));
  });
});

describe('OpenAPI', () => {
  it('embeds exactly the request schemas, with the tool names as operation ids, and hides the prefixed copies', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(doc.openapi).toBe('3.1.0');
    for (const [tool, path] of Object.entries(TOOL_PATHS)) {
      const operation = doc.paths[path].post;
      expect(operation.operationId).toBe(tool);
      expect(operation.summary.length).toBeGreaterThan(20);
      expect(operation.requestBody.content['application/json'].schema).toEqual(JSON.parse(JSON.stringify(SCHEMAS[tool as keyof typeof SCHEMAS])));
      const ok = operation.responses['200'].content['application/json'].schema;
      expect(ok.type).toBe('object');
      expect(Object.keys(ok.properties)).toContain('request_sha256');
      expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['200', '400', '413', '415', '422']));
      expect(doc.paths[`/noisefloor${path}`]).toBeUndefined();
    }
    expect(doc.paths['/v1/capabilities'].get.operationId).toBe('capabilities');
    const capabilities = (await t.app.inject({ method: 'GET', url: '/v1/capabilities' })).json();
    for (const tool of capabilities.tools) {
      const path = TOOL_PATHS[tool.name as keyof typeof TOOL_PATHS];
      if (path !== undefined) expect(doc.paths[path].post.requestBody.content['application/json'].schema).toEqual(tool.input_schema);
      expect(doc.paths[`/v1/tools/${tool.name}`].post.requestBody.content['application/json'].schema).toEqual(tool.input_schema);
    }
    expect(JSON.stringify(SCHEMAS)).toBe(PRISTINE_SCHEMAS);
  });
});

/** An app logging at info level into `lines` (one JSON line each), on a fresh store. */
async function appLoggingAtInfo() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  const { storage, cleanup } = await sqliteBackend.open();
  const config = { ...defaultConfig(), logLevel: 'info' as const, captureInterval: 0 };
  const app = await buildApp({ config, storage, clock: nowInstant, logger: { ...(loggerOptions('info') as object), stream } });
  await app.ready();
  return { app, lines, cleanup };
}

describe('activation logs', () => {
  it('write one line per operation call with tool, outcome, surface and origin, and never a submitted value', async () => {
    const { app, lines, cleanup } = await appLoggingAtInfo();
    try {
      const marker = 'MARKER-7f3a9c';
      const ok = { events: [{ id: `${marker}-id`, title: `${marker} title`, published_at: CLOCK, entities: [marker], source: { id: marker, kind: 'primary' } }], as_of: CLOCK };
      expect((await app.inject({ method: 'POST', url: '/v1/narrative/triage', payload: JSON.stringify(ok), headers: JSON_HEADERS })).statusCode).toBe(200);
      const bad = { events: [{ id: `${marker}-id`, title: `${marker} title` }], as_of: CLOCK };
      expect((await app.inject({ method: 'POST', url: '/v1/narrative/triage', payload: JSON.stringify(bad), headers: { ...JSON_HEADERS, 'x-forwarded-for': '203.0.113.9' } })).statusCode).toBe(422);
      const flag = { series: [{ ...marketSeries(`${marker}-series`), observations: [{ observed_at: CLOCK, value: true }] }], as_of: CLOCK };
      expect((await app.inject({ method: 'POST', url: '/v1/spectral/assess', payload: JSON.stringify(flag), headers: JSON_HEADERS })).statusCode).toBe(422);
      // Refused before the operation runs: no activation line.
      await app.inject({ method: 'POST', url: '/v1/research/dyson', payload: '{"x": NaN}', headers: JSON_HEADERS });
      await app.inject({ method: 'POST', url: '/v1/research/dyson', payload: '{}', headers: { 'content-type': 'text/plain' } });
      await app.inject({ method: 'GET', url: '/v1/capabilities' });
    } finally {
      await app.close();
      await cleanup();
    }
    const activations = lines.map((line) => JSON.parse(line)).filter((entry) => entry.msg === 'tool activation');
    expect(activations.map(({ tool, outcome, surface, origin }) => ({ tool, outcome, surface, origin }))).toEqual([
      { tool: 'narrative_triage', outcome: 'success', surface: 'rest', origin: 'direct' },
      { tool: 'narrative_triage', outcome: 'error', surface: 'rest', origin: 'edge' },
      { tool: 'spectral_assessment', outcome: 'error', surface: 'rest', origin: 'direct' },
    ]);
    expect(lines.join('\n')).not.toContain('MARKER-7f3a9c');
    expect(lines.join('\n')).not.toContain('203.0.113.9');
  });

  it('write the same line for every tool called over MCP on HTTP (unknown ones as unknown), with surface public', async () => {
    const { app, lines, cleanup } = await appLoggingAtInfo();
    const call = (id: number, name: string, args: unknown, headers: Record<string, string> = {}) => app.inject({
      method: 'POST', url: '/mcp', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      payload: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } }),
    });
    try {
      expect((await call(1, 'did_it_change', JSON.parse(TOOL_ARGUMENTS.did_it_change))).statusCode).toBe(200);
      expect((await call(2, 'ab_test', { arms: 'MARKER-7f3a9c' }, { 'x-forwarded-for': '203.0.113.9' })).statusCode).toBe(200);
      await call(3, 'capabilities', null);
      await call(4, 'funding_history', {});
      await call(5, 'MARKER-7f3a9c', {});
      // Not a tool call: no activation line.
      await app.inject({ method: 'POST', url: '/mcp', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ jsonrpc: '2.0', id: 6, method: 'tools/list' }) });
    } finally {
      await app.close();
      await cleanup();
    }
    const activations = lines.map((line) => JSON.parse(line)).filter((entry) => entry.msg === 'tool activation');
    expect(activations.map(({ tool, outcome, surface, origin, code }) => ({ tool, outcome, surface, origin, code }))).toEqual([
      { tool: 'did_it_change', outcome: 'success', surface: 'public', origin: 'direct', code: undefined },
      { tool: 'ab_test', outcome: 'error', surface: 'public', origin: 'edge', code: 'invalid_input' },
      { tool: 'capabilities', outcome: 'error', surface: 'public', origin: 'direct', code: 'invalid_input' },
      { tool: 'funding_history', outcome: 'success', surface: 'public', origin: 'direct', code: undefined },
      { tool: 'unknown', outcome: 'error', surface: 'public', origin: 'direct', code: 'unknown_tool' },
    ]);
    expect(lines.join('\n')).not.toContain('MARKER-7f3a9c');
    expect(lines.join('\n')).not.toContain('203.0.113.9');
  });
});
