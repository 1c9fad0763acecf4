// Per-series transform into interval values. Each value belongs to the interval between
// two consecutive tail points, identified by both clocks, so members only align when
// they were observed at the very same instants.
import { type SpectralObservation, type SpectralSeriesKind, type SpectralTransform } from './types.js';
import { NonFiniteStatisticError, round15 } from '../numeric/round15.js';
import { ulp } from '../numeric/ulp.js';

export interface SeriesIntervals {
  /** Number of intervals (tail points - 1, or 0). */
  count: number;
  /**
   * Interval values before the 15-significant-digit rounding, which `roundIntervals`
   * applies to the ranges a window actually reads (rounding never fails on a finite
   * value, so deferring it changes no outcome; non-finite values are refused here).
   */
  values: Float64Array;
  /** Representation tolerance per interval (price series only). */
  tolerances: Float64Array | null;
}

export function transformName(kind: SpectralSeriesKind): SpectralTransform {
  if (kind === 'price') return 'log_return';
  if (kind === 'return') return 'identity_return';
  return 'first_difference';
}

/** Rounds values[start:end] in place to 15 significant digits (Python `%.15g`). */
export function roundIntervals(values: Float64Array, start: number, end: number): void {
  for (let j = start; j < end; j++) values[j] = round15(values[j]);
}

function assertFinite(values: Float64Array): void {
  for (let j = 0; j < values.length; j++) {
    if (!Number.isFinite(values[j])) throw new NonFiniteStatisticError();
  }
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
      values[j] = d;
      logBefore = logAfter;
    }
    assertFinite(values);
    return { count, values, tolerances };
  }
  if (kind === 'return') {
    for (let j = 0; j < count; j++) values[j] = tail[j + 1].value as number;
  } else {
    for (let j = 0; j < count; j++) values[j] = (tail[j + 1].value as number) - (tail[j].value as number);
  }
  assertFinite(values);
  return { count, values, tolerances: null };
}
