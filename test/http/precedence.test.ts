// Which refusal wins: a request whose path or method no operation serves is answered
// 404/405 whatever its body holds, since no operation exists to read the body.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { DATA_ROUTES } from '../../src/http/routes/data.js';
import { DATA_REVIEW_ROUTES } from '../../src/http/routes/data-review.js';
import { FUNDING_ROUTES } from '../../src/http/routes/funding.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

const MOUNTS = ['', '/noisefloor', '/funding-evidence', '/openbb'];
// Known paths of every group, each with a method it does not serve.
const WRONG_METHOD: Array<[string, string]> = [
  ['POST', '/v1/funding/latest'],
  ['DELETE', '/v1/market/assess'],
  ['PUT', '/api/v1/query'],
  ['POST', '/healthz'],
  ['PATCH', '/v1/applications'],
];
const BODIES = ['', '{', 'NaN', '{"a":1,"a":2}', '[1,]', '\u00ff', '{}'];

describe('route and method come before the body', () => {
  it('answers a path no route serves with 404 route_not_found whatever the body', async () => {
    for (const mount of MOUNTS) {
      for (const path of ['/nowhere', '/mcp/extra', '/v1/funding/nothing', '/api/v1/nothing']) {
        for (const payload of BODIES) {
          const res = await t.app.inject({ method: 'POST', url: `${mount}${path}`, payload, headers: { 'content-type': 'application/json' } });
          expect({ url: `${mount}${path}`, payload, status: res.statusCode, code: res.json().code }).toEqual({ url: `${mount}${path}`, payload, status: 404, code: 'route_not_found' });
        }
      }
    }
  });

  it('answers a known path with a method it lacks with 405 and Allow whatever the body', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...WRONG_METHOD), fc.constantFrom(...BODIES, 'x'), fc.string(), async ([method, path], fixed, random) => {
        for (const payload of [fixed, random]) {
          const res = await t.app.inject({ method: method as 'POST', url: path, payload, headers: { 'content-type': 'application/json' } });
          expect(res.statusCode).toBe(405);
          expect(res.json().code).toBe('method_not_allowed');
          expect(res.headers.allow).toBeTruthy();
        }
      }),
      { numRuns: 60 },
    );
  });
});

describe('OPTIONS that is not a CORS preflight', () => {
  const routes = [...FUNDING_ROUTES, ...DATA_ROUTES, ...DATA_REVIEW_ROUTES].filter((r) => r.method === 'GET');
  const concrete = (url: string) => url.replace(/:[a-z_]+/gi, 'x1');

  it('is answered 405 with the path\'s methods on every funding and data route, at both mounts', async () => {
    expect(routes.length).toBeGreaterThan(10);
    let checked = 0;
    for (const route of routes) {
      for (const mount of ['', route.url.startsWith('/api/') || route.url.endsWith('.json') ? '/openbb' : '/funding-evidence']) {
        const url = `${mount}${concrete(route.url)}`;
        for (const headers of [{}, { origin: 'https://pro.openbb.co' }, { origin: 'https://evil.example' }, { 'access-control-request-method': 'GET' }]) {
          const res = await t.app.inject({ method: 'OPTIONS', url, headers });
          if (res.statusCode === 404) continue; // a route served at one mount only
          expect({ url, headers, status: res.statusCode, code: res.json().code, allow: res.headers.allow }).toEqual({ url, headers, status: 405, code: 'method_not_allowed', allow: 'GET, HEAD' });
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(routes.length * 4);
  });

  it('still answers a real preflight: granted for an allowed origin, refused for another', async () => {
    const granted = await t.app.inject({ method: 'OPTIONS', url: '/api/v1/query', headers: { origin: 'https://pro.openbb.co', 'access-control-request-method': 'GET' } });
    expect(granted.statusCode).toBe(200);
    const refused = await t.app.inject({ method: 'OPTIONS', url: '/api/v1/query', headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().code).toBe('cors_preflight_refused');
  });
});
