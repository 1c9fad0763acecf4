// The funding review and its CSV, composed from real captures in a test store (live mode,
// a local publisher server replaying recorded documents): fresh, stale, a failed newest
// attempt (no fallback), a tampered artifact, a clock in the future, an empty archive.
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/core/hash.js';
import { METRIC_IDS } from '../../src/funding/publishers/types.js';
import { useFundingHarness } from '../funding/harness.js';

const REVIEW = '/api/v1/funding-review';
const CSV = '/api/v1/funding-review.csv';

interface Review {
  available: boolean;
  ready: boolean;
  stale: boolean | null;
  capture_id: string | null;
  age_seconds: number | null;
  review_scope: string;
  review_asof: string | null;
  latest_per_instrument: boolean | null;
  data_readiness: string;
  issues: { code: string; subject: string }[];
  results: { metric_id: string; review_status: string; value: number | null }[];
  manifest_sha256: string | null;
  input_sha256: Record<string, string>;
  source_urls: Record<string, string>;
  release_identity: string;
  runtime_release: { release_id: string };
  latest_attempt: { outcome: string } | null;
}

describe('funding review from our own archive', () => {
  const h = useFundingHarness();
  const review = async () => {
    const res = await h.get(REVIEW);
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toMatch(/\/tmp\/|\.db\b|sqlite|Error:/i);
    return res.json<Review>();
  };

  it('an empty archive is not available, says evidence_not_captured, and the CSV is a 503 with Retry-After', async () => {
    const body = await review();
    expect(body).toMatchObject({ available: false, ready: false, stale: null, capture_id: null, results: [], review_scope: 'unknown', data_readiness: 'not_evaluated' });
    expect(body.issues).toEqual([{ code: 'evidence_not_captured', subject: 'funding_review' }]);
    const csv = await h.get(CSV);
    expect(csv.statusCode).toBe(503);
    expect(csv.headers['retry-after']).toMatch(/^[0-9]+$/);
    expect(csv.json()).toMatchObject({ status: 'capture_unavailable_or_stale', review: REVIEW, code: 'evidence_not_captured' });
  });

  it('a fresh verified capture is ready: nine rows in the fixed order, our packet id, publisher hashes and URLs, and the CSV is the packet\'s bytes', async () => {
    const attempt = await h.captured();
    const body = await review();
    expect(body).toMatchObject({ available: true, ready: true, stale: false, review_scope: 'common_sofr_iorb_horizon', latest_per_instrument: false, issues: [] });
    expect(body.capture_id).toBe(attempt.packet_id);
    expect(body.results.map((r) => r.metric_id)).toEqual([...METRIC_IDS]);
    expect(body.results.every((r) => r.review_status === body.data_readiness)).toBe(true);
    const row = await h.storage.db.selectFrom('funding_packets').selectAll().executeTakeFirstOrThrow();
    expect(body.manifest_sha256).toBe(sha256Hex(Buffer.from(row.manifest)));
    expect(Object.keys(body.input_sha256).sort()).toEqual(Object.keys(body.source_urls).sort());
    for (const url of Object.values(body.source_urls)) expect(url.startsWith(h.server.base)).toBe(true);
    expect(body.release_identity).toBe('not_requested');
    expect(body.runtime_release.release_id).toBe('unversioned-local');

    const csv = await h.get(CSV);
    expect(csv.statusCode).toBe(200);
    expect(Buffer.from(csv.rawPayload).equals(Buffer.from(row.csv))).toBe(true);
    // Each row's members come in the documented column order, the CSV's header (§3.5).
    const header = Buffer.from(row.csv).toString('utf8').split(/\r?\n/)[0].split(',');
    for (const r of body.results) expect(Object.keys(r)).toEqual(header);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.headers['cache-control']).toBe('no-store');
    expect(csv.headers['content-disposition']).toBe('attachment; filename="funding-observations.csv"');
    expect(csv.headers['x-financial-evidence-capture']).toBe(attempt.packet_id);
    expect(csv.headers['x-funding-review-as-of']).toBe(body.review_asof);
    expect(csv.headers['x-funding-review-scope']).toBe('common_sofr_iorb_horizon');
    expect(csv.headers.etag).toBe(`"${sha256Hex(Buffer.from(row.csv))}"`);
    const again = await h.get(CSV, { 'if-none-match': csv.headers.etag as string });
    expect(again.statusCode).toBe(304);
    const reviewTag = (await h.get(REVIEW)).headers.etag as string;
    expect((await h.get(REVIEW, { 'if-none-match': reviewTag })).statusCode).toBe(304);
  });

  it('past the freshness limit the review is stale: rows stale_capture, no CSV', async () => {
    await h.captured();
    h.clock.advance(h.config.freshnessLimit + 60);
    const body = await review();
    expect(body).toMatchObject({ available: true, ready: false, stale: true });
    expect(body.issues.map((i) => i.code)).toEqual(['evidence_stale']);
    expect(body.results).toHaveLength(9);
    expect(body.results.every((r) => r.review_status === 'stale_capture')).toBe(true);
    const csv = await h.get(CSV);
    expect(csv.statusCode).toBe(503);
    expect(csv.json().code).toBe('evidence_stale');
  });

  it('a capture dated more than 300 s in the future is stale too', async () => {
    await h.captured();
    h.clock.advance(-400);
    const body = await review();
    expect(body).toMatchObject({ available: true, ready: false, stale: true });
    expect(body.issues).toEqual([{ code: 'evidence_clock_invalid', subject: 'capture' }]);
    expect(body.results.every((r) => r.review_status === 'stale_capture')).toBe(true);
    expect((await h.get(CSV)).statusCode).toBe(503);
  });

  it('a failed newest attempt shows no rows and never falls back to the earlier good packet', async () => {
    const good = await h.captured();
    h.clock.advance(60);
    h.server.documents.sofr = { status: 500, body: 'down' };
    const failed = await h.captured();
    expect(failed.outcome).toBe('failed');
    const body = await review();
    expect(body).toMatchObject({ available: false, ready: false, results: [], capture_id: null });
    expect(body.latest_attempt?.outcome).toBe('failed');
    expect(body.issues[0]).toEqual({ code: 'latest_attempt_failed', subject: 'capture' });
    expect(JSON.stringify(body)).not.toContain(good.packet_id!);
    expect(JSON.stringify(body)).not.toContain('down');
    const csv = await h.get(CSV);
    expect(csv.statusCode).toBe(503);
    expect(csv.json().code).toBe('latest_attempt_failed');
  });

  it.each(['csv', 'review', 'manifest'] as const)('a tampered stored %s makes the review unavailable with no rows (unverified bytes are never shown) and the CSV a 503', async (column) => {
    await h.captured();
    const row = await h.storage.db.selectFrom('funding_packets').selectAll().executeTakeFirstOrThrow();
    const bytes = Buffer.from(row[column]);
    const at = bytes.indexOf('0.576') + 4;
    bytes[at] = bytes[at] === 0x36 ? 0x37 : 0x36;
    await h.storage.db.updateTable('funding_packets').set({ [column]: bytes }).execute();
    const body = await review();
    expect(body).toMatchObject({ available: false, ready: false, results: [] });
    expect(body.issues).toEqual([{ code: 'artifact_verification_failed', subject: 'packet' }]);
    const csv = await h.get(CSV);
    expect(csv.statusCode).toBe(503);
    expect(csv.json().code).toBe('artifact_verification_failed');
  });
});
