// The research kit's capture rules (upstream §8 items 60–68) against a real local HTTP
// server that answers each page as the test scripts it.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../../src/core/hash.js';
import { CaptureRefused, captureRequest, collect, KitUsageError, requestHeaders, type RawOptions } from '../../../src/data/kit/collect.js';
import { exportFiles } from '../../../src/data/kit/export.js';
import { httpGet } from '../../../src/data/kit/get.js';

type Json = Record<string, unknown>;
interface Answer { status?: number; type?: string; body: string | Buffer }

const SNAP = 'a'.repeat(32);
const HASH_A = `sha256:${'1'.repeat(64)}`;

function row(value: unknown, extra: Json = {}): Json {
  return { dataset: 'money_market_history', entity_id: 'US-USD', value, as_of: '2026-09-24', availability: value === null ? 'withheld' : 'published', ...extra };
}

function page(offset: number, limit: number, rows: Json[], total: number, extra: Json = {}): Json {
  const next = offset + limit < total ? offset + limit : null;
  return {
    schema: 'liquidity-lab.openbb-table.v1', dataset: 'money_market_history', description: 'd', results: rows.slice(offset, offset + limit),
    total_rows: total, returned_rows: rows.slice(offset, offset + limit).length, offset, limit, next_offset: next,
    transport_status: 'complete', status_semantics: 'transport_only', evidence_status: 'not_evaluated', carrier_verification: 'not_performed',
    absence_policy: 'p', diagnostics: [], sources: [{ source_url: 'https://source.test/atlas', content_sha256: HASH_A, retrieved_at: '2026-11-19T12:00:00Z', cache: { hit: false, age_seconds: 0, ttl_seconds: 60 } }],
    snapshot_id: SNAP, snapshot_retrieved_at: '2026-11-19T12:00:00Z', ...extra,
  };
}

const json = (body: unknown): Answer => ({ body: JSON.stringify(body) });
const ROWS = [row(0), row(null), row(-1)];

