import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { captureOnce } from '../../src/funding/capture.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { liveConfig, testClock } from '../funding/support.js';

// Property test over the funding, packet and application routes: whatever the method,
// path segments, query, conditional and credential headers or body, the answer is never
// a 500 and every error carries a machine-readable `code`. The store holds a real
// (sample) packet, so the read paths get past their "nothing captured yet" answers.

let t: TestApp;
let packetId: string;
beforeAll(async () => {
  const clock = testClock('2026-11-20T15:30:00Z');
  const offline = liveConfig('http://127.0.0.1:9', { mode: 'sample' });
  t = await makeTestApp({ mode: 'sample', publisherBases: offline.publisherBases, maxEventLoopDelay: 0 }, { clock });
  const result = await captureOnce({ storage: t.storage, config: offline, clock });
  if (!result.ran || result.attempt.packet_id === null) throw new Error('sample capture did not create a packet');
  packetId = result.attempt.packet_id;
});
afterAll(async () => t.close());

// Strings that stress parsers: empty, long, encoded, unicode, separators and look-alikes.
const junk = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ maxLength: 4, unit: 'binary' }),
  fc.constantFrom('', '0', '-1', '97', '96', '1e3', '0x10', ' 5', '%00', '%ff', '%E2%82%AC', '..', '/', '?', '&', '=', '#', '"', '*', 'W/"x"'),
  fc.constantFrom('2026-11-18', '2026-02-30', '2026-11-18T00:00:00Z', '9999-12-31', '0000-01-01', '2026-11-1'),
  fc.integer().map(String),
  fc.integer({ min: -2, max: 100 }).map(String),
  fc.nat(3000).map((n) => 'a'.repeat(n)),
);
const encoded = junk.map((s) => encodeURIComponent(s));
const query = fc
  .array(fc.tuple(fc.constantFrom('since', 'until', 'before', 'limit', 'as_of', 'format', 'token', 'key', 'x'), encoded), { maxLength: 4 })
  .map((pairs) => (pairs.length === 0 ? '' : '?' + pairs.map(([k, v]) => `${k}=${v}`).join('&')));
const path = fc.oneof(
  fc.constantFrom('/v1/funding/latest', '/v1/funding/changes', '/v1/funding/history', '/v1/applications', '/v1/applications/current'),
  fc.tuple(fc.oneof(fc.constant('PACKET'), encoded), fc.constantFrom('manifest.json', 'review.json', 'observations.csv', 'other.txt', ''))
    .map(([id, file]) => `/packets/${id}/${file}`),
  fc.tuple(fc.constantFrom('', '/funding-evidence'), fc.constantFrom('/v1/funding/latest', '/v1/funding/history')).map(([p, r]) => p + r),
);
const headers = fc.record(
  {
    'if-none-match': fc.oneof(junk, fc.constant('*'), fc.constant('"a", W/"b"')),
    authorization: fc.oneof(junk, junk.map((s) => `Bearer ${s}`), fc.constant('Bearer fe_' + 'A'.repeat(43))),
    origin: fc.oneof(junk, fc.constantFrom('https://example.org', 'null')),
    'content-type': fc.constantFrom('application/json', 'text/plain', 'application/json; charset=utf-8', 'multipart/form-data'),
  },
  { requiredKeys: [] },
);
const body = fc.oneof(
  fc.constant(undefined),
  fc.constantFrom('{"measurement_consent": true}', '{"measurement_consent": false}', '{}', '[]', 'null', '{"a":1,"a":2}', '{', ''),
  junk,
);

describe('funding and application routes under arbitrary input', () => {
  it('never answer 500, and every error body names a code (property)', async () => {
    const seen = new Set<number>();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('GET', 'HEAD', 'POST', 'DELETE', 'PUT', 'OPTIONS'), path, query, headers, body, async (method, p, q, h, payload) => {
        const url = p.replace('PACKET', packetId) + q;
        const res = await t.app.inject({ method: method as 'GET', url, headers: h as Record<string, string>, payload });
        // 503 is an honest answer (evidence unavailable, store down, overloaded); 500 never is.
        expect(res.statusCode === 503 || res.statusCode < 500, `${method} ${url} -> ${res.statusCode}`).toBe(true);
        seen.add(res.statusCode);
        if (res.statusCode >= 400 && method !== 'HEAD') {
          const parsed = JSON.parse(res.body) as { code?: unknown };
          expect(typeof parsed.code, `${method} ${url} -> ${res.statusCode} ${res.body.slice(0, 200)}`).toBe('string');
        }
      }),
      {
        numRuns: 400,
        // Random headers rarely line up with a current ETag: two fixed runs make sure every
        // execution also reaches a success and a conditional answer past the guards.
        examples: [
          ['GET', '/v1/funding/latest', '', {}, undefined],
          ['GET', '/v1/funding/latest', '', { 'if-none-match': '*' }, undefined],
        ],
      },
    );
    // The runs reached past the guards: successes and conditional answers, not only errors.
    console.log([...seen].sort());
    expect([...seen].filter((s) => s < 400).length).toBeGreaterThan(1);
  });
});
