// The packet row: fifteen keys, identical in latest `observations`, `review.json.results`
// and the CSV columns.

import { markFloat } from '../core/json.js';
import { METRIC_IDS, type MetricId } from './publishers/types.js';
import type { ObservationRowDocument } from './schemas/common.js';

export const ROW_COLUMNS = [
  'metric_id',
  'value',
  'unit',
  'observation_date',
  'source',
  'cadence',
  'publisher_freshness',
  'value_state',
  'evaluated_at',
  'review_status',
  'review_asof',
  'review_scope',
  'latest_per_instrument',
  'canonical_latest_asof',
  'newer_observation_available',
] as const;
export type RowColumn = (typeof ROW_COLUMNS)[number];

export const REVIEW_SCOPE = 'common_sofr_iorb_horizon';
export const REVIEW_STATUS = 'checks_passed';
export const PUBLISHER_FRESHNESS = 'directly_verified';
export const VALUE_STATE = 'available';

export interface ObservationRow {
  metric_id: MetricId;
  value: number;
  unit: '%' | '$B';
  observation_date: string;
  source: string;
  cadence: 'daily' | 'weekly';
  publisher_freshness: string;
  value_state: string;
  evaluated_at: string;
  review_status: string;
  review_asof: string;
  review_scope: string;
  latest_per_instrument: boolean;
  canonical_latest_asof: string;
  newer_observation_available: boolean;
}

/** Units by position: the first four metrics are percentages, the rest billions of dollars. */
export function expectedUnit(metric: MetricId): '%' | '$B' {
  return METRIC_IDS.indexOf(metric) < 4 ? '%' : '$B';
}

/** A JSON-ready copy of a row whose value always prints as a float (2914 → 2914.0). */
export function rowDocument(row: ObservationRow): ObservationRowDocument {
  const doc: Record<string, unknown> = {};
  for (const column of ROW_COLUMNS) doc[column] = row[column];
  markFloat(doc, 'value');
  // The fixed-token columns hold the constants above (buildObservationRows sets them).
  return doc as ObservationRowDocument;
}

/**
 * The columns that identify what was observed. `evaluated_at` is the clock of the
 * capture that evaluated the row, so it differs on every capture; two captures whose rows
 * agree on everything else saw the same evidence.
 */
export const ROW_IDENTITY_COLUMNS: readonly RowColumn[] = ROW_COLUMNS.filter((c) => c !== 'evaluated_at');

function sameValue(a: unknown, b: unknown): boolean {
  // Object.is keeps 0 and -0 apart, which a CSV/JSON repr would also print differently.
  return typeof a === 'number' && typeof b === 'number' ? Object.is(a, b) : a === b;
}

/** True when both row lists hold the same observations (all columns except evaluated_at). */
export function sameObservations(a: readonly Record<string, unknown>[], b: readonly Record<string, unknown>[]): boolean {
  if (a.length !== b.length) return false;
  return a.every((row, i) => ROW_IDENTITY_COLUMNS.every((c) => sameValue(row[c], b[i][c])));
}
