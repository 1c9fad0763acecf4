// The files of one complete capture (upstream §7): evidence.json (the capture, sorted
// keys), rows.csv (a spreadsheet-safe view of the rows) and receipt.json (SHA-256 of both).
//
// Byte-reproducible for one snapshot: nothing here reads a clock. `captured_at` is the
// snapshot's retrieval instant (what the rows describe), and the per-copy cache ages of
// the page envelopes are left out (they say how old our transport copy was when a page
// was answered, not what the source said).
import { sha256Hex } from '../../core/hash.js';
import { encodeCanonicalDocument, encodePythonBody, isFloatToken, pyFloatRepr, rawIntegerOf } from '../../core/json.js';
import type { Capture, CaptureRequest } from './collect.js';

export const CAPTURE_SCHEMA = 'financial-evidence.research-capture.v1';
export const CSV_POLICY = 'nulls_empty_formula_strings_escaped_original_values_in_json';
export const HISTORY_SCOPE = 'currently_published_not_as_published_vintages';

type Json = Record<string, unknown>;

/**
 * JSON as Python's `json.dumps(value, indent=2, sort_keys=True)` writes it, plus a final
 * newline: number tokens keep their kind (`66.0` stays `66.0`), so the kit's Python script
 * writes the same bytes.
 */
export function sortedJson(value: unknown): string {
  return encodeCanonicalDocument(value);
}

// Python's sort of str keys compares code points; for the BMP keys rows carry, code units agree.
function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A number as the page sent it (Python's repr for a float token, exact digits for a big integer). */
function numberText(container: object, key: string | number, n: number): string {
  if (isFloatToken(container, key)) return pyFloatRepr(n);
  return rawIntegerOf(container, key) ?? String(n);
}

/** A text a spreadsheet could run as a formula gets a leading apostrophe; the JSON keeps the original. */
export function csvCell(value: unknown, container?: object, key?: string | number): string {
  if (value === null || value === undefined) return '';
  let text: string;
  if (typeof value === 'string') {
    text = /^[ ]*[=+\-@]/.test(value) || /^[\t\r\n]/.test(value) ? `'${value}` : value;
  } else if (typeof value === 'number' && container !== undefined && key !== undefined) {
    // Numbers are written as the page sent them: a negative number is data, not a formula.
    text = numberText(container, key, value);
  } else {
    text = encodePythonBody(value);
  }
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * `extra` adds the same members to every row (the sample label). They are looked up beside
 * the rows rather than copied into them: a copy would lose the rows' number kinds (`0.0`).
 */
export function rowsCsv(rows: readonly Json[], extra: Json = {}): string {
  const columns = [...new Set([...rows.flatMap((r) => Object.keys(r)), ...(rows.length > 0 ? Object.keys(extra) : [])])].sort(compareCodeUnits);
  const lines = [columns.map((c) => csvCell(c)).join(',')];
  for (const row of rows) lines.push(columns.map((c) => (Object.hasOwn(extra, c) ? csvCell(extra[c], extra, c) : csvCell(row[c], row, c))).join(','));
  return lines.map((l) => `${l}\r\n`).join('');
}

function envelope(page: Json): Json {
  const { results: _results, ...rest } = page;
  if (Array.isArray(rest.sources)) {
    rest.sources = rest.sources.map((s: unknown) => {
      if (s === null || typeof s !== 'object') return s;
      const { cache: _cache, ...source } = s as Json;
      return source;
    });
  }
  return rest;
}

export interface ExportFiles {
  'evidence.json': string;
  'rows.csv': string;
  'receipt.json': string;
}

/**
 * A capture from a sample-mode service says so in every file (README §5): `sample: true` in
 * evidence.json and receipt.json, and a `sample` column in rows.csv. A live capture has
 * none of them, so its files keep the upstream's shape.
 */
function isSampleCapture(capture: Capture): boolean {
  return capture.pages.length > 0 && capture.pages.every((page) => page.sample === true);
}

export function exportFiles(request: CaptureRequest, capture: Capture): ExportFiles {
  const sample = isSampleCapture(capture) ? { sample: true } : {};
  const evidence = sortedJson({
    ...sample,
    schema: CAPTURE_SCHEMA,
    dataset: capture.dataset,
    captured_at: capture.snapshotRetrievedAt,
    snapshot_id: capture.snapshotId,
    request: {
      dataset: request.dataset,
      entity: request.entity,
      start_date: request.startDate,
      end_date: request.endDate,
      limit: request.pageSize,
    },
    results: capture.rows,
    returned_rows: capture.rows.length,
    pages: capture.pages.map(envelope),
    transport_status: 'complete',
    evidence_status: 'not_evaluated',
    carrier_verification: 'not_performed',
    financial_authority: 'none',
    history_scope: HISTORY_SCOPE,
  });
  const csv = rowsCsv(capture.rows, sample);
  const receipt = sortedJson({
    ...sample,
    dataset: capture.dataset,
    captured_at: capture.snapshotRetrievedAt,
    snapshot_id: capture.snapshotId,
    row_count: capture.rows.length,
    pages_read: capture.pages.length,
    csv_policy: CSV_POLICY,
    sha256: { 'evidence.json': sha256Hex(evidence), 'rows.csv': sha256Hex(csv) },
    external_user_or_payment_verified: false,
  });
  return { 'evidence.json': evidence, 'rows.csv': csv, 'receipt.json': receipt };
}
