// Choosing observations out of parsed publisher series — the small, rule-bearing part of
// packet building that belongs next to the series shape it reads.

import { PublisherObservationMissingError } from '../errors.js';
import type { AcceptedObservation, IsoDate, MetricSeries } from './types.js';

/**
 * Newest date present in both series (accepted or rejected entries alike), or null.
 * For SOFR and IORB this is the review date. A date whose value was rejected still
 * counts: the capture must then fail on it, not quietly review an earlier day.
 */
export function latestCommonDate(a: MetricSeries, b: MetricSeries): IsoDate | null {
  const inB = new Set(b.observations.map((o) => o.date));
  for (const o of a.observations) if (inB.has(o.date)) return o.date; // newest first
  return null;
}

/**
 * The series' newest entry dated on or before `latest`, which must be no older than
 * `earliest`. Throws PublisherObservationMissingError when there is none in that window,
 * and the entry's own PublisherDocumentError when that date was rejected — there is no
 * fallback to an older day.
 */
export function observationOnOrBefore(series: MetricSeries, latest: IsoDate, earliest: IsoDate): AcceptedObservation {
  const entry = series.observations.find((o) => o.date <= latest);
  if (entry === undefined || entry.date < earliest) {
    const found = entry === undefined ? 'none on or before it' : `the newest on or before it is ${entry.date}`;
    throw new PublisherObservationMissingError(series.document, series.metric,
      `no ${series.metric} observation between ${earliest} and ${latest} (${found})`);
  }
  if (entry.state === 'rejected') throw entry.error;
  return entry;
}

/** True when the document holds an accepted observation newer than `date`. */
export function newerObservationAvailable(series: MetricSeries, date: IsoDate): boolean {
  return series.newestDate !== null && series.newestDate > date;
}