describe('research kit capture', () => {
  let server: http.Server;
  let base: string;
  let seen: { url: URL; headers: http.IncomingHttpHeaders }[];
  let answer: (url: URL, n: number) => Answer;

  beforeEach(async () => {
    seen = [];
    answer = (url) => {
      const offset = Number(url.searchParams.get('offset'));
      const limit = Number(url.searchParams.get('limit'));
      return json(page(offset, limit, ROWS, ROWS.length));
    };
    server = http.createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      seen.push({ url, headers: req.headers });
      const a = answer(url, seen.length);
      res.writeHead(a.status ?? 200, { 'content-type': a.type ?? 'application/json' }).end(a.body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterEach(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const run = (options: RawOptions = {}) => {
    const request = captureRequest({ base, dataset: 'money_market_history', pageSize: '2', synthetic: true, ...options });
    return collect(request, httpGet(5000), requestHeaders(request, 'test'));
  };
  const refusal = async (options: RawOptions = {}) => {
    const error = await run(options).then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(CaptureRefused);
    return error as CaptureRefused;
  };

  it('reads two pages of two into [0, null, -1], pins the snapshot and sends the synthetic header', async () => {
    const capture = await run();
    expect(capture.rows.map((r) => r.value)).toEqual([0, null, -1]);
    expect(capture.rows[1]).toMatchObject({ availability: 'withheld', as_of: '2026-09-24' });
    expect(seen.map((s) => s.url.searchParams.get('offset'))).toEqual(['0', '2']);
    expect(seen[0].url.searchParams.get('snapshot')).toBeNull();
    expect(seen[1].url.searchParams.get('snapshot')).toBe(SNAP);
    expect(seen.every((s) => s.headers['x-traffic-class'] === 'synthetic')).toBe(true);
    expect(capture.snapshotId).toBe(SNAP);
  });

  it.each([
    ['a changed source hash', (p: Json) => ({ ...p, sources: [{ source_url: 'https://source.test/atlas', content_sha256: `sha256:${'2'.repeat(64)}` }] })],
    ['a changed total', (p: Json) => ({ ...p, total_rows: 4 })],
    ['another snapshot id', (p: Json) => ({ ...p, snapshot_id: 'b'.repeat(32) })],
  ])('%s on the second page refuses: snapshot changed', async (_name, change) => {
    answer = (url, n) => {
      const p = page(Number(url.searchParams.get('offset')), 2, ROWS, 3);
      return json(n === 1 ? p : change(p));
    };
    expect((await refusal()).reason).toBe('snapshot_changed');
  });

  it('an older server that names no snapshot and changes its source between pages is refused', async () => {
    answer = (url, n) => {
      const { snapshot_id: _s, snapshot_retrieved_at: _r, ...p } = page(Number(url.searchParams.get('offset')), 2, ROWS, 3);
      return json(n === 1 ? p : { ...p, sources: [{ source_url: 'https://source.test/atlas', content_sha256: `sha256:${'3'.repeat(64)}` }] });
    };
    expect((await refusal()).reason).toBe('snapshot_changed');
    expect(seen[1].url.searchParams.get('snapshot')).toBeNull();
  });

  it.each([
    ['a missing last page', (p: Json, n: number): Answer => (n === 2 ? { status: 404, body: '{}' } : json(p)), 'http_status'],
    ['next_offset 0', (p: Json): Answer => json({ ...p, next_offset: 0 }), 'no_progress'],
    ['next_offset 1', (p: Json): Answer => json({ ...p, next_offset: 1 }), 'no_progress'],
    ['a wrong offset echo', (p: Json): Answer => json({ ...p, offset: 5 }), 'invalid_page'],
    ['a negative total', (p: Json): Answer => json({ ...p, total_rows: -1 }), 'invalid_page'],
    ['partial transport', (p: Json): Answer => json({ ...p, transport_status: 'partial' }), 'transport_incomplete'],
    ['evidence approved', (p: Json): Answer => json({ ...p, evidence_status: 'approved' }), 'invalid_page'],
    ['carrier verified', (p: Json): Answer => json({ ...p, carrier_verification: 'verified' }), 'invalid_page'],
    ['another schema', (p: Json): Answer => json({ ...p, schema: 'other.v1' }), 'invalid_page'],
    ['empty sources', (p: Json): Answer => json({ ...p, sources: [] }), 'invalid_page'],
    ['null sources', (p: Json): Answer => json({ ...p, sources: null }), 'invalid_page'],
    ['another dataset', (p: Json): Answer => json({ ...p, dataset: 'bank_risk' }), 'invalid_page'],
    ['offset false', (p: Json): Answer => json({ ...p, offset: false }), 'invalid_page'],
    ['returned_rows 99', (p: Json): Answer => json({ ...p, returned_rows: 99 }), 'invalid_page'],
    ['an HTML challenge', (): Answer => ({ type: 'text/html', body: '<html>check</html>' }), 'content_type'],
    ['a body over 4 MiB', (p: Json): Answer => json({ ...p, padding: 'x'.repeat(4 * 1024 * 1024) }), 'too_large'],
    ['NaN', (): Answer => ({ body: '{"total_rows": NaN}' }), 'invalid_json'],
    ['1e999', (): Answer => ({ body: '{"total_rows": 1e999}' }), 'invalid_json'],
    ['a redirect', (): Answer => ({ status: 302, body: '' }), 'redirect'],
  ])('%s is refused', async (_name, make, reason) => {
    answer = (url, n) => make(page(Number(url.searchParams.get('offset')), 2, ROWS, 3), n);
    expect((await refusal()).reason).toBe(reason);
  });

  it('more pages than max-pages is refused with a message naming it', async () => {
    const error = await refusal({ maxPages: '1' });
    expect(error.reason).toBe('max_pages');
    expect(error.message).toMatch(/--max-pages/);
  });

  it.each([
    { dataset: 'nope' }, { pageSize: '0' }, { pageSize: '2001' }, { maxPages: '21' }, { entity: 'x'.repeat(101) },
    { startDate: '2026-02-30' }, { startDate: '20260901' }, { startDate: '2026-09-02', endDate: '2026-09-01' }, { base: '/relative' },
  ])('invalid input %j fails before any request', (options) => {
    expect(() => captureRequest({ base, dataset: 'money_market_history', ...options })).toThrow(KitUsageError);
    expect(seen).toEqual([]);
  });

  it('an empty table is an empty capture (no zero fill)', async () => {
    answer = (url) => json(page(Number(url.searchParams.get('offset')), 2, [], 0));
    const capture = await run();
    expect(capture.rows).toEqual([]);
  });

  it('takes pages whose sources report an integer no double holds, and writes it back as its digits, as the server and Python do', async () => {
    const huge = '1' + '0'.repeat(400);
    answer = (url) => {
      const p = page(Number(url.searchParams.get('offset')), 2, ROWS, 3);
      (p.sources as Json[])[0].source_reported = { state: [{ name: 'count', value: '__HUGE__' }], clocks: 'not_reported' };
      return { body: JSON.stringify(p).replace('"__HUGE__"', huge) };
    };
    const request = captureRequest({ base, dataset: 'money_market_history', pageSize: '2' });
    const files = exportFiles(request, await collect(request, httpGet(5000), requestHeaders(request, 'test')));
    expect(files['evidence.json']).toContain(`"value": ${huge}`);
    expect(files['evidence.json']).not.toContain(`"${huge}"`);
  });

  it('export: JSON keeps the original text, CSV escapes formulas, keeps -2, blanks nulls; the receipt hashes the files', async () => {
    const rows = [row(-2, { context: '=untrusted source' }), row(null, { context: '  @SUM(A1)' }), row(1.5, { context: 'plain, "quoted"' })];
    answer = (url) => json(page(Number(url.searchParams.get('offset')), 2, rows, 3));
    const request = captureRequest({ base, dataset: 'money_market_history', pageSize: '2' });
    const capture = await collect(request, httpGet(5000), requestHeaders(request, 'test'));
    const files = exportFiles(request, capture);
    const evidence = JSON.parse(files['evidence.json']) as { results: Json[]; pages: Json[] };
    expect(evidence.results[0].context).toBe('=untrusted source');
    expect(evidence.pages).toHaveLength(2);
    expect(evidence.pages[0].results).toBeUndefined();
    const lines = files['rows.csv'].split('\r\n');
    expect(lines[0]).toBe('as_of,availability,context,dataset,entity_id,value');
    expect(lines[1]).toBe("2026-09-24,published,'=untrusted source,money_market_history,US-USD,-2");
    expect(lines[2]).toBe("2026-09-24,withheld,'  @SUM(A1),money_market_history,US-USD,");
    expect(lines[3]).toBe('2026-09-24,published,"plain, ""quoted""",money_market_history,US-USD,1.5');
    const receipt = JSON.parse(files['receipt.json']) as Json;
    expect(receipt).toMatchObject({
      dataset: 'money_market_history', row_count: 3, pages_read: 2, snapshot_id: SNAP, captured_at: '2026-11-19T12:00:00Z',
      csv_policy: 'nulls_empty_formula_strings_escaped_original_values_in_json', external_user_or_payment_verified: false,
      sha256: { 'evidence.json': sha256Hex(files['evidence.json']), 'rows.csv': sha256Hex(files['rows.csv']) },
    });
    expect(Object.keys(receipt)).toEqual([...Object.keys(receipt)].sort());
    // Pages of a live service carry no sample label, so neither do the files.
    expect(receipt.sample).toBeUndefined();
    expect((evidence as Json).sample).toBeUndefined();
  });

  it('export: a capture from a sample-mode service says so in every file', async () => {
    const rows = [row(-2), row(1.5)];
    answer = (url) => json({ ...page(Number(url.searchParams.get('offset')), 2, rows, 2), sample: true });
    const request = captureRequest({ base, dataset: 'money_market_history', pageSize: '2' });
    const files = exportFiles(request, await collect(request, httpGet(5000), requestHeaders(request, 'test')));
    expect(JSON.parse(files['evidence.json'])).toMatchObject({ sample: true });
    expect(JSON.parse(files['receipt.json'])).toMatchObject({ sample: true });
    const lines = files['rows.csv'].split('\r\n');
    expect(lines[0]).toBe('as_of,availability,dataset,entity_id,sample,value');
    expect(lines.slice(1, 3).map((l) => l.split(',')[4])).toEqual(['true', 'true']);
  });
});
