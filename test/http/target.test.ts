// Refusals read a request target as the router does: a target the router matches to a path
// is answered like that path for every method (405 with the same Allow, in the same group's
// shape), and an absolute-form target is served as its origin form.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GROUPS } from '../../src/http/groups.js';
import { originForm, routerPath } from '../../src/http/target.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { exchange, parseResponses, portOf } from '../helpers/raw-http.js';

describe('reading a target as the router does', () => {
  it('turns an absolute-form target into its origin form and keeps every other target', () => {
    expect(originForm('http://x/v1/funding/latest?a=1')).toBe('/v1/funding/latest?a=1');
    expect(originForm('HTTPS://user@x:8080')).toBe('/');
    expect(originForm('http://x?a=1')).toBe('/?a=1');
    expect(originForm('/v1/funding/latest')).toBe('/v1/funding/latest');
    expect(originForm('*')).toBe('*');
    expect(originForm('example.org:443')).toBe('example.org:443');
  });

  it('decodes what decodeURI decodes, keeps encoded delimiters, drops query and fragment, collapses slashes', () => {
    expect(routerPath('/v1/funding/l%61test?x=%61')).toBe('/v1/funding/latest');
    expect(routerPath('//v1///funding/latest#top')).toBe('/v1/funding/latest');
    expect(routerPath('/v1/funding/latest%2Fx')).toBe('/v1/funding/latest%2Fx');
    expect(routerPath('/%%ff%zz/')).toBe('/%%ff%zz/');
    expect(routerPath(undefined)).toBe('/');
  });
});

// Every fixed path the groups serve (parameters filled with a plain segment), and each one's
// targets that the router reads as the same path.
const PATHS = [...new Set(GROUPS.flatMap((g) => g.routes.flatMap((r) => {
  const url = r.url.replace(/:[^/]+/g, 'abc');
  if (!g.prefix) return [url];
  return r.prefixOnly ? [g.prefix + url] : [url, g.prefix + url];
})))];
const UNRESERVED = /[A-Za-z0-9._~-]/;
const variant = fc.record({
  path: fc.constantFrom(...PATHS),
  encode: fc.array(fc.boolean(), { minLength: 64, maxLength: 64 }),
  doubled: fc.array(fc.boolean(), { minLength: 16, maxLength: 16 }),
  trailing: fc.boolean(),
  lowerHex: fc.boolean(),
}).map(({ path, encode, doubled, trailing, lowerHex }) => {
  let slash = 0;
  const target = [...path].map((ch, i) => {
    if (ch === '/') return doubled[slash++ % 16] ? '//' : '/';
    if (!encode[i % 64] || !UNRESERVED.test(ch)) return ch;
    const hex = ch.charCodeAt(0).toString(16).padStart(2, '0');
    return `%${lowerHex ? hex : hex.toUpperCase()}`;
  }).join('') + (trailing && !path.endsWith('/') ? '/' : '');
  return { path, target };
});
const REFUSED_METHODS = ['DELETE', 'PUT', 'PATCH', 'POST', 'GET'] as const;

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp({ headersTimeout: 500, requestTimeout: 1000, keepAliveTimeout: 200 });
});
afterAll(async () => t.close());

describe('refusals of a target the router reads as a known path (property)', () => {
  it('answer a method the path does not take exactly as for the plain path: 405, the same Allow, the same body', async () => {
    let compared = 0;
    await fc.assert(
      fc.asyncProperty(variant, fc.constantFrom(...REFUSED_METHODS), async ({ path, target }, method) => {
        const plain = await t.app.inject({ method, url: path });
        // Only refusals: a method the path takes may do work (and answer by time or state).
        if (plain.statusCode !== 405) return;
        compared++;
        const read = await t.app.inject({ method, url: target });
        expect(read.statusCode, `${method} ${target}`).toBe(405);
        expect(read.headers.allow, `${method} ${target}`).toBe(plain.headers.allow);
        expect(read.body, `${method} ${target}`).toBe(plain.body);
      }),
      { numRuns: 300 },
    );
    expect(compared).toBeGreaterThan(50);
  });
});

describe('absolute-form targets', () => {
  it('are served as their origin form, refusals included', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = portOf(t.app);
    const ask = async (line: string) => {
      const got = await exchange(port, `${line} HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`, { limitMs: 3000 });
      return parseResponses(got.bytes)[0];
    };
    for (const [line, origin] of [
      ['GET http://x/healthz', 'GET /healthz'],
      ['GET http://x/v1/tools/ab_test', 'GET /v1/tools/ab_test'],
      ['DELETE http://x/v1/funding/latest?a=1', 'DELETE /v1/funding/latest?a=1'],
      ['POST https://x:8443/healthz', 'POST /healthz'],
    ]) {
      const [viaAbsolute, viaOrigin] = [await ask(line), await ask(origin)];
      expect(viaAbsolute.status, line).toBe(viaOrigin.status);
      expect(viaAbsolute.headers.allow, line).toBe(viaOrigin.headers.allow);
      if (viaOrigin.status >= 400) expect(viaAbsolute.body.toString(), line).toBe(viaOrigin.body.toString());
    }
  });
});
