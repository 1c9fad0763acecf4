// Per-series transform into interval values. Each value belongs to the interval between
// two consecutive tail points, identified by both clocks, so members only align when
// they were observed at the very same instants.
import { type SpectralObservation, type SpectralSeriesKind, type SpectralTransform } from './types.js';
import { NonFiniteStatisticError, round15 } from '../numeric/round15.js';
import type { FloatArena } from '../numeric/float-arena.js';
import { logCorrectlyRounded } from '../numeric/log.js';
import { ulp } from '../numeric/ulp.js';
import { mayDifferFromDouble, pyFloatOf, pyNumberOf, pySub, toDouble } from '../numeric/py-number.js';

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

function allFinite(tail: readonly SpectralObservation[]): boolean {
  for (let j = 0; j < tail.length; j++) if (!Number.isFinite(tail[j].value)) return false;
  return true;
}

function assertFinite(values: Float64Array): void {
  for (let j = 0; j < values.length; j++) {
    if (!Number.isFinite(values[j])) throw new NonFiniteStatisticError();
  }
}

/**
 * Interval values over a tail whose values are all non-null, except that price intervals
 * are only allocated: `fillLogReturns` then computes the range some window reads. A log return of two positive finite prices is
 * always finite, so the ones no window reads can be left out without changing an outcome;
 * anything that can fail (a non-finite price, the other kinds' overflow) is computed and
 * refused here. `known.finite` (every tail value is finite) may be passed when already
 * known, e.g. from the gates; `known.arena` supplies the columns.
 */
export function deferredIntervals(
  kind: SpectralSeriesKind,
  tail: readonly SpectralObservation[],
  known: { finite?: boolean; arena?: FloatArena } = {},
): SeriesIntervals {
  const count = Math.max(0, tail.length - 1);
  if (kind === 'price') {
    const values = known.arena === undefined ? new Float64Array(count) : known.arena.take(count);
    const tolerances = known.arena === undefined ? new Float64Array(count) : known.arena.take(count);
    const intervals = { count, values, tolerances };
    if (known.finite ?? allFinite(tail)) return intervals;
    fillLogReturns(intervals, tail, 0);
    assertFinite(values);
    return intervals;
  }
  const values = known.arena === undefined ? new Float64Array(count) : known.arena.take(count);
  if (kind === 'return') {
    for (let j = 0; j < count; j++) {
      const after = tail[j + 1].value as number;
      values[j] = mayDifferFromDouble(after) ? pyFloatOf(tail[j + 1], 'value') : after;
    }
  } else {
    for (let j = 0; j < count; j++) {
      const after = tail[j + 1].value as number;
      const before = tail[j].value as number;
      values[j] = mayDifferFromDouble(after) || mayDifferFromDouble(before) ? exactDifference(tail[j + 1], tail[j]) : after - before;
    }
  }
  assertFinite(values);
  return { count, values, tolerances: null };
}

/**
 * `after - before` as the reference computes it: exactly when both are int tokens (a run of
 * consecutive integers beyond 2^53 has differences of exactly 1), then rounded once to a
 * double; in float arithmetic when either is a float token. Either way the int token `-0`
 * is the int 0.
 */
export function exactDifference(after: SpectralObservation, before: SpectralObservation): number {
  return toDouble(pySub(pyNumberOf(after, 'value'), pyNumberOf(before, 'value')));
}

/**
 * Log returns and their tolerances for price intervals [from, count). The logs are
 * correctly rounded (numeric/log.ts), as the reference's C library log is in all but its
 * rare near-ties: the returns of a smooth path are rounding noise, to the last bit.
 */
export function fillLogReturns(intervals: SeriesIntervals, tail: readonly SpectralObservation[], from: number): void {
  const { count, values } = intervals;
  const tolerances = intervals.tolerances as Float64Array;
  if (from >= count) return;
  let logBefore = logCorrectlyRounded(tail[from].value as number);
  let ulpBefore = ulp(logBefore);
  for (let j = from; j < count; j++) {
    const logAfter = logCorrectlyRounded(tail[j + 1].value as number);
    const ulpAfter = ulp(logAfter);
    // A difference of logs, never a ratio, so the tolerance can be stated in ulps.
    const d = logAfter - logBefore;
    tolerances[j] = 4 * (ulpBefore + ulpAfter + ulp(d));
    values[j] = d;
    logBefore = logAfter;
    ulpBefore = ulpAfter;
  }
}
