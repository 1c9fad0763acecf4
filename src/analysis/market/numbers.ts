// Reported market statistics: 15 significant digits, finite, and printed as floats.
import { AppError } from '../../core/errors.js';
import { markFloat } from '../../core/json.js';
import { AnalysisErrors } from '../errors.js';
import { round15 } from '../numeric/round15.js';

/**
 * A statistic as reported: rounded to 15 significant digits. A non-finite value means
 * the inputs were scaled beyond what a double can carry; the caller must rescale.
 */
export function finiteStatistic(value: number): number {
  if (!Number.isFinite(value)) {
    throw new AppError(
      AnalysisErrors.derived_statistic_overflow,
      'derived statistic overflow: a reported statistic is not finite; rescale the input units',
    );
  }
  return round15(value);
}

/** Same as finiteStatistic, keeping null as null. */
export function optionalStatistic(value: number | null): number | null {
  return value === null ? null : finiteStatistic(value);
}

/** Declares the numeric members `keys` of `target` float-kind so 4.0 prints as `4.0`. */
export function markFloats(target: object, ...keys: string[]): void {
  for (const key of keys) {
    if (typeof (target as Record<string, unknown>)[key] === 'number') markFloat(target, key);
  }
}
