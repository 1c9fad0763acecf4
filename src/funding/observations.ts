// From seven parsed publisher documents to the nine packet rows.
//
// The review date is the newest day both SOFR and IORB were published (the common
// horizon). Each other series then contributes its newest observation dated on or before
// that day, but never one older than its age backstop: a stale series fails the capture
// instead of being presented next to fresh ones. Nothing is filled forward.

import { parseIsoDate, formatIsoDate } from '../core/time.js';
import { PublisherObservationMissingError } from './errors.js';
import { DEFAULT_IORB_SOURCE, type IorbSource, METRICS, metricsFor } from './publishers/catalogue.js';
import { latestCommonDate, newerObservationAvailable, observationOnOrBefore } from './publishers/select.js';
import type { IsoDate, MetricId, MetricSeries, PublisherDocument, PublisherKey, SetAsideOperation } from './publishers/types.js';
import { PUBLISHER_FRESHNESS, REVIEW_SCOPE, REVIEW_STATUS, VALUE_STATE, type ObservationRow } from './rows.js';

/**
 * Oldest acceptable observation, in days before the review date.
 * - SOFR (and its p99/volume, read from the same row) and IORB define the horizon, so
 *   they must be dated exactly on it.
 * - EFFR, ON RRP, SRF (NY Fed) and TGA (Treasury DTS) are daily, but their calendars
 *   differ from SOFR's around holidays (EFFR and SOFR close on different days, the DTS is
 *   published one business day later), and a year-end or Thanksgiving cluster of closed
 *   days can open a gap longer than the generic 4-day daily limit: 8 days.
 * - Reserves (H.4.1) are a weekly average dated the week-ended Wednesday: 10 days.
 */
export const AGE_BACKSTOP_DAYS: Readonly<Record<MetricId, number>> = Object.freeze({
  'policy.sofr': 0,
  'policy.effr': 8,
  'policy.iorb': 0,
  'distribution.sofr.p99': 0,
  'distribution.sofr.volume': 0,
  'liquidity.reserves': 10,
  'liquidity.tga': 8,
  'liquidity.on_rrp': 8,
  'liquidity.srf': 8,
});

/** How far the review date may lie before the capture's UTC day (live captures). */
export const HORIZON_MAX_AGE_DAYS = 8;

export function shiftDate(date: IsoDate, days: number): IsoDate {
  const d = parseIsoDate(date);
  if (d === null) throw new RangeError(`not a date: ${date}`);
  return formatIsoDate(d + days);
}

function seriesOf(docs: ReadonlyMap<PublisherKey, PublisherDocument>, metric: MetricId): MetricSeries {
  const spec = METRICS.find((m) => m.id === metric)!;
  const doc = docs.get(spec.document);
  const series = doc?.series.find((s) => s.metric === metric);
  if (!series) throw new RangeError(`document ${spec.document} was not parsed or carries no ${metric} series`);
  return series;
}

/** The newest date on which both SOFR and IORB have an observation. */
export function reviewHorizon(docs: ReadonlyMap<PublisherKey, PublisherDocument>): IsoDate {
  const sofr = seriesOf(docs, 'policy.sofr');
  const iorb = seriesOf(docs, 'policy.iorb');
  const date = latestCommonDate(sofr, iorb);
  if (date === null) {
    const range = (s: MetricSeries) => (s.observations.length === 0 ? 'no dates'
      : `${s.observations[s.observations.length - 1].date} to ${s.observations[0].date}`);
    throw new PublisherObservationMissingError('iorb', 'policy.iorb',
      `SOFR and IORB have no observation date in common (SOFR: ${range(sofr)}; IORB: ${range(iorb)})`, 'horizon_missing');
  }
  return date;
}

/**
 * Refuses a horizon in the future or more than HORIZON_MAX_AGE_DAYS before `today`
 * (the capture's UTC date): documents that old mean a publisher stopped updating. When
 * the documents are given, the failure names the one whose newest date is older.
 */
export function checkHorizonAge(reviewAsof: IsoDate, today: IsoDate, docs?: ReadonlyMap<PublisherKey, PublisherDocument>): void {
  if (reviewAsof > today) {
    throw new PublisherObservationMissingError('iorb', 'policy.iorb',
      `the SOFR/IORB horizon ${reviewAsof} lies after the capture date ${today}`, 'horizon_future');
  }
  if (reviewAsof < shiftDate(today, -HORIZON_MAX_AGE_DAYS)) {
    let stale: 'sofr' | 'iorb' = 'iorb';
    let newest = '';
    if (docs !== undefined) {
      const newestOf = (s: MetricSeries) => s.observations[0]?.date ?? '';
      const sofr = newestOf(seriesOf(docs, 'policy.sofr'));
      const iorb = newestOf(seriesOf(docs, 'policy.iorb'));
      stale = sofr < iorb ? 'sofr' : 'iorb';
      newest = ` (newest ${stale === 'sofr' ? 'SOFR' : 'IORB'} date: ${stale === 'sofr' ? sofr : iorb})`;
    }
    throw new PublisherObservationMissingError(stale, stale === 'sofr' ? 'policy.sofr' : 'policy.iorb',
      `the newest common SOFR/IORB date ${reviewAsof} is more than ${HORIZON_MAX_AGE_DAYS} days before the capture date ${today}${newest}`,
      'horizon_stale');
  }
}

export interface BuiltObservations {
  /** The nine rows, in the fixed metric order. */
  readonly rows: ObservationRow[];
  /** Per metric, the operations of the used date that were set aside (only where there are any). */
  readonly setAside: Readonly<Partial<Record<MetricId, readonly SetAsideOperation[]>>>;
}

/** The nine rows for a review date, and what the used dates set aside. */
export function buildObservations(
  docs: ReadonlyMap<PublisherKey, PublisherDocument>,
  reviewAsof: IsoDate,
  evaluatedAt: string,
  iorbSource: IorbSource = DEFAULT_IORB_SOURCE,
): BuiltObservations {
  const setAside: Partial<Record<MetricId, readonly SetAsideOperation[]>> = {};
  const rows = metricsFor(iorbSource).map((spec): ObservationRow => {
    const series = seriesOf(docs, spec.id);
    const earliest = shiftDate(reviewAsof, -AGE_BACKSTOP_DAYS[spec.id]);
    const picked = observationOnOrBefore(series, reviewAsof, earliest);
    if (picked.setAside !== undefined && picked.setAside.length > 0) setAside[spec.id] = picked.setAside;
    const canonical = series.newestDate ?? picked.date;
    return {
      metric_id: spec.id,
      value: picked.value,
      unit: spec.unit,
      observation_date: picked.date,
      source: spec.source,
      cadence: spec.cadence,
      publisher_freshness: PUBLISHER_FRESHNESS,
      value_state: VALUE_STATE,
      evaluated_at: evaluatedAt,
      review_status: REVIEW_STATUS,
      review_asof: reviewAsof,
      review_scope: REVIEW_SCOPE,
      latest_per_instrument: false,
      canonical_latest_asof: canonical,
      newer_observation_available: newerObservationAvailable(series, picked.date),
    };
  });
  return { rows, setAside };
}

/** The nine rows, in the fixed metric order, for a review date. */
export function buildObservationRows(
  docs: ReadonlyMap<PublisherKey, PublisherDocument>,
  reviewAsof: IsoDate,
  evaluatedAt: string,
  iorbSource: IorbSource = DEFAULT_IORB_SOURCE,
): ObservationRow[] {
  return buildObservations(docs, reviewAsof, evaluatedAt, iorbSource).rows;
}
