// Exact dot products for operands of known magnitude (the normalised columns of a
// correlation), at about half the cost of `dotExact`.
//
// With every product bounded by m and sigma a power of two >= 2 * length * m, Rump's
// extraction splits each product p exactly into a high part q = fl(sigma + p) - sigma (a
// multiple of sigma * 2^-53) and a low part p - q (|p - q| <= sigma * 2^-53). The high
// parts then sum without any rounding error in any order, so only the low parts are summed
// approximately, with an a-priori bound. That is fewer operations per element than
// `dotExact`'s error-free two-sum, and it leaves the accumulation free to run in two
// independent chains. The result is returned only when the bound proves it is the
// correctly rounded exact sum, i.e. what fsum gives; otherwise `dotExact` decides.
import { centreAndSquareSum, divideAndSum, dotExact, isCorrectlyRounded, sumExact } from './exact-kernels.js';

const U2 = 2.220446049250313e-16; // 2^-52
const U = 1.1102230246251565e-16; // 2^-53
// Magnitudes outside these leave sigma or the bound near the ends of the double range.
const SMALLEST = 2 ** -400;
const LARGEST = 2 ** 400;

const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);
const HI = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 1 : 0;
const LO = 1 - HI;
/** POW2[e] = 2^(e - 1023). */
const POW2 = Float64Array.from({ length: 2047 }, (_, e) => 2 ** (e - 1023));

/** The smallest power of two >= x, for positive normal finite x. */
export function powerOfTwoAtLeast(x: number): number {
  f64[0] = x;
  const hi = u32[HI];
  const exponent = (hi >>> 20) & 0x7ff;
  return (hi & 0xfffff) === 0 && u32[LO] === 0 ? x : POW2[exponent + 1];
}

/**
 * fsum(a[aOff+i] * b[bOff+i] for i in range(length)), products rounded first, bit-identical
 * to `dotExact`. `aMax` and `bMax` must bound |a[aOff+i]| and |b[bOff+i]| over the range
 * (NaN entries aside, which end in `dotExact` like anything else this cannot prove).
 */
export function dotExactBounded(
  a: ArrayLike<number>,
  aOff: number,
  b: ArrayLike<number>,
  bOff: number,
  length: number,
  aMax: number,
  bMax: number,
): number {
  // Rounding is monotonic, so fl(aMax * bMax) bounds every rounded product.
  const m = aMax * bMax;
  if (!(m >= SMALLEST && m <= LARGEST) || length < 2 || length > 1 << 20) return dotExact(a, aOff, b, bOff, length);
  const sigma = powerOfTwoAtLeast(2 * length * m);
  let high0 = 0;
  let high1 = 0;
  let low0 = 0;
  let low1 = 0;
  let i = 0;
  for (const last = length - 1; i < last; i += 2) {
    const p0 = a[aOff + i] * b[bOff + i];
    const q0 = sigma + p0 - sigma;
    high0 += q0;
    low0 += p0 - q0;
    const p1 = a[aOff + i + 1] * b[bOff + i + 1];
    const q1 = sigma + p1 - sigma;
    high1 += q1;
    low1 += p1 - q1;
  }
  if (i < length) {
    const p0 = a[aOff + i] * b[bOff + i];
    const q0 = sigma + p0 - sigma;
    high0 += q0;
    low0 += p0 - q0;
  }
  // high0 + high1 is exact, like every partial sum of high parts.
  const r = settle(high0 + high1, low0 + low1, length, sigma);
  return r === r ? r : dotExact(a, aOff, b, bOff, length);
}

// The same extraction for the two sums of column normalisation (see normalise.ts), whose
// summands are bounded by construction: quotients by the largest magnitude lie in
// [-1, 1], and a centred quotient is at most 1 + |mean|. Each kernel spells the loop out
// with its own summand (product, quotient, centred square) on purpose: one shared loop
// taking the summand as a callback would see three callbacks, a polymorphic call V8
// does not inline well inside a hot loop.

/**
 * `divideAndSum` (out[i] = values[start+i] / scale; returns fsum(out[0:length])) for
 * |values[start+i]| <= scale * largest, bit-identical.
 */
export function divideAndSumBounded(
  values: ArrayLike<number>,
  start: number,
  length: number,
  scale: number,
  out: Float64Array,
  largest: number,
): number {
  if (!(largest >= SMALLEST && largest <= LARGEST) || length < 2 || length > 1 << 20) {
    return divideAndSum(values, start, length, scale, out);
  }
  const sigma = powerOfTwoAtLeast(2 * length * largest);
  let high0 = 0;
  let high1 = 0;
  let low0 = 0;
  let low1 = 0;
  let i = 0;
  for (const last = length - 1; i < last; i += 2) {
    const p0 = values[start + i] / scale;
    out[i] = p0;
    const q0 = sigma + p0 - sigma;
    high0 += q0;
    low0 += p0 - q0;
    const p1 = values[start + i + 1] / scale;
    out[i + 1] = p1;
    const q1 = sigma + p1 - sigma;
    high1 += q1;
    low1 += p1 - q1;
  }
  if (i < length) {
    const p0 = values[start + i] / scale;
    out[i] = p0;
    const q0 = sigma + p0 - sigma;
    high0 += q0;
    low0 += p0 - q0;
  }
  const r = settle(high0 + high1, low0 + low1, length, sigma);
  return r === r ? r : sumExact(out, 0, length);
}

/**
 * `centreAndSquareSum` (out[i] -= mean; returns fsum(out[i] * out[i])) for
 * |out[i] - mean| <= largest, bit-identical.
 */
export function centreAndSquareSumBounded(out: Float64Array, length: number, mean: number, largest: number): number {
  // Rounding is monotonic, so fl(largest^2) bounds every rounded square.
  const m = largest * largest;
  if (!(m >= SMALLEST && m <= LARGEST) || length < 2 || length > 1 << 20) return centreAndSquareSum(out, length, mean);
  const sigma = powerOfTwoAtLeast(2 * length * m);
  let high0 = 0;
  let high1 = 0;
  let low0 = 0;
  let low1 = 0;
  let i = 0;
  for (const last = length - 1; i < last; i += 2) {
    const v0 = out[i] - mean;
    out[i] = v0;
    const p0 = v0 * v0;
    const q0 = sigma + p0 - sigma;
    high0 += q0;
    low0 += p0 - q0;
    const v1 = out[i + 1] - mean;
    out[i + 1] = v1;
    const p1 = v1 * v1;
    const q1 = sigma + p1 - sigma;
    high1 += q1;
    low1 += p1 - q1;
  }
  if (i < length) {
    const v0 = out[i] - mean;
    out[i] = v0;
    const p0 = v0 * v0;
    const q0 = sigma + p0 - sigma;
    high0 += q0;
    low0 += p0 - q0;
  }
  const r = settle(high0 + high1, low0 + low1, length, sigma);
  // The column is centred by now: the fallback only sums the squares.
  return r === r ? r : dotExact(out, 0, out, 0, length);
}

/**
 * fl(high + low) when the bound proves it the correctly rounded value of high plus the
 * exact sum of the `length` low parts, else NaN. `high` must be exact. Recursive summation
 * of `length` low parts, each at most sigma * 2^-53, errs by at most about length * 2^-53
 * times their magnitude sum; twice that absorbs the rounding of the bound itself.
 */
function settle(high: number, low: number, length: number, sigma: number): number {
  const r = high + low;
  const z = r - high;
  const d = (high - (r - z)) + (low - z);
  return isCorrectlyRounded(r, d, (length + 2) * U2 * (length * sigma * U)) ? r : NaN;
}
