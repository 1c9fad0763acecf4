// Column normalisation shared by the robust correlation (market) and the spectral panel:
// scale by the largest magnitude first so that 1e±200 inputs stay finite, centre on the
// exact mean, then scale to unit Euclidean norm.
import { centreAndSquareSumBounded, divideAndSumBounded } from './bounded-kernels.js';
import { dotExact } from './exact-kernels.js';

/**
 * Normalises values[start:start+length] into out[0:length]. Returns false (out is then
 * unspecified) when the column is all zero or has zero norm after centring.
 */
export function normaliseInto(values: ArrayLike<number>, start: number, length: number, out: Float64Array): boolean {
  if (length === 0) return false;
  let scale = 0;
  for (let i = 0; i < length; i++) {
    const m = Math.abs(values[start + i]);
    if (m > scale) scale = m;
  }
  if (scale === 0 || Number.isNaN(scale)) return false;
  const mean = divideAndSumBounded(values, start, length, scale, out, 1) / length;
  // |out[i] - mean| <= 1 + |mean|, and rounding keeps that order.
  const norm = Math.sqrt(centreAndSquareSumBounded(out, length, mean, 1 + Math.abs(mean)));
  if (norm === 0) return false;
  for (let i = 0; i < length; i++) out[i] /= norm;
  return true;
}

/** Scaled, centred, unit-norm copy of `values`, or null when that is undefined. */
export function normaliseColumn(values: ArrayLike<number>): number[] | null {
  const out = new Float64Array(values.length);
  return normaliseInto(values, 0, values.length, out) ? Array.from(out) : null;
}

/** Fewest aligned points for which a correlation is reported. */
export const MIN_CORRELATION_POINTS = 10;

/**
 * Pearson correlation through `normaliseColumn`, summed exactly and clamped to [-1, 1].
 * Null when the lengths differ, fewer than 10 points, or either side cannot be normalised.
 */
export function robustCorrelation(a: ArrayLike<number>, b: ArrayLike<number>): number | null {
  const n = a.length;
  if (n !== b.length || n < MIN_CORRELATION_POINTS) return null;
  const za = new Float64Array(n);
  const zb = new Float64Array(n);
  if (!normaliseInto(a, 0, n, za) || !normaliseInto(b, 0, n, zb)) return null;
  const r = dotExact(za, 0, zb, 0, n);
  return Math.max(-1, Math.min(1, r));
}
