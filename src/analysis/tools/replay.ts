// The prequential replay engine shared by forecast_next and score_forecasts. Walking the
// series in order, it issues a one-step random-walk forecast (the previous value) with an
// interval from the empirical quantile of past absolute one-step changes, scores it against
// the next value, then updates the miss rate target adaptively (a conformal-style step
// gamma_t = 0.05 / sqrt(1 + 0.01 t)). Every forecast uses only the values before it, so
// the forecast issued at step i equals forecast_next on values[:i].
import { fin } from './finite.js';

export const WARMUP_ERRORS = 10;
const GAMMA0 = 0.05;
const ALPHA_FLOOR = 0.01;
const ALPHA_CEILING = 0.99;

// glibc's pow(1 + 0.01 k, 0.5) is not correctly rounded for these step counts (k <= 2037);
// the reference uses its values, Math.sqrt gives the correctly rounded ones.
const GLIBC_ROOTS: ReadonlyMap<number, number> = new Map([
  [826, 3.0430248109405875],
  [885, 3.1384709652950433],
  [1377, 3.843175770115127],
]);

/** (1.0 + 0.01 k) ** 0.5 as the reference computes it. */
export function stepRoot(k: number): number {
  return GLIBC_ROOTS.get(k) ?? Math.sqrt(1.0 + 0.01 * k);
}

export const clipAlpha = (a: number): number => Math.min(Math.max(a, ALPHA_FLOOR), ALPHA_CEILING);

/** Linear-interpolation quantile of an ascending list (0.0 for an empty one). */
export function quantile(sorted: readonly number[], q: number, path: string): number {
  const len = sorted.length;
  if (len === 0) return 0.0;
  const pos = (len - 1) * Math.min(Math.max(q, 0.0), 1.0);
  const lo = Math.trunc(pos);
  const hi = Math.min(lo + 1, len - 1);
  const f = pos - lo;
  return fin(sorted[lo] * (1 - f) + sorted[hi] * f, 'error quantile', path);
}

/** [point - w, point + w] with w the q-quantile of the past absolute changes. */
export function bounds(point: number, errors: readonly number[], q: number, path: string): [number, number] {
  const w = quantile(errors, q, path);
  return [fin(point - w, 'lower forecast bound', path), fin(point + w, 'upper forecast bound', path)];
}

export interface Prediction {
  forecast: number;
  interval: [number, number];
  nominal: number;
  adaptiveAlpha: number;
  errorHistorySize: number;
}

export function predict(point: number, errors: readonly number[], alpha: number, nominal: number, path: string): Prediction {
  const clipped = clipAlpha(alpha);
  return {
    forecast: point,
    interval: bounds(point, errors, 1.0 - clipped, path),
    nominal,
    adaptiveAlpha: clipped,
    errorHistorySize: errors.length,
  };
}

/** What the engine shows an observer at each issued forecast. */
export interface IssuedStep {
  index: number;
  prediction: Prediction;
  actual: number;
  covered: boolean;
  /** The running miss-rate level before this step's update (not clipped on the first step). */
  alpha: number;
  /** Sorted past absolute changes the forecast was made from (do not keep a reference). */
  errors: readonly number[];
}

export interface Replay {
  /** The forecast for the value after the last one, once there are enough past changes. */
  next: Prediction | null;
}

/** Inserts v after any equal values (bisect.insort_right). */
function insortRight(sorted: number[], v: number): void {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (v < sorted[mid]) hi = mid;
    else lo = mid + 1;
  }
  sorted.splice(lo, 0, v);
}

export function replay(values: readonly number[], nominal: number, observe?: (step: IssuedStep) => void): Replay {
  const errors: number[] = [];
  let alpha = 1.0 - nominal;
  let scored = 0;
  for (let i = 1; i < values.length; i++) {
    const point = values[i - 1];
    const actual = values[i];
    const path = `/values/${i}`;
    if (errors.length >= WARMUP_ERRORS) {
      const prediction = predict(point, errors, alpha, nominal, path);
      const covered = prediction.interval[0] <= actual && actual <= prediction.interval[1];
      observe?.({ index: i, prediction, actual, covered, alpha, errors });
      scored += 1;
      const gamma = GAMMA0 / stepRoot(scored);
      alpha = clipAlpha(alpha + gamma * ((1.0 - nominal) - (covered ? 0.0 : 1.0)));
    }
    insortRight(errors, fin(Math.abs(actual - point), 'one-step absolute change', path));
  }
  const last = values.length - 1;
  const next = errors.length >= WARMUP_ERRORS ? predict(values[last], errors, alpha, nominal, `/values/${last}`) : null;
  return { next };
}
