// A complete, source-consistent capture of one dataset over the HTTP API (upstream §7),
// as the research kit does it. The first page names the snapshot it was read from; every
// further page asks for that snapshot, so all pages come from the same source bytes. Each
// page is checked before it counts (shape, constants, echoes, progress), and the sources
// and total must be the same on every page — which also catches a server that ignores
// `snapshot`. Any failed check refuses the whole capture: there is no partial export.
//
// The Python script in the kit (research-kit/research_kit.py) implements the same rules
// and writes the same bytes; a test runs both against one server.

import { parseStrictJson } from '../../core/json.js';
import { codePointLength } from '../../core/strings.js';
import { parseIsoDate } from '../../core/time.js';
import { DATASET_IDS, isDatasetId } from '../datasets.js';

export const TABLE_SCHEMA = 'liquidity-lab.openbb-table.v1';
export const MAX_PAGE_BYTES = 4 * 1024 * 1024;
export const PAGE_SIZE = { default: 200, min: 1, max: 2000 } as const;
export const MAX_PAGES = { default: 10, min: 1, max: 20 } as const;
export const MAX_ENTITY = 100;
/** The desk: the three datasets of the agent review, captured together. */
export const DESK_DATASETS = ['money_markets', 'bank_risk', 'market_liquidity'] as const;

/** Could not run (bad input, unreachable server, output in the way): exit 2. */
export class KitUsageError extends Error {
  constructor(readonly reason: string, message: string) {
    super(message);
    this.name = 'KitUsageError';
  }
}

/** The server answered, but what it answered cannot make a complete capture: exit 1. */
export class CaptureRefused extends Error {
  constructor(readonly reason: string, message: string) {
    super(message);
    this.name = 'CaptureRefused';
  }
}

export interface CaptureRequest {
  base: string;
  dataset: string;
  entity: string;
  startDate: string;
  endDate: string;
  pageSize: number;
  maxPages: number;
  synthetic: boolean;
  /** Pin from the first page on (re-capture a cited snapshot). */
  snapshot: string | null;
}

export interface HttpAnswer {
  status: number;
  contentType: string | null;
  body: Uint8Array;
}

/** One GET; resolves to what the server answered, rejects with KitUsageError when it could not be reached. */
export type GetPage = (url: string, headers: Record<string, string>) => Promise<HttpAnswer>;

type Json = Record<string, unknown>;

export interface Capture {
  dataset: string;
  snapshotId: string | null;
  /** The snapshot's retrieval instant (the server's), or null from a server that does not name one. */
  snapshotRetrievedAt: string | null;
  rows: Json[];
  /** Every page as received, results included (the export drops them from the envelopes). */
  pages: Json[];
}

export interface Progress {
  (event: { dataset: string; page: number; rows: number; total: number }): void;
}

const DATE = /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/;
const SNAPSHOT = /^[0-9a-f]{32}$/;
const HASH = /^(?:sha256:)?([0-9a-f]{64})$/;

function intInRange(text: string | undefined, name: string, bounds: { default: number; min: number; max: number }): number {
  if (text === undefined) return bounds.default;
  if (!/^[0-9]+$/.test(text) || Number(text) < bounds.min || Number(text) > bounds.max) {
    throw new KitUsageError('invalid_input', `${name} must be a whole number from ${bounds.min} to ${bounds.max}`);
  }
  return Number(text);
}

/** The base URL without trailing slashes; absolute http(s), no query, fragment or credentials. */
export function checkBase(base: string): string {
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    throw new KitUsageError('invalid_input', '--base must be an absolute http or https URL');
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '' || !/^https?:\/\//i.test(base)) {
    throw new KitUsageError('invalid_input', '--base must be an absolute http or https URL without query, fragment or credentials');
  }
  return base.replace(/\/+$/, '');
}

export interface RawOptions {
  base?: string;
  dataset?: string;
  entity?: string;
  startDate?: string;
  endDate?: string;
  pageSize?: string;
  maxPages?: string;
  synthetic?: boolean;
  snapshot?: string;
}

