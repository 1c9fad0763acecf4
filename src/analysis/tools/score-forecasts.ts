// score_forecasts: replays every forecast the engine would have issued on the series and
// scores it against what happened, without hindsight: coverage, misses and the weighted
// interval score (Bracher et al.) of the adaptive intervals against fixed-level ones.
import type { ForecastRequest } from '../schemas/tools.js';
import { TOOL_DEFAULTS } from '../schemas/tools.js';
import { FORECAST_CAVEATS, FORECAST_METHOD, wholePercent } from './forecast-text.js';
import { shortForm } from './forecast-next.js';
import { fin } from './finite.js';
import { entryFloats, PyRecord, type PyObject } from './py.js';
import { bounds, clipAlpha, replay } from './replay.js';

export const SCORE_MIN_VALUES = 20;
const LEVELS: readonly number[] = [0.5, 0.8, 0.95];
const COVERAGE_TOLERANCE = 0.05;

/** Interval score of [lo, hi] at miss level a for the outcome y. */
export function intervalScore(y: number, lo: number, hi: number, a: number, path: string): number {
  let s = hi - lo;
  if (y < lo) s = s + (2.0 / a) * (lo - y);
  else if (y > hi) s = s + (2.0 / a) * (y - hi);
  return fin(s, 'interval score', path);
}

/** Weighted interval score over the three levels, accumulated in level order. */
export function weightedIntervalScore(y: number, median: number, intervals: readonly [number, number][], path: string): number {
  let total = 0.5 * Math.abs(y - median);
  for (let j = 0; j < LEVELS.length; j++) {
    const a = 1.0 - LEVELS[j];
    total = total + (a / 2.0) * intervalScore(y, intervals[j][0], intervals[j][1], a, path);
  }
  return fin(total / 3.5, 'weighted interval score', path);
}

interface Scored {
  record: PyObject;
  index: number;
  covered: boolean;
  missedBy: number;
  score: number;
  baseline: number;
}

export function scoreForecasts(request: ForecastRequest): PyObject {
  const values = entryFloats(request.values);
  const nominal = request.nominal ?? TOOL_DEFAULTS.score_forecasts.nominal;
  if (values.length < SCORE_MIN_VALUES) return shortForm(SCORE_MIN_VALUES, values.length);

  const scored: Scored[] = [];
  replay(values, nominal, ({ index, prediction, actual, covered, alpha, errors }) => {
    const path = `/values/${index}`;
    const point = prediction.forecast;
    const adaptive: [number, number][] = [];
    const baseline: [number, number][] = [];
    for (const level of LEVELS) {
      const levelAlpha = clipAlpha((alpha * (1.0 - level)) / (1.0 - nominal));
      adaptive.push(bounds(point, errors, 1.0 - levelAlpha, path));
      baseline.push(bounds(point, errors, level, path));
    }
    const [lo, hi] = prediction.interval;
    const missedBy = covered ? 0.0 : Math.min(Math.abs(actual - lo), Math.abs(actual - hi));
    const score = weightedIntervalScore(actual, point, adaptive, path);
    const baselineScore = weightedIntervalScore(actual, point, baseline, path);
    const record = new PyRecord()
      .int('index', index)
      .float('forecast', point)
      .floats('interval', prediction.interval)
      .float('nominal_coverage', prediction.nominal)
      .float('adaptive_alpha', prediction.adaptiveAlpha)
      .int('error_history_size', prediction.errorHistorySize)
      .float('actual', actual)
      .set('covered', covered)
      .float('missed_by', missedBy)
      .float('score', score)
      .float('baseline_score', baselineScore)
      .build();
    scored.push({ record, index, covered, missedBy, score, baseline: baselineScore });
  });

  const n = scored.length;
  const misses = scored.filter((s) => !s.covered);
  const empirical = (n - misses.length) / n;
  let scoreSum = 0;
  for (const s of scored) scoreSum += s.score / n;
  const score = fin(scoreSum, 'mean forecast score', '/values');
  let baselineSum = 0;
  for (const s of scored) baselineSum += s.baseline / n;
  const baseline = fin(baselineSum, 'mean baseline score', '/values');
  const within = Math.abs(empirical - nominal) <= COVERAGE_TOLERANCE;
  // Array.prototype.sort is stable: equal misses keep index order, as in the reference.
  const worst = misses.slice().sort((a, b) => b.missedBy - a.missedBy).slice(0, 5);
  const skill = baseline > 0 ? fin(1.0 - score / baseline, 'forecast skill', '/values') : null;

  return new PyRecord()
    .set('ok', true)
    .set('validity', 'empirical_only')
    .set('guarantee', null)
    .set('method', FORECAST_METHOD)
    .set('caveats', [...FORECAST_CAVEATS])
    .int('n_forecasts', n)
    .float('nominal_coverage', nominal)
    .float('empirical_coverage', empirical)
    .set('calibrated', within)
    .set('within_coverage_tolerance', within)
    .set(
      'calibration_criterion',
      'Observed coverage within 0.05 of the target counts as within tolerance. This describes the replay; it is not a statistical test.',
    )
    .float('score', score)
    .float('baseline_score', baseline)
    .set('beats_baseline', score < baseline)
    .float('skill_vs_baseline', skill)
    .int('n_misses', misses.length)
    .set('records', scored.map((s) => s.record))
    .set('misses', misses.map((s) => s.record))
    .set('worst_misses', worst.map((s) => s.record))
    .set('records_complete', true)
    .set(
      'reading',
      `${n} forecasts replayed: the intervals covered ${wholePercent(empirical)}% of outcomes against a ` +
        `${wholePercent(nominal)}% target, ${within ? 'within' : 'outside'} the five-point tolerance.`,
    )
    .build();
}
