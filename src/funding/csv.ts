// observations.csv: header plus nine rows, comma-separated, minimal quoting, CRLF after
// every line, floats in Python repr and booleans in lowercase — the exact bytes whose
// SHA-256 the manifest records.

import { pyFloatRepr } from '../core/json.js';
import { ROW_COLUMNS } from './rows.js';

function cell(value: unknown, column: string): string {
  let text: string;
  if (typeof value === 'boolean') text = value ? 'true' : 'false';
  else if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new RangeError(`column ${column} holds a non-finite number`);
    text = column === 'value' ? pyFloatRepr(value) : String(value);
  } else if (typeof value === 'string') text = value;
  else if (value === null || value === undefined) text = '';
  else throw new TypeError(`column ${column} holds a ${typeof value}, which a CSV cell cannot carry`);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The CSV text for rows given as objects with the fifteen row columns. */
export function renderObservationsCsv(rows: readonly Record<string, unknown>[]): string {
  const lines = [ROW_COLUMNS.join(',')];
  for (const row of rows) lines.push(ROW_COLUMNS.map((c) => cell(row[c], c)).join(','));
  return lines.map((line) => `${line}\r\n`).join('');
}
