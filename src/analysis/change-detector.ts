// Rank-based Shiryaev–Roberts change detector (the `monitor` of market_assessment).
//
// Each new value is ranked against a reference set of earlier values; the rank tail
// fraction is turned into a bet by a mixture of power bets, and the two one-sided
// statistics (up and down) grow multiplicatively while values keep landing in a tail.
// Parity with the reference depends on the exact evaluation order, so the loops below
// deliberately mirror it: the bet grid is summed left to right in plain double
// arithmetic, the mixture is divided by the grid size afterwards, and the reported
// statistic is Python's half-even `round(peak, 4)`.

import { pyround } from './numeric/pyround.js';

export const WARMUP_POINTS = 8;
/** The power-bet exponents 0.1 … 0.9, written as literals so each is the nearest double. */
export const BET_GRID: readonly number[] = Object.freeze([0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9]);
/** Per-side thresholds; a two-sided scan doubles them. */
export const ONE_SIDED_WATCH = 100;
export const ONE_SIDED_ALARM = 500;
export const TWO_SIDED_WATCH = 2 * ONE_SIDED_WATCH;
export const TWO_SIDED_ALARM = 2 * ONE_SIDED_ALARM;
export const STATISTIC_CAP = 1e12;
const P_FLOOR = 1e-12;

export type ChangeState = 'no_data' | 'warming_up' | 'steady' | 'watch' | 'changed';

export interface ChangeScan {
  /** State after the last value (`no_data` for an empty input). */
  state: ChangeState;
  /** `round(peak, 4)` after the last value (0 for an empty input). */
  statistic: number;
  /** Indices at which the alarm fired (each one followed by a reset). */
  changePoints: number[];
}

/** What the detector saw at one index; handed to the optional observer (tests, tracing). */
export interface ChangeStep {
  index: number;
  state: Exclude<ChangeState, 'no_data'>;
  statistic: number;
  up: number;
  down: number;
  referenceSize: number;
}

// Precomputed exponents `e − 1`, evaluated the way the reference does (a double subtraction).
const BET_EXPONENTS: readonly number[] = BET_GRID.map((e) => e - 1);

/** Mixture of power bets for a rank tail fraction `p` (clipped into [1e-12, 1]). */
export function mixtureBet(p: number): number {
  const q = p < P_FLOOR ? P_FLOOR : p > 1 ? 1 : p;
  let sum = 0;
  for (let k = 0; k < BET_GRID.length; k++) sum += BET_GRID[k] * Math.pow(q, BET_EXPONENTS[k]);
  return sum / BET_GRID.length;
}

// The tail fraction is always (1 + c) / (n + 1) for a reference of n values, so the bet
// takes few distinct values; rows of a lazily filled table (row n, column c) spare the
// nine `pow` calls per side and step. Large references are computed directly.
const MEMO_LIMIT = 1024;
const betRows: (Float64Array | undefined)[] = [];

function rankBet(count: number, size: number): number {
  if (size >= MEMO_LIMIT) return mixtureBet((1 + count) / (size + 1));
  let row = betRows[size];
  if (row === undefined) {
    row = new Float64Array(size + 1).fill(Number.NaN);
    betRows[size] = row;
  }
  let bet = row[count];
  if (Number.isNaN(bet)) {
    bet = mixtureBet((1 + count) / (size + 1));
    row[count] = bet;
  }
  return bet;
}

/** Number of entries of the ascending `sorted[0..n)` that are < x (or <= x when `inclusive`). */
function rankOf(sorted: Float64Array, n: number, x: number, inclusive: boolean): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const v = sorted[mid];
    if (v < x || (inclusive && v === x)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Runs the two-sided detector over `values` in order. The reference set is rebuilt
 * from scratch after every alarm, so a change point also restarts the warm-up.
 */
export function scanChanges(
  values: ArrayLike<number>,
  observe?: (step: ChangeStep) => void,
): ChangeScan {
  const n = values.length;
  if (n === 0) return { state: 'no_data', statistic: 0, changePoints: [] };

  // The reference set is kept sorted: each step needs only two rank counts.
  const reference = new Float64Array(n);
  let refLen = 0;
  let up = 0;
  let down = 0;
  let state: Exclude<ChangeState, 'no_data'> = 'warming_up';
  let statistic = 0;
  const changePoints: number[] = [];

  for (let i = 0; i < n; i++) {
    const x = values[i];
    const warming = refLen < WARMUP_POINTS;
    const below = rankOf(reference, refLen, x, false);
    if (!warming) {
      const atLeast = refLen - below;
      const atMost = rankOf(reference, refLen, x, true);
      up = Math.min((1 + up) * rankBet(atLeast, refLen), STATISTIC_CAP);
      down = Math.min((1 + down) * rankBet(atMost, refLen), STATISTIC_CAP);
    }
    const peak = up > down ? up : down;
    state = warming
      ? 'warming_up'
      : peak >= TWO_SIDED_ALARM
        ? 'changed'
        : peak >= TWO_SIDED_WATCH
          ? 'watch'
          : 'steady';
    statistic = pyround(peak, 4);
    if (observe) observe({ index: i, state, statistic, up, down, referenceSize: refLen });
    reference.copyWithin(below + 1, below, refLen);
    reference[below] = x;
    refLen++;
    if (state === 'changed') {
      changePoints.push(i);
      up = 0;
      down = 0;
      refLen = 0;
    }
  }
  return { state, statistic, changePoints };
}