/** Checks the options before anything is requested. */
export function captureRequest(raw: RawOptions, datasetOverride?: string): CaptureRequest {
  const dataset = datasetOverride ?? raw.dataset;
  if (dataset === undefined || !isDatasetId(dataset)) {
    throw new KitUsageError('invalid_input', `--dataset must be one of ${DATASET_IDS.join(', ')}`);
  }
  const entity = raw.entity ?? '';
  if (codePointLength(entity) > MAX_ENTITY) throw new KitUsageError('invalid_input', `--entity must be at most ${MAX_ENTITY} characters`);
  const dates = [raw.startDate ?? '', raw.endDate ?? ''];
  for (const [i, d] of dates.entries()) {
    if (d !== '' && (!DATE.test(d) || parseIsoDate(d) === null)) {
      throw new KitUsageError('invalid_input', `${i === 0 ? '--start-date' : '--end-date'} must be a calendar date written YYYY-MM-DD`);
    }
  }
  if (dates[0] !== '' && dates[1] !== '' && dates[0] > dates[1]) throw new KitUsageError('invalid_input', '--start-date must not be after --end-date');
  const snapshot = raw.snapshot ?? '';
  if (snapshot !== '' && !SNAPSHOT.test(snapshot)) throw new KitUsageError('invalid_input', '--snapshot must be a snapshot id (32 lowercase hexadecimal characters)');
  return {
    base: checkBase(raw.base ?? ''),
    dataset,
    entity,
    startDate: dates[0],
    endDate: dates[1],
    pageSize: intInRange(raw.pageSize, '--page-size', PAGE_SIZE),
    maxPages: intInRange(raw.maxPages, '--max-pages', MAX_PAGES),
    synthetic: raw.synthetic === true,
    snapshot: snapshot === '' ? null : snapshot,
  };
}

/** The query string of one page, parameters in a fixed order. */
export function pageUrl(request: CaptureRequest, offset: number, snapshot: string | null): string {
  const params = new URLSearchParams();
  params.set('dataset', request.dataset);
  if (request.entity !== '') params.set('entity', request.entity);
  if (request.startDate !== '') params.set('start_date', request.startDate);
  if (request.endDate !== '') params.set('end_date', request.endDate);
  params.set('limit', String(request.pageSize));
  params.set('offset', String(offset));
  if (snapshot !== null) params.set('snapshot', snapshot);
  return `${request.base}/api/v1/query?${params.toString()}`;
}

export function requestHeaders(request: CaptureRequest, userAgent: string): Record<string, string> {
  const headers: Record<string, string> = { accept: 'application/json', 'user-agent': userAgent };
  // Self-declared test or operator traffic is left out of usage measurement.
  if (request.synthetic) headers['x-traffic-class'] = 'synthetic';
  return headers;
}

const refuse = (reason: string, message: string) => new CaptureRefused(reason, message);

const isInt = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value);
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Decodes one answer into a page object, or refuses. */
export function readPage(answer: HttpAnswer): Json {
  if (answer.status >= 300 && answer.status < 400) throw refuse('redirect', `the server answered ${answer.status} (a redirect); redirects are not followed`);
  if (answer.status !== 200) throw refuse('http_status', `the server answered HTTP ${answer.status}${errorCode(answer)}`);
  const mediaType = (answer.contentType ?? '').split(';')[0].trim().toLowerCase();
  if (mediaType !== 'application/json') throw refuse('content_type', `the server sent ${mediaType === '' ? 'no media type' : mediaType}, not application/json`);
  if (answer.body.byteLength > MAX_PAGE_BYTES) throw refuse('too_large', `a page is larger than ${MAX_PAGE_BYTES} bytes`);
  let page: unknown;
  try {
    // A source's integer beyond a double's range is written as its digits (as Python writes
    // an int); it is read back as those digits and written again the same way.
    page = parseStrictJson(answer.body, { hugeIntegers: true });
  } catch {
    throw refuse('invalid_json', 'a page is not strict JSON (non-finite numbers, duplicate keys or bad syntax)');
  }
  if (!isObject(page)) throw refuse('invalid_page', 'a page is not a JSON object');
  return page;
}

function errorCode(answer: HttpAnswer): string {
  try {
    const body = parseStrictJson(answer.body);
    if (isObject(body) && typeof body.code === 'string' && /^[a-z0-9_]{1,64}$/.test(body.code)) return ` (${body.code})`;
  } catch {
    // Not a JSON error body: the status says enough.
  }
  return '';
}

/** Source URLs this kit accepts: https; http on this machine; the bundled documents of a sample-mode server. */
function acceptableSourceUrl(url: unknown, sample: boolean): boolean {
  if (typeof url !== 'string' || url === '') return false;
  if (url.startsWith('https://')) return true;
  if (sample && url.startsWith('sample:')) return true;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(parsed.hostname);
  } catch {
    return false;
  }
}

/** Sorted `url hash` lines of a page's sources: what must not change between pages. */
function sourceSet(page: Json): string[] {
  const sources = page.sources;
  if (!Array.isArray(sources) || sources.length === 0) throw refuse('invalid_page', 'a page lists no sources');
  const sample = page.sample === true;
  return sources.map((s) => {
    if (!isObject(s) || !acceptableSourceUrl(s.source_url, sample)) throw refuse('invalid_page', 'a page lists a source without an acceptable source_url');
    const hash = typeof s.content_sha256 === 'string' ? HASH.exec(s.content_sha256) : null;
    if (!hash) throw refuse('invalid_page', `source ${String(s.source_url)} has no content hash`);
    return `${String(s.source_url)} ${hash[1]}`;
  }).sort();
}

