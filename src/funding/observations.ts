// From seven parsed publisher documents to the nine packet rows.
//
// The review date is the newest day both SOFR and IORB were published (the common
// horizon). Each other series then contributes its newest observation dated on or before
// that day, but never one older than its age backstop: a stale series fails the capture
// instead of being presented next to fresh ones. Nothing is filled forward.

import { parseIsoDate, formatIsoDate } from '../core/time.js';
import { AppError } from '../core/errors.js';
import { FundingErrors, PublisherObservationMissingError } from './errors.js';
import { METRICS } from './publishers/catalogue.js';
import { latestCommonDate, newerObservationAvailable, observationOnOrBefore } from './publishers/select.js';
import type { IsoDate, MetricId, MetricSeries, PublisherDocument, PublisherKey } from './publishers/types.js';
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
    throw new PublisherObservationMissingError('iorb', 'policy.iorb', 'SOFR and IORB have no observation date in common');
  }
  return date;
}

/**
 * Refuses a horizon in the future or more than HORIZON_MAX_AGE_DAYS before `today`
 * (the capture's UTC date): documents that old mean a publisher stopped updating.
 */
export function checkHorizonAge(reviewAsof: IsoDate, today: IsoDate): void {
  if (reviewAsof > today) {
    throw new AppError(FundingErrors.publisher_document_invalid, `the SOFR/IORB horizon ${reviewAsof} lies after the capture date ${today}`);
  }
  if (reviewAsof < shiftDate(today, -HORIZON_MAX_AGE_DAYS)) {
    throw new AppError(FundingErrors.publisher_observation_missing,
      `the newest common SOFR/IORB date ${reviewAsof} is more than ${HORIZON_MAX_AGE_DAYS} days before the capture date ${today}`);
  }
}

/** The nine rows, in the fixed metric order, for a review date. */
export function buildObservationRows(
  docs: ReadonlyMap<PublisherKey, PublisherDocument>,
  reviewAsof: IsoDate,
  evaluatedAt: string,
): ObservationRow[] {
  return METRICS.map((spec) => {
    const series = seriesOf(docs, spec.id);
    const earliest = shiftDate(reviewAsof, -AGE_BACKSTOP_DAYS[spec.id]);
    const picked = observationOnOrBefore(series, reviewAsof, earliest);
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
}
