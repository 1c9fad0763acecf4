import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { isFloatToken } from '../../src/core/json.js';
import { stringifyKeepingSchemaFloats } from '../../src/analysis/schemas/schema-floats.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp({ bodyLimit: 4096 }, {
    beforeReady(app) {
      app.post('/test/echo', async (request) => ({ received: request.body, floatKind: isFloatToken(request.body as object, 'x') }));
      app.get('/test/explode', async () => {
        throw new Error('kaboom');
      });
    },
  });
});
afterAll(async () => t.close());

describe('HTTP shell', () => {
  it('answers liveness with the analysis and data API health keys and no version header', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    const release = (await t.app.inject({ method: 'GET', url: '/api/v1/release' })).json<{ release_id: string }>().release_id;
    expect(res.json()).toMatchObject({ name: 'noisefloor', version: '0.4.0', status: 'ok', scope: 'backend_process_only', upstream_status: 'not_checked', release_id: release });
    expect(res.headers.server).toBeUndefined();
    expect(res.headers['x-powered-by']).toBeUndefined();
  });

  it('answers readiness after pinging the store', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ready', storage: 'sqlite', mode: 'live' });
  });

  it('supports HEAD on GET routes', async () => {
    const res = await t.app.inject({ method: 'HEAD', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('');
  });

  it('serves an OpenAPI 3.1 document and a docs page', async () => {
    const doc = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(doc.statusCode).toBe(200);
    expect(doc.json().openapi).toBe('3.1.0');
    expect(Object.keys(doc.json().paths)).toContain('/readyz');
    const page = await t.app.inject({ method: 'GET', url: '/docs' });
    expect([200, 302]).toContain(page.statusCode);
  });

  it('answers an unknown route with 404 and a code', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/nowhere' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'route_not_found' });
  });

  it('answers a known path with the wrong method with 405 and Allow', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/healthz', payload: '{}', headers: { 'content-type': 'application/json' } });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD, OPTIONS');
    expect(res.json().code).toBe('method_not_allowed');
  });

  it('serves the OpenAPI document encoded once, with a strong ETag that revalidates, at the root and under the analysis prefix', async () => {
    const first = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(first.statusCode).toBe(200);
    // JSON.stringify's text, except that float defaults print as floats (schema-floats.ts).
    expect(first.body).toBe(stringifyKeepingSchemaFloats(t.app.swagger()));
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[0-9a-f]{64}"$/);
    for (const url of ['/openapi.json', '/noisefloor/openapi.json']) {
      const again = await t.app.inject({ method: 'GET', url });
      expect(again.headers.etag).toBe(etag);
      expect(again.body).toBe(first.body);
      const revalidated = await t.app.inject({ method: 'GET', url, headers: { 'if-none-match': etag } });
      expect(revalidated.statusCode).toBe(304);
      expect(revalidated.body).toBe('');
    }
    expect((await t.app.inject({ method: 'GET', url: '/noisefloor/openapi.json' })).headers['cache-control']).toBe('no-store');
  });

  it('parses strict JSON and keeps the number kind of 3.0', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/test/echo', payload: '{"x": 3.0}', headers: { 'content-type': 'application/json' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ received: { x: 3 }, floatKind: true });
  });

  it.each([
    ['duplicate keys', '{"x": 1, "x": 2}'],
    ['NaN', '{"x": NaN}'],
    ['Infinity', '[Infinity]'],
    ['truncated', '{"x": '],
    ['trailing comma', '[1,]'],
  ])('rejects %s with 400 malformed_json', async (_name, payload) => {
    const res = await t.app.inject({ method: 'POST', url: '/test/echo', payload, headers: { 'content-type': 'application/json' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('malformed_json');
  });

  it('rejects invalid UTF-8 with 400', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/test/echo', payload: Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]), headers: { 'content-type': 'application/json' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('malformed_json');
  });

  it('rejects an empty JSON body with 400 empty_body', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/test/echo', payload: '', headers: { 'content-type': 'application/json' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('empty_body');
  });

  it('rejects a non-JSON media type with 415', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/test/echo', payload: 'x=1', headers: { 'content-type': 'text/plain' } });
    expect(res.statusCode).toBe(415);
    expect(res.json().code).toBe('unsupported_media_type');
  });

  it('treats a body without Content-Type as not JSON (415)', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/test/echo', payload: '{"x": 1}' });
    expect(res.statusCode).toBe(415);
  });

  it('accepts a media type with parameters and in upper case', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/test/echo', payload: '{"x": 1}', headers: { 'content-type': 'Application/JSON; charset=utf-8' } });
    expect(res.statusCode).toBe(200);
  });

  it('rejects a body above the configured limit with 413', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/test/echo', payload: JSON.stringify({ x: 'a'.repeat(5000) }), headers: { 'content-type': 'application/json' } });
    expect(res.statusCode).toBe(413);
    expect(res.json().code).toBe('body_too_large');
  });

  it('turns an unexpected failure into a 500 problem body, not a dropped socket', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/test/explode' });
    expect(res.statusCode).toBe(500);
    expect(res.json().code).toBe('internal_error');
    expect(res.body).not.toContain('kaboom');
  });

  it('refuses credentials in the URL', async () => {
    for (const name of ['token', 'api_key', 'access_token']) {
      const res = await t.app.inject({ method: 'GET', url: `/healthz?${name}=secret` });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('credentials_in_url');
    }
  });

  it('refuses an over-long query string with 414 and an over-long If-None-Match with 431', async () => {
    expect((await t.app.inject({ method: 'GET', url: `/healthz?q=${'a'.repeat(1100)}` })).statusCode).toBe(414);
    expect((await t.app.inject({ method: 'GET', url: '/healthz', headers: { 'if-none-match': 'x'.repeat(1025) } })).statusCode).toBe(431);
  });
});
