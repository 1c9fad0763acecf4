// Measurement coverage: did the caller-declared sample size behind each point change
// between the baseline and the recent part of the window? A shrinking (or growing) panel
// can move a statistic without anything in the market having moved.
import { median } from '../numeric/median.js';
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
  const before = new Float64Array(baseline);
  const after = new Float64Array(recent);
  for (let i = 0; i < baseline; i++) before[i] = observations[start + i].sample_size as number;
  for (let i = 0; i < recent; i++) after[i] = observations[start + baseline + i].sample_size as number;
  const b = median(before);
  const a = median(after);
  const relative = (a - b) / b;
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
