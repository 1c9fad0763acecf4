// The never-500 property over raw bytes: whatever request line, header section, framing and
// body a client writes to a real listening socket, every answer is a well-formed HTTP/1.1
// response below 500 (or a 503 the service chose), carries the security headers, and an
// error answer carries a registry `code`; there is at least one answer, and the connection
// ends — nothing is left hanging. And a request refused at the edge never costs the
// requests pipelined ahead of it their answers.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseStrictJson } from '../../src/core/json.js';
import { lookupError } from '../../src/core/errors.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { exchange, parseResponses, portOf } from '../helpers/raw-http.js';

const TIMEOUTS = { headersTimeout: 300, requestTimeout: 600, keepAliveTimeout: 200 };
/** Past every deadline above, plus Node's one-second keep-alive grace and the edge's linger. */
const ENDS_WITHIN_MS = 6_000;

let t: TestApp;
let port: number;
beforeAll(async () => {
  t = await makeTestApp({ ...TIMEOUTS, bodyLimit: 2048 });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = portOf(t.app);
});
afterAll(async () => t.close());

// Byte strings that stress a parser: control bytes, separators, non-ASCII, digits and signs.
const bytes = (maxLength: number) =>
  fc.array(fc.oneof(fc.integer({ min: 0, max: 255 }), fc.constantFrom(...Buffer.from(' \t:;,"%/\\?#0123456789-+abcXYZ'))), { maxLength })
    .map((codes) => Buffer.from(codes).toString('latin1'));

const method = fc.oneof(
  { arbitrary: fc.constantFrom('GET', 'GET', 'POST', 'OPTIONS'), weight: 8 },
  fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH', 'TRACE', 'CONNECT', 'BREW', 'get', 'G ET', ''),
  bytes(6),
);
const target = fc.oneof(
  { arbitrary: fc.constantFrom('/healthz', '/v1/funding/history', '/v1/applications', '/v1/funding/latest'), weight: 6 },
  fc.constantFrom('/healthz', '/readyz', '/v1/funding/latest', '/v1/market/assess', '/noisefloor/v1/market/assess', '/v1/applications', '/openapi.json', '/docs', '*', 'http://x/healthz', 'example.org:443', '/%%ff%zz/', '/caf\xe9', '/a b', '/?token=x'),
  bytes(20).map((s) => `/${s}`),
);
const version = fc.oneof({ arbitrary: fc.constant('HTTP/1.1'), weight: 8 }, fc.constantFrom('HTTP/1.0', 'HTTP/1.2', 'HTTP/2.0', 'HTTP/0.9', 'http/1.1', 'HTTP/1.1 ', ''));
const headerName = fc.oneof(
  fc.constantFrom('Host', 'Content-Length', 'Transfer-Encoding', 'Expect', 'Connection', 'Upgrade', 'Content-Type', 'Authorization', 'If-None-Match', 'X-A', 'Host ', ' Host'),
  bytes(8),
);
const headerValue = fc.oneof(
  fc.constantFrom('x', '0', '5', '-1', '1x', '99999999999999999999', 'chunked', 'gzip, chunked', 'chunked, gzip', 'identity', '100-continue', 'teapot', 'close', 'keep-alive', 'Upgrade', 'websocket', 'application/json', 'Bearer fe_x'),
  bytes(24),
);
const header = fc.oneof(
  { arbitrary: fc.constantFrom('Accept: */*', 'Connection: close', 'Content-Type: application/json', 'X-A: 1', 'Content-Length: 2', 'Transfer-Encoding: chunked'), weight: 12 },
  fc.tuple(headerName, headerValue).map(([n, v]) => `${n}: ${v}`),
  headerValue.map((v) => ` ${v}`), // a folded continuation line
  bytes(30),
);
const body = fc.oneof(
  fc.constantFrom('', '{}', '{"a": 1}', '0\r\n\r\n', '5\r\nhello\r\n0\r\n\r\n', 'zz\r\n{}\r\n0\r\n\r\n', '{"measurement_consent": true}'),
  bytes(64),
);
const mostly = fc.oneof({ arbitrary: fc.constant(true), weight: 4 }, fc.constant(false));
const request = fc
  .record({
    method,
    target,
    version,
    withHost: mostly,
    headers: fc.array(header, { maxLength: 5 }),
    eol: fc.constantFrom('\r\n', '\r\n', '\n'),
    body,
    // Sometimes the head never ends, sometimes a second request follows on the connection.
    complete: mostly,
    then: fc.option(fc.constant('GET /healthz HTTP/1.1\r\nHost: p.test\r\n\r\n'), { nil: undefined }),
    end: fc.boolean(),
  })
  .map((r) => {
    const lines = [[r.method, r.target, r.version].filter((p) => p !== '').join(' '), ...(r.withHost ? ['Host: p.test'] : []), ...r.headers];
    const head = lines.join(r.eol) + r.eol + (r.complete ? r.eol : '');
    return { bytes: head + r.body + (r.then ?? ''), end: r.end };
  });

