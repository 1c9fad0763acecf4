// The per-series diagnostics: a robust baseline (median and MAD spread) against the
// recent points, with departures, persistence, volatility change, coverage and the
// rank change monitor. Everything below works on the final window of `need` points.
import { scanChanges } from '../change-detector.js';
import { madSpread, median } from '../numeric/median.js';
import { robustCorrelation } from '../numeric/normalise.js';
import { mayDifferFromDouble, pyCompare, pyNumberOf } from '../numeric/py-number.js';
import type { CoverageOutcome } from './coverage.js';
import { finiteStatistic, markFloats, optionalStatistic } from './numbers.js';
import { BASIS_DIRECT, BASIS_LOG_PRICE } from './text.js';
import type { MarketDiagnostics, MarketPolicy, SeriesStatus } from './types.js';

export interface WindowAnalysis {
  diagnostics: MarketDiagnostics;
  status: Exclude<SeriesStatus, 'insufficient_visibility'>;
  priority: 2 | 1 | 0;
  reasons: string[];
  /** Window values with sub-tolerance deviations snapped to the baseline median. */
  monitorValues: Float64Array;
}

export interface WindowInput {
  /** The last `baseline_points + recent_points` derived values. */
  values: Float64Array;
  /** Largest representation tolerance over the window (0 for directly supplied values). */
  precision: number;
  policy: MarketPolicy;
  coverage: CoverageOutcome;
  windowStart: string;
  windowEnd: string;
}

export function analyseWindow(input: WindowInput): WindowAnalysis {
  const { values, precision, policy, coverage } = input;
  const b = policy.baseline_points;
  const r = policy.recent_points;
  const need = b + r;
  const baseline = values.subarray(0, b);
  const recent = values.subarray(b, need);

  const center = median(baseline);
  let scale = madSpread(baseline);
  // A spread no larger than the arithmetic noise of the representation is no spread.
  if (scale <= precision) scale = 0;
  const recentMedian = median(recent);
  const effect = recentMedian - center;
  const latest = recent[r - 1] - center;
  const threshold = policy.move_threshold * scale;

  const unusual = (delta: number): boolean => {
    const size = Math.abs(delta);
    if (!(size > precision)) return false;
    return scale > 0 ? size >= threshold : true;
  };

  let persistencePoints = 0;
  if (effect !== 0) {
    const positive = effect > 0;
    for (let i = 0; i < r; i++) {
      const delta = recent[i] - center;
      if (delta !== 0 && delta > 0 === positive && unusual(delta)) persistencePoints++;
    }
  }
  const persistent = unusual(effect) && persistencePoints >= Math.max(2, Math.ceil((2 * r) / 3));
  const isolated = unusual(latest);

  let recentSpread = madSpread(recent);
  if (recentSpread <= precision) recentSpread = 0;
  const ratio = scale > 0 ? recentSpread / scale : null;
  const volatility = (ratio !== null && atLeast(ratio, policy, 'volatility_ratio')) || (scale === 0 && recentSpread > 0);

  const reasons: string[] = [];
  if (persistent) reasons.push('persistent_departure');
  else if (isolated) reasons.push('latest_departure');
  if (volatility) reasons.push('volatility_expansion');
  if (
    scale === 0 &&
    (Math.abs(effect) > precision || Math.abs(latest) > precision || recentSpread > precision)
  ) {
    reasons.push('constant_baseline_changed');
  }
  if (coverage.review) reasons.push('review_measurement_coverage');

  const status = persistent || volatility || coverage.review ? 'review' : reasons.length > 0 ? 'watch' : 'no_supported_departure';
  const priority = status === 'review' ? 2 : status === 'watch' ? 1 : 0;

  const monitorValues = new Float64Array(need);
  for (let i = 0; i < need; i++) {
    const v = values[i];
    monitorValues[i] = Math.abs(v - center) <= precision ? center : v;
  }
  const scan = scanChanges(monitorValues);
  const monitor = {
    state: scan.state,
    statistic: finiteStatistic(scan.statistic),
    statistic_type: 'shiryaev_roberts' as const,
    is_e_value: false as const,
    change_points: scan.changePoints,
    guarantee: null,
  };
  markFloats(monitor, 'statistic');

  const lagOne = robustCorrelation(Array.from(values.subarray(0, need - 1)), Array.from(values.subarray(1, need)));

  const diagnostics: MarketDiagnostics = {
    baseline_median: finiteStatistic(center),
    recent_median: finiteStatistic(recentMedian),
    median_change: finiteStatistic(effect),
    latest_change: finiteStatistic(latest),
    baseline_robust_spread: finiteStatistic(scale),
    recent_robust_spread: finiteStatistic(recentSpread),
    robust_departure: scale > 0 ? finiteStatistic(effect / scale) : null,
    latest_robust_departure: scale > 0 ? finiteStatistic(latest / scale) : null,
    volatility_ratio: optionalStatistic(ratio),
    persistence_points: persistencePoints,
    representation_tolerance: finiteStatistic(precision),
    representation_tolerance_basis: precision > 0 ? BASIS_LOG_PRICE : BASIS_DIRECT,
    lag_one_correlation: optionalStatistic(lagOne),
    coverage: coverage.coverage,
    monitor,
    window_start: input.windowStart,
    window_end: input.windowEnd,
  };
  markFloats(
    diagnostics,
    'baseline_median',
    'recent_median',
    'median_change',
    'latest_change',
    'baseline_robust_spread',
    'recent_robust_spread',
    'robust_departure',
    'latest_robust_departure',
    'volatility_ratio',
    'representation_tolerance',
    'lag_one_correlation',
  );
  return { diagnostics, status, priority, reasons, monitorValues };
}

/**
 * `value >= policy[key]` as Python compares a float with the policy member: exactly, also
 * when the member is an int token beyond 2^53 whose double is not its value.
 */
function atLeast(value: number, policy: MarketPolicy, key: 'volatility_ratio'): boolean {
  const bound = policy[key];
  if (!mayDifferFromDouble(bound)) return value >= bound;
  return pyCompare(value, pyNumberOf(policy, key)) >= 0;
}
