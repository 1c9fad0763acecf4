// Every response carries the same security headers, whoever writes it: routes, guards,
// unknown paths and methods, conditional and HEAD answers, preflights, load shedding, the
// docs page and its static files, the last-resort 500 and the answers written at the edge.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureOnce } from '../../src/funding/capture.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { exchange, parseResponses, portOf } from '../helpers/raw-http.js';
import { seriesRequest } from '../helpers/analysis-requests.js';
import { liveConfig, testClock } from '../funding/support.js';

// Written out, not taken from the code under test.
const EXPECTED = { 'x-content-type-options': 'nosniff', 'x-evidence-mode': 'sample' };

let t: TestApp;
let etag: string;
beforeAll(async () => {
  const clock = testClock('2026-11-20T15:30:00Z');
  const offline = liveConfig('http://127.0.0.1:9', { mode: 'sample' });
  t = await makeTestApp({ mode: 'sample', publisherBases: offline.publisherBases, headersTimeout: 400, requestTimeout: 800, keepAliveTimeout: 300 }, {
    clock,
    beforeReady(app) {
      app.get('/test/explode', async () => {
        throw new Error('kaboom');
      });
    },
  });
  const result = await captureOnce({ storage: t.storage, config: offline, clock });
  if (!result.ran || result.attempt.packet_id === null) throw new Error('sample capture did not create a packet');
  etag = String((await t.app.inject({ method: 'GET', url: '/v1/funding/latest' })).headers.etag);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => t.close());

type Case = [string, { method?: string; url: string; headers?: Record<string, string>; payload?: string }, number];

describe('security headers', () => {
  it.each<Case>([
    ['a success', { url: '/healthz' }, 200],
    ['a funding read', { url: '/v1/funding/latest' }, 200],
    ['a 304', { url: '/v1/funding/latest', headers: { 'if-none-match': 'ETAG' } }, 304],
    ['a HEAD', { method: 'HEAD', url: '/v1/funding/latest' }, 200],
    ['a group A result (pre-encoded bytes)', { method: 'POST', url: '/v1/market/assess', headers: { 'content-type': 'application/json' }, payload: JSON.stringify(seriesRequest({ series: 2, points: 40 })) }, 200],
    ['a group A refusal', { method: 'POST', url: '/noisefloor/v1/market/assess', headers: { 'content-type': 'application/json' }, payload: '{"series": 1}' }, 422],
    ['a group A preflight', { method: 'OPTIONS', url: '/v1/market/assess' }, 204],
    ['a funding CORS preflight', { method: 'OPTIONS', url: '/v1/funding/latest', headers: { origin: 'https://pro.openbb.co', 'access-control-request-method': 'GET' } }, 204],
    ['a refused funding preflight', { method: 'OPTIONS', url: '/v1/funding/latest', headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' } }, 400],
    ['an OPTIONS that is no preflight', { method: 'OPTIONS', url: '/v1/funding/latest', headers: { origin: 'https://evil.example' } }, 405],
    ['credentials in the URL', { url: '/healthz?token=x' }, 400],
    ['an over-long query', { url: `/healthz?q=${'a'.repeat(1100)}` }, 414],
    ['an over-long guarded header', { url: '/healthz', headers: { 'if-none-match': 'x'.repeat(1100) } }, 431],
    ['an undecodable path', { url: '/%%ff%zz/' }, 400],
    ['an unknown path', { url: '/nowhere' }, 404],
    ['an unknown path under a group', { url: '/v1/funding/nowhere' }, 404],
    ['a method the path does not take', { method: 'PUT', url: '/healthz' }, 405],
    ['a method no route takes', { method: 'PATCH', url: '/v1/funding/latest' }, 405],
    ['a body refused', { method: 'POST', url: '/v1/applications', headers: { 'content-type': 'application/json' }, payload: '{' }, 400],
    ['a schema refusal', { url: '/v1/funding/history?limit=abc' }, 422],
    ['the OpenAPI document', { url: '/openapi.json' }, 200],
    ['the docs page', { url: '/docs/' }, 200],
    ['the docs page without its slash', { url: '/docs' }, 200],
    ['a docs static file', { url: '/docs/static/swagger-ui.css' }, 200],
    ['a docs static file that does not exist', { url: '/docs/static/nothing.css' }, 404],
    ['an unexpected failure', { url: '/test/explode' }, 500],
  ])('on %s', async (_name, request, status) => {
    const headers = Object.fromEntries(Object.entries(request.headers ?? {}).map(([k, v]) => [k, v === 'ETAG' ? etag : v]));
    const res = await t.app.inject({ method: (request.method ?? 'GET') as 'GET', url: request.url, headers, payload: request.payload });
    expect(res.statusCode).toBe(status);
    expect(res.headers).toMatchObject(EXPECTED);
  });

  it('on the answers written at the edge, over a real socket', async () => {
    const port = portOf(t.app);
    const host = 'Host: edge.test\r\n';
    for (const request of [
      `GET /healthz HTTP/1.1\r\n${host}Content-Length: 1\r\nContent-Length: 2\r\n\r\n`,
      'GET /healthz HTTP/1.1\r\n\r\n',
      `GET /healthz HTTP/1.1\r\n${host}Expect: teapot\r\n\r\n`,
      'CONNECT example.org:443 HTTP/1.1\r\nHost: example.org:443\r\n\r\n',
      `BREW / HTTP/1.1\r\n${host}\r\n`,
      `GET /healthz HTTP/1.1\r\n${host}X-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      `GET /healthz HTTP/1.1\r\n${host}X-Slow: 1\r\n`,
    ]) {
      const responses = parseResponses((await exchange(port, request)).bytes);
      expect(responses).toHaveLength(1);
      expect(responses[0].headers).toMatchObject(EXPECTED);
    }
  });
});

describe('load shedding', () => {
  it('sheds with the same security headers', async () => {
    const shed = await makeTestApp({ mode: 'sample', maxEventLoopDelay: 40 }, {
      beforeReady(app) {
        app.get('/test/block', async () => {
          const until = Date.now() + 400;
          while (Date.now() < until) { /* saturate the event loop on purpose */ }
          return { ok: true };
        });
      },
    });
    try {
      let res = await shed.app.inject({ method: 'GET', url: '/healthz' });
      for (let i = 0; i < 20 && res.statusCode !== 503; i++) {
        await shed.app.inject({ method: 'GET', url: '/test/block' });
        await new Promise((r) => setTimeout(r, 1));
        res = await shed.app.inject({ method: 'GET', url: '/v1/funding/latest' });
      }
      expect(res.statusCode).toBe(503);
      expect(res.json().code).toBe('overloaded');
      expect(res.headers).toMatchObject(EXPECTED);
    } finally {
      await shed.close();
    }
  });
});
