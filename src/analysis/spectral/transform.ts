// Per-series transform into interval values. Each value belongs to the interval between
// two consecutive tail points, identified by both clocks, so members only align when
// they were observed at the very same instants.
import { type SpectralObservation, type SpectralSeriesKind, type SpectralTransform } from './types.js';
import { round15 } from '../numeric/round15.js';
import { ulp } from '../numeric/ulp.js';

export interface SeriesIntervals {
  /** Number of intervals (tail points - 1, or 0). */
  count: number;
  /** Interval values, rounded to 15 significant digits. */
  values: Float64Array;
  /** Representation tolerance per interval (price series only). */
  tolerances: Float64Array | null;
}

export function transformName(kind: SpectralSeriesKind): SpectralTransform {
  if (kind === 'price') return 'log_return';
  if (kind === 'return') return 'identity_return';
  return 'first_difference';
}

/** Computes interval values over a tail whose values are all non-null. */
export function intervalValues(kind: SpectralSeriesKind, tail: readonly SpectralObservation[]): SeriesIntervals {
  const count = Math.max(0, tail.length - 1);
  const values = new Float64Array(count);
  if (kind === 'price') {
    const tolerances = new Float64Array(count);
    let logBefore = Math.log(tail[0]?.value as number);
    for (let j = 0; j < count; j++) {
      const logAfter = Math.log(tail[j + 1].value as number);
      // A difference of logs, never a ratio, so the tolerance can be stated in ulps.
      const d = logAfter - logBefore;
      tolerances[j] = 4 * (ulp(logBefore) + ulp(logAfter) + ulp(d));
      values[j] = round15(d);
      logBefore = logAfter;
    }
    return { count, values, tolerances };
  }
  if (kind === 'return') {
    for (let j = 0; j < count; j++) values[j] = round15(tail[j + 1].value as number);
  } else {
    for (let j = 0; j < count; j++) values[j] = round15((tail[j + 1].value as number) - (tail[j].value as number));
  }
  return { count, values, tolerances: null };
}
