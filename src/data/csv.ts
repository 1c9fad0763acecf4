// `format=csv` of /api/v1/query: the page's rows as RFC 4180 text, one column per row
// field in the EvidenceRow order. Cells are spreadsheet-safe: a text cell a spreadsheet
// would run as a formula (first non-space character `=`, `+`, `-` or `@`) or that starts
// with a tab, CR or LF gets a leading `'`. Numbers are never escaped (`-2` stays `-2`) and
// print as the JSON body prints them (a float-kind value as `66.0`); null is an empty cell.
// The JSON body keeps every original value; the CSV is a convenience view of the same page.

import { isFloatToken, pyFloatRepr } from '../core/json.js';
import { ROW_COLUMNS, type EvidenceRow } from './row-schema.js';

const FORMULA_START = /^[ ]*[=+\-@]|^[\t\r\n]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** A text cell as written to the file (escaped, then quoted when needed). */
export function csvTextCell(text: string): string {
  const safe = FORMULA_START.test(text) ? `'${text}` : text;
  return NEEDS_QUOTES.test(safe) || safe !== safe.trim() ? `"${safe.replace(/"/g, '""')}"` : safe;
}

function cell(row: EvidenceRow, column: (typeof ROW_COLUMNS)[number]): string {
  const value = row[column];
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') {
    return isFloatToken(row, column) || !Number.isInteger(value) ? pyFloatRepr(value) : String(value);
  }
  return csvTextCell(String(value));
}

/** The rows as CSV bytes: a header line, then one CRLF-terminated line per row. */
export function rowsCsv(rows: readonly EvidenceRow[]): Buffer {
  const lines = [ROW_COLUMNS.join(',')];
  for (const row of rows) lines.push(ROW_COLUMNS.map((c) => cell(row, c)).join(','));
  return Buffer.from(lines.join('\r\n') + '\r\n', 'utf8');
}
