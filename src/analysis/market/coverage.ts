// Measurement coverage: did the caller-declared sample size behind each point change
// between the baseline and the recent part of the window? A shrinking (or growing) panel
// can move a statistic without anything in the market having moved.
import { isFloatToken } from '../../core/json.js';
import { median } from '../numeric/median.js';
import { type PyNumber, pyAdd, pyCompare, pyDiv, pyNumberOf, pySub } from '../numeric/py-number.js';
import { finiteStatistic, markFloats } from './numbers.js';
import type { MarketObservation, MeasurementCoverage } from './types.js';

export interface CoverageOutcome {
  coverage: MeasurementCoverage;
  /** Warning to add to the series (none when coverage is not supplied or stable). */
  warning: 'measurement_coverage_incomplete' | 'measurement_coverage_changed' | null;
  /** True when the coverage itself warrants a review. */
  review: boolean;
}

/**
 * `observations[start .. start + baseline + recent)` are the points behind the window.
 * Sizes are read only there: older history does not count.
 */
export function measurementCoverage(
  observations: readonly MarketObservation[],
  start: number,
  baseline: number,
  recent: number,
  dropFraction: number,
): CoverageOutcome {
  const end = start + baseline + recent;
  let anyKey = false;
  let complete = true;
  for (let i = start; i < end; i++) {
    const obs = observations[i];
    if (Object.prototype.hasOwnProperty.call(obs, 'sample_size')) {
      anyKey = true;
      if (obs.sample_size === null) complete = false;
    } else {
      complete = false;
    }
  }
  if (!anyKey) {
    return { coverage: { status: 'not_supplied', relative_change: null }, warning: null, review: false };
  }
  if (!complete) {
    return {
      coverage: { status: 'incomplete', relative_change: null },
      warning: 'measurement_coverage_incomplete',
      review: true,
    };
  }
  const relative = exactIntegers(observations, start, end)
    ? exactRelativeChange(observations, start, baseline, recent)
    : doubleRelativeChange(observations, start, baseline, recent);
  // Increases count as a change as well: any shift in what is being measured matters.
  const changed = Math.abs(relative) >= dropFraction && relative !== 0;
  const coverage: MeasurementCoverage = {
    status: changed ? 'changed' : 'stable',
    relative_change: finiteStatistic(relative),
  };
  markFloats(coverage, 'relative_change');
  return {
    coverage,
    warning: changed ? 'measurement_coverage_changed' : null,
    review: changed,
  };
}

const TWO_52 = 4503599627370496;

/**
 * Whether some size is an int token of magnitude 2^52 or more. Below that every int the
 * reference adds, subtracts or divides is exact in a double and so is every sum of two
 * (sizes are positive), so plain double arithmetic gives its results bit for bit.
 */
function exactIntegers(observations: readonly MarketObservation[], start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const size = observations[i].sample_size as number;
    if (size >= TWO_52 && !isFloatToken(observations[i], 'sample_size')) return true;
  }
  return false;
}

function doubleRelativeChange(observations: readonly MarketObservation[], start: number, baseline: number, recent: number): number {
  const before = new Float64Array(baseline);
  const after = new Float64Array(recent);
  for (let i = 0; i < baseline; i++) before[i] = observations[start + i].sample_size as number;
  for (let i = 0; i < recent; i++) after[i] = observations[start + baseline + i].sample_size as number;
  const b = median(before);
  const a = median(after);
  return (a - b) / b;
}

/**
 * `(median(after) - median(before)) / median(before)` in the reference's number model:
 * int tokens stay exact integers through the medians (a middle element, or the sum of the
 * two middle ones divided by 2) and the difference, and int / int is rounded once.
 */
function exactRelativeChange(observations: readonly MarketObservation[], start: number, baseline: number, recent: number): number {
  const sizes = (from: number, count: number): PyNumber[] => {
    const out: PyNumber[] = [];
    for (let i = from; i < from + count; i++) out.push(pyNumberOf(observations[i], 'sample_size'));
    return out;
  };
  const b = pyMedian(sizes(start, baseline));
  const a = pyMedian(sizes(start + baseline, recent));
  return pyDiv(pySub(a, b), b);
}

/** `statistics.median` over Python numbers: a stable sort by exact value. */
function pyMedian(values: PyNumber[]): PyNumber {
  const sorted = values.slice().sort(pyCompare);
  const mid = sorted.length >> 1;
  if (sorted.length % 2 === 1) return sorted[mid];
  return pyDiv(pyAdd(sorted[mid - 1], sorted[mid]), 2n);
}