describe('the edge under arbitrary bytes (property)', () => {
  it('answers with a designed response or a clean close, never a 500, and never hangs', async () => {
    const statuses = new Set<number>();
    await fc.assert(
      fc.asyncProperty(request, async (req) => {
        const got = await exchange(port, req.bytes, { end: req.end, limitMs: ENDS_WITHIN_MS });
        expect(got.closed, `connection left open: ${JSON.stringify(req.bytes)}`).toBe(true);
        const responses = parseResponses(got.bytes);
        expect(responses.length, `no answer to ${JSON.stringify(req.bytes)}`).toBeGreaterThan(0);
        for (const res of responses) {
          statuses.add(res.status);
          expect(res.status === 503 || res.status < 500, `status ${res.status} for ${JSON.stringify(req.bytes)}`).toBe(true);
          if (res.status < 200) continue;
          expect(res.headers['x-content-type-options']).toBe('nosniff');
          if (res.status >= 400) {
            const parsed = parseStrictJson(res.body) as { code?: unknown };
            expect(typeof parsed.code).toBe('string');
            expect(lookupError(parsed.code as string)?.status).toBe(res.status);
          }
        }
      }),
      { numRuns: 300 },
    );
    // The generator reaches both sides: answers routed normally and refusals at the edge.
    expect([...statuses].some((s) => s < 300)).toBe(true);
    expect([...statuses].some((s) => s >= 400)).toBe(true);
  }, 240_000);
});

// Well-formed requests whose answers come at once (404, 405), after a hook or after work on
// the analysis path, each with the status it gets when sent alone; none of them ends the
// connection (the analysis group's refusals other than 422 do: analysis-close.test.ts).
const GOOD = [
  'GET /healthz HTTP/1.1\r\nHost: p.test\r\n\r\n',
  'GET /nowhere HTTP/1.1\r\nHost: p.test\r\n\r\n',
  'POST /healthz HTTP/1.1\r\nHost: p.test\r\nContent-Length: 0\r\n\r\n',
  'GET /v1/funding/nowhere HTTP/1.1\r\nHost: p.test\r\n\r\n',
  'DELETE /healthz HTTP/1.1\r\nHost: p.test\r\n\r\n',
  'OPTIONS /healthz HTTP/1.1\r\nHost: p.test\r\n\r\n',
  'GET /v1/capabilities HTTP/1.1\r\nHost: p.test\r\n\r\n',
  'POST /v1/market/assess HTTP/1.1\r\nHost: p.test\r\nContent-Type: application/json\r\nContent-Length: 47\r\n\r\n{"series": [], "as_of": "2026-01-01T00:00:00Z"}',
  'POST /v1/market/assess HTTP/1.1\r\nHost: p.test\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n[]',
];
// Requests the edge refuses (Node's parser, the CONNECT listener): each ends the connection.
const REFUSED = [
  'GET /x HTTP/1.1\r\nHost: p.test\r\nX: a\x00b\r\n\r\n',
  'POST /healthz HTTP/1.1\r\nHost: p.test\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n',
  'GET /x HTTP/1.1\r\nHost: p.test\r\nX: a\r\n b\r\n\r\n',
  'BREW / HTTP/1.1\r\nHost: p.test\r\n\r\n',
  'CONNECT localhost:443 HTTP/1.1\r\nHost: localhost:443\r\n\r\n',
  'POST /v1/market/assess HTTP/1.1\r\nHost: p.test\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n',
  'GET /healthz HTTP/1.2\r\nHost: p.test\r\n\r\n',
  'POST /healthz HTTP/1.1\r\nHost: p.test\r\nTransfer-Encoding: gzip\r\n\r\n',
  'POST /v1/market/assess HTTP/1.1\r\nHost: p.test\r\nContent-Type: application/json\r\nTransfer-Encoding: gzip, chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n',
];

describe('a refusal at the edge behind pipelined requests (property)', () => {
  it('comes after every answer owed to the requests ahead of it, in order, then the connection closes', async () => {
    const alone = new Map<string, number>();
    for (const req of GOOD) {
      const [res] = parseResponses((await exchange(port, req.replace('\r\n\r\n', '\r\nConnection: close\r\n\r\n'))).bytes);
      alone.set(req, res.status);
    }
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom(...GOOD), { minLength: 1, maxLength: 5 }), fc.constantFrom(...REFUSED), async (goods, refused) => {
        const got = await exchange(port, goods.join('') + refused, { limitMs: ENDS_WITHIN_MS });
        const what = JSON.stringify(goods.join('') + refused);
        expect(got.closed, `connection left open: ${what}`).toBe(true);
        const responses = parseResponses(got.bytes);
        expect(responses.map((r) => r.status).slice(0, goods.length), what).toEqual(goods.map((g) => alone.get(g)));
        expect(responses.length, what).toBe(goods.length + 1);
        const last = responses[goods.length];
        expect(last.status, what).toBeGreaterThanOrEqual(400);
        expect(last.headers.connection, what).toBe('close');
        expect(typeof (parseStrictJson(last.body) as { code?: unknown }).code, what).toBe('string');
      }),
      { numRuns: 120 },
    );
  }, 240_000);
});