function checkPage(page: Json, request: CaptureRequest, offset: number): void {
  if (page.schema !== TABLE_SCHEMA) throw refuse('invalid_page', `a page's schema is not ${TABLE_SCHEMA}`);
  if (page.dataset !== request.dataset) throw refuse('invalid_page', 'a page is for another dataset');
  if (page.transport_status !== 'complete') {
    throw refuse('transport_incomplete', `transport_status is ${JSON.stringify(page.transport_status)}, not complete: some source could not be retrieved (inspect /api/v1/sources)`);
  }
  if (page.evidence_status !== 'not_evaluated' || page.carrier_verification !== 'not_performed') {
    throw refuse('invalid_page', 'a page claims an evidence or carrier status this kit does not accept');
  }
  for (const name of ['offset', 'limit', 'returned_rows', 'total_rows']) {
    if (!isInt(page[name])) throw refuse('invalid_page', `${name} is not an integer`);
  }
  if (page.offset !== offset || page.limit !== request.pageSize) throw refuse('invalid_page', 'a page does not echo the offset and limit asked for');
  if (!Object.hasOwn(page, 'next_offset')) throw refuse('invalid_page', 'a page has no next_offset');
  if (page.next_offset !== null && !isInt(page.next_offset)) throw refuse('invalid_page', 'next_offset is neither null nor an integer');
  if ((page.total_rows as number) < 0) throw refuse('invalid_page', 'total_rows is negative');
  const results = page.results;
  if (!Array.isArray(results)) throw refuse('invalid_page', 'results is not a list');
  if (page.returned_rows !== results.length || results.length > request.pageSize) throw refuse('invalid_page', 'returned_rows does not count the rows sent');
  for (const row of results) {
    if (!isObject(row) || row.dataset !== request.dataset) throw refuse('invalid_page', 'a row belongs to another dataset');
  }
}

/** Reads every page of one dataset from one snapshot; throws CaptureRefused or KitUsageError. */
export async function collect(request: CaptureRequest, get: GetPage, headers: Record<string, string>, progress?: Progress): Promise<Capture> {
  const rows: Json[] = [];
  const pages: Json[] = [];
  let pinned = request.snapshot;
  let first: { sources: string; total: number } | null = null;
  let retrievedAt: string | null = null;
  for (let offset = 0; ;) {
    if (pages.length >= request.maxPages) {
      throw refuse('max_pages', `the table needs more than ${request.maxPages} pages of ${request.pageSize} rows; raise --max-pages or --page-size, or narrow the request`);
    }
    const page = readPage(await get(pageUrl(request, offset, pinned), headers));
    checkPage(page, request, offset);
    const sources = sourceSet(page).join('\n');
    const snapshotId = page.snapshot_id;
    if (snapshotId !== undefined && (typeof snapshotId !== 'string' || !SNAPSHOT.test(snapshotId))) throw refuse('invalid_page', 'snapshot_id is malformed');
    if (first === null) {
      if (pinned !== null && snapshotId !== pinned) throw refuse('snapshot_changed', 'the server did not answer from the snapshot asked for');
      pinned = typeof snapshotId === 'string' ? snapshotId : null;
      retrievedAt = typeof page.snapshot_retrieved_at === 'string' ? page.snapshot_retrieved_at : null;
      first = { sources, total: page.total_rows as number };
    } else if (sources !== first.sources || page.total_rows !== first.total || (pinned !== null && snapshotId !== undefined && snapshotId !== pinned)) {
      throw refuse('snapshot_changed', 'the sources changed between pages (another snapshot answered); start the capture again');
    }
    pages.push(page);
    const batch = page.results as Json[];
    rows.push(...batch);
    const total = page.total_rows as number;
    progress?.({ dataset: request.dataset, page: pages.length, rows: rows.length, total });
    if (page.next_offset === null) {
      if (rows.length !== total) throw refuse('incomplete', `the last page came after ${rows.length} of ${total} rows`);
      break;
    }
    if (page.next_offset !== rows.length || page.next_offset >= total || batch.length === 0) {
      throw refuse('no_progress', 'next_offset does not continue right after the rows received');
    }
    offset = page.next_offset;
  }
  return { dataset: request.dataset, snapshotId: pinned, snapshotRetrievedAt: retrievedAt, rows, pages };
}
