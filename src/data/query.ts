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

/** Indexes of the rows a query keeps, in order. */
function filterRows(table: RowTable, params: Pick<PageParams, 'entity' | 'startDate' | 'endDate'>): number[] {
  const needle = casefold(pyStrip(params.entity));
  const dated = params.startDate !== '' || params.endDate !== '';
  const kept: number[] = [];
  for (let i = 0; i < table.length; i++) {
    if (needle !== '' && !table.foldedEntityId(i).includes(needle) && !table.foldedEntityName(i).includes(needle)) continue;
    if (dated) {
      // Undated rows (metadata, placeholders) cannot fall inside a date range.
      const asOf = table.asOf(i);
      if (asOf === null) continue;
      const day = firstCodePoints(asOf, 10);
      if (params.startDate !== '' && compareCodePoints(day, params.startDate) < 0) continue;
      if (params.endDate !== '' && compareCodePoints(day, params.endDate) > 0) continue;
    }
    kept.push(i);
  }
  return kept;
}

export function pageOf(table: RowTable, params: PageParams): Page {
  const kept = filterRows(table, params);
  const total = kept.length;
  const slice = kept.slice(params.offset, params.offset + params.limit);
  const end = params.offset + params.limit;
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
