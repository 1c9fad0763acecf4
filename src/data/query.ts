// The query pipeline over one snapshot's rows (upstream §3.3), after validation:
// diagnostics (before any filter, never paged) → entity filter → date filter → total →
// slice → next_offset. Rows come back as fresh copies: a caller mutating its page can
// never change what the next caller sees.

import { casefold } from '../analysis/narrative/text.js';
import { compareCodePoints } from '../core/strings.js';
import { copyRow, DIAGNOSTIC_AVAILABILITY, type EvidenceRow } from './row.js';
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

/** Rows with their case-folded entity texts, computed once per snapshot. */
export interface IndexedRows {
  rows: readonly EvidenceRow[];
  foldedIds: readonly string[];
  foldedNames: readonly string[];
}

export function indexRows(rows: readonly EvidenceRow[]): IndexedRows {
  // A history repeats its market's id and name on every row: each text is folded once and
  // its rows share the folded string.
  const folded = new Map<string, string>();
  const fold = (text: string | null): string => {
    if (text === null) return '';
    let out = folded.get(text);
    if (out === undefined) folded.set(text, (out = casefold(text)));
    return out;
  };
  return { rows, foldedIds: rows.map((r) => fold(r.entity_id)), foldedNames: rows.map((r) => fold(r.entity_name)) };
}

export function diagnosticsOf(rows: readonly EvidenceRow[]): EvidenceRow[] {
  return rows.filter((r) => DIAGNOSTIC_AVAILABILITY.has(r.availability));
}

/** Indexes of the rows a query keeps, in order. */
export function filterRows(indexed: IndexedRows, params: Pick<PageParams, 'entity' | 'startDate' | 'endDate'>): number[] {
  const needle = casefold(pyStrip(params.entity));
  const dated = params.startDate !== '' || params.endDate !== '';
  const kept: number[] = [];
  const { rows, foldedIds, foldedNames } = indexed;
  for (let i = 0; i < rows.length; i++) {
    if (needle !== '' && !foldedIds[i].includes(needle) && !foldedNames[i].includes(needle)) continue;
    if (dated) {
      // Undated rows (metadata, placeholders) cannot fall inside a date range.
      const asOf = rows[i].as_of;
      if (asOf === null) continue;
      const day = firstCodePoints(asOf, 10);
      if (params.startDate !== '' && compareCodePoints(day, params.startDate) < 0) continue;
      if (params.endDate !== '' && compareCodePoints(day, params.endDate) > 0) continue;
    }
    kept.push(i);
  }
  return kept;
}

export function pageOf(indexed: IndexedRows, params: PageParams): Page {
  const kept = filterRows(indexed, params);
  const total = kept.length;
  const slice = kept.slice(params.offset, params.offset + params.limit);
  const end = params.offset + params.limit;
  return {
    results: slice.map((i) => copyRow(indexed.rows[i])),
    total_rows: total,
    returned_rows: slice.length,
    offset: params.offset,
    limit: params.limit,
    next_offset: end < total ? end : null,
    diagnostics: diagnosticsOf(indexed.rows).map(copyRow),
  };
}
