// The query pipeline over one snapshot's rows (upstream §3.3), after validation:
// diagnostics (before any filter, never paged) → entity filter → date filter → total →
// slice → next_offset. Rows come back as fresh copies: a caller mutating its page can
// never change what the next caller sees.

import { casefold } from '../analysis/narrative/text.js';
import { compareCodePoints } from '../core/strings.js';
import type { EvidenceRow } from './row.js';
import type { RowTable } from './row-table.js';
import { firstCodePoints, pyStrip } from './text.js';

export interface PageParams {
  entity: string;
  startDate: string;
  endDate: string;
  limit: number;
  offset: number;
}

export interface Page {
  results: EvidenceRow[];
  total_rows: number;
  returned_rows: number;
  offset: number;
  limit: number;
  next_offset: number | null;
  diagnostics: EvidenceRow[];
}

/**
 * Indexes of the rows a query keeps, in order, or null when it keeps every row. Each test
 * runs once per distinct value of its column (a history repeats its markets and days on
 * many rows), then each row costs a lookup by code.
 */
function filterRows(table: RowTable, params: Pick<PageParams, 'entity' | 'startDate' | 'endDate'>): number[] | null {
  const needle = casefold(pyStrip(params.entity));
  const dated = params.startDate !== '' || params.endDate !== '';
  if (needle === '' && !dated) return null;
  const idHit = needle === '' ? null : table.foldedValuesOf('entity_id').map((id) => id.includes(needle));
  const nameHit = needle === '' ? null : table.foldedValuesOf('entity_name').map((name) => name.includes(needle));
  const inRange = dated ? table.valuesOf('as_of').map((asOf) => asOf !== null && withinDates(firstCodePoints(asOf, 10), params)) : null;
  const ids = table.codesOf('entity_id');
  const names = table.codesOf('entity_name');
  const days = table.codesOf('as_of');
  const kept: number[] = [];
  for (let i = 0; i < table.length; i++) {
    if (idHit !== null && !idHit[ids[i]] && !nameHit![names[i]]) continue;
    // Undated rows (metadata, placeholders) cannot fall inside a date range.
    if (inRange !== null && !inRange[days[i]]) continue;
    kept.push(i);
  }
  return kept;
}

function withinDates(day: string, params: Pick<PageParams, 'startDate' | 'endDate'>): boolean {
  if (params.startDate !== '' && compareCodePoints(day, params.startDate) < 0) return false;
  return params.endDate === '' || compareCodePoints(day, params.endDate) <= 0;
}

export function pageOf(table: RowTable, params: PageParams): Page {
  const kept = filterRows(table, params);
  const total = kept === null ? table.length : kept.length;
  const end = params.offset + params.limit;
  const slice = kept === null ? indexesBetween(params.offset, Math.min(end, total)) : kept.slice(params.offset, end);
  return {
    results: slice.map((i) => table.row(i)),
    total_rows: total,
    returned_rows: slice.length,
    offset: params.offset,
    limit: params.limit,
    next_offset: end < total ? end : null,
    diagnostics: table.diagnosticRows.map((i) => table.row(i)),
  };
}

function indexesBetween(from: number, to: number): number[] {
  return Array.from({ length: Math.max(0, to - from) }, (_, k) => from + k);
}
