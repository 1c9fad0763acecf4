// Answers that report ages as of the answer (the current snapshot's per-source cache ages,
// the funding review's age) change bytes with every request; they carry a weak ETag over
// everything else, so a client revalidates them to 304 while nothing but the ages moved
// (README §2: ETag and 304 on every GET), and gets 200 with a new tag once content moves.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/core/hash.js';
import { openFundingHarness, type FundingHarness } from '../funding/harness.js';

let h: FundingHarness;

beforeAll(async () => {
  h = await openFundingHarness({ mode: 'sample' });
  await h.captured();
});
afterAll(async () => {
  await h.close();
});

const LIVE = [
  '/api/v1/sources',
  '/api/v1/query?dataset=money_markets',
  '/api/v1/agent-query?dataset=bank_risk',
  '/api/v1/agent-review',
  '/api/v1/funding-review',
  '/openbb/api/v1/query?dataset=source_health&limit=3',
];

describe('answers with ages at answer time', () => {
  it.each(LIVE)('%s: a weak tag that stays while only ages move, 304 on revalidation, 200 with the same tag without it', async (url) => {
    const first = await h.get(url);
    expect(first.statusCode).toBe(200);
    const tag = String(first.headers.etag);
    expect(tag).toMatch(/^W\/"[0-9a-f]{64}"$/);
    // Within the 5 s a failed source is reused (the sample edition has one): only ages move.
    h.clock.advance(2.25);
    const again = await h.get(url);
    expect(again.statusCode).toBe(200);
    // The ages moved, so the bytes did; the tag did not.
    expect(again.body).not.toBe(first.body);
    expect(again.headers.etag).toBe(tag);
    for (const sent of [tag, tag.slice(2), `"nope", ${tag}`]) {
      h.clock.advance(0.5);
      const revalidated = await h.get(url, { 'if-none-match': sent });
      expect(revalidated.statusCode, sent).toBe(304);
      expect(revalidated.body).toBe('');
      expect(revalidated.headers.etag).toBe(tag);
    }
    const head = await h.app.inject({ method: 'HEAD', url });
    expect(head.headers.etag).toBe(tag);
  });

  it('gives the current query a new tag and a 200 once its content moves (a new capture of the sources)', async () => {
    const url = '/api/v1/query?dataset=money_markets';
    const before = await h.get(url);
    const tag = String(before.headers.etag);
    // Past the sample edition's rotation (600 s) and the source cache's 60 s: other documents.
    h.clock.advance(900);
    const after = await h.get(url, { 'if-none-match': tag });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(tag);
  });

  it('keeps strong tags over the exact bytes for answers that never change (a chosen snapshot, the CSV)', async () => {
    const current = await h.get('/api/v1/query?dataset=money_markets');
    const id = String(current.headers['x-evidence-snapshot']);
    for (const url of [`/api/v1/query?dataset=money_markets&snapshot=${id}`, '/api/v1/query?dataset=money_markets&format=csv', '/api/v1/release', '/api/v1/datasets']) {
      const res = await h.get(url);
      expect(res.headers.etag, url).toBe(`"${sha256Hex(res.rawPayload)}"`);
      expect((await h.get(url, { 'if-none-match': String(res.headers.etag) })).statusCode, url).toBe(304);
    }
  });
});
