// Related movements: pairs of assessed series whose monitor values, taken at the instants
// both windows share, are strongly correlated. A pair moving together is a hint to look
// at both, never independent confirmation of either.
import { compareCodePoints } from '../../core/strings.js';
import type { Instant } from '../../core/time.js';
import { dotExact } from '../numeric/exact-kernels.js';
import { MIN_CORRELATION_POINTS, normaliseInto, robustCorrelation } from '../numeric/normalise.js';
import { finiteStatistic, markFloats } from './numbers.js';
import type { RelatedMovement } from './types.js';

export const RELATED_THRESHOLD = 0.85;

export interface AlignedWindow {
  id: string;
  /** Window instants in increasing order (exact); null when every key is exact. */
  instants: readonly Instant[] | null;
  /** The same instants as doubles: exact below 2^53 µs, order-preserving everywhere. */
  keys: Float64Array;
  values: Float64Array;
}

const EXACT_KEY_LIMIT = 2 ** 53;

/** Three-way order of two window points; doubles first, BigInt only where they tie inexactly. */
function order(a: AlignedWindow, i: number, b: AlignedWindow, j: number): number {
  const x = a.keys[i];
  const y = b.keys[j];
  if (x < y) return -1;
  if (x > y) return 1;
  if (Math.abs(x) < EXACT_KEY_LIMIT) return 0;
  const p = instantAt(a, i);
  const q = instantAt(b, j);
  return p < q ? -1 : p > q ? 1 : 0;
}

function instantAt(w: AlignedWindow, i: number): Instant {
  return w.instants === null ? BigInt(w.keys[i]) : w.instants[i];
}

/** True when both windows sit on exactly the same instants. */
function sameInstants(a: AlignedWindow, b: AlignedWindow): boolean {
  const n = a.keys.length;
  if (n !== b.keys.length) return false;
  for (let i = 0; i < n; i++) if (order(a, i, b, i) !== 0) return false;
  return true;
}

/**
 * Correlation of the values two windows share in time (null when undefined).
 * Windows on identical instants (the usual panel) reuse each window's normalised column,
 * which is exactly what normalising the aligned lists again would produce.
 */
function pairCorrelation(
  first: AlignedWindow,
  second: AlignedWindow,
  normalised: (w: AlignedWindow) => Float64Array | null,
): { r: number | null; aligned: number } {
  if (sameInstants(first, second)) {
    const n = first.values.length;
    if (n < MIN_CORRELATION_POINTS) return { r: null, aligned: n };
    const za = normalised(first);
    const zb = za === null ? null : normalised(second);
    if (za === null || zb === null) return { r: null, aligned: n };
    const r = dotExact(za, 0, zb, 0, n);
    return { r: r > 1 ? 1 : r < -1 ? -1 : r, aligned: n };
  }
  // Both windows are strictly increasing in time, so one merge pass finds the shared
  // instants in order.
  const left: number[] = [];
  const right: number[] = [];
  let i = 0;
  let j = 0;
  while (i < first.keys.length && j < second.keys.length) {
    const c = order(first, i, second, j);
    if (c < 0) i++;
    else if (c > 0) j++;
    else {
      left.push(first.values[i++]);
      right.push(second.values[j++]);
    }
  }
  return { r: robustCorrelation(left, right), aligned: left.length };
}

export function relatedMovements(windows: readonly AlignedWindow[]): RelatedMovement[] {
  const sorted = [...windows].sort((a, b) => compareCodePoints(a.id, b.id));
  const columns = new Map<AlignedWindow, Float64Array | null>();
  const normalised = (w: AlignedWindow): Float64Array | null => {
    let column = columns.get(w);
    if (column === undefined) {
      const out = new Float64Array(w.values.length);
      column = normaliseInto(w.values, 0, w.values.length, out) ? out : null;
      columns.set(w, column);
    }
    return column;
  };
  const out: RelatedMovement[] = [];
  for (let s = 0; s < sorted.length; s++) {
    const first = sorted[s];
    for (let t = s + 1; t < sorted.length; t++) {
      const second = sorted[t];
      const { r, aligned } = pairCorrelation(first, second, normalised);
      if (r === null || Math.abs(r) < RELATED_THRESHOLD) continue;
      const movement: RelatedMovement = {
        series: [first.id, second.id],
        correlation: finiteStatistic(r),
        aligned_points: aligned,
        independent_confirmation: false,
      };
      markFloats(movement, 'correlation');
      out.push(movement);
    }
  }
  return out;
}
