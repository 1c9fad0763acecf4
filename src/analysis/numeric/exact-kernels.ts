// Fast paths for the exact sums that dominate the spectral panel: the same correctly
// rounded results as `fsum`, bit for bit, at a fraction of the cost.
//
// Each kernel accumulates with an error-free two-sum (Ogita–Rump–Oishi "Sum2"): the
// running sum s and the sum c of the exact rounding errors. fl(s + c) is then within a
// proven bound of the exact total; when that bound cannot move the total across a
// rounding boundary the float answer is the correctly rounded one, otherwise (ties,
// near-ties, overflow) the kernel falls back to Shewchuk's exact summation. Any non-finite
// running sum takes the fallback, so intermediate overflow raises FsumOverflowError as
// fsum does (the two could only disagree on sums grazing DBL_MAX, never on the unit-scale
// data the spectral panel feeds them).
import { ExactSum } from './fsum.js';

const fallback = new ExactSum();
const U2 = 2.220446049250313e-16; // 2^-52, i.e. twice the unit roundoff

// The bit pattern of a double through aliased typed arrays (a DataView round trip costs
// more than the summation it guards for short sums).
const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);
const HI = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 1 : 0; // little-endian: high word second
const LO = 1 - HI;
/** HALF_ULP[e] = 2^(e - 1076): half an ulp of a double with biased exponent e. */
const HALF_ULP = Float64Array.from({ length: 2047 }, (_, e) => 2 ** (e - 1023 - 53));

/**
 * Decides whether r = fl(s + c) is the correctly rounded value of the exact total
 * s + C, given |C - c| <= bound. `d` is the exact rounding error of s + c (r + d = s + c).
 */
export function isCorrectlyRounded(r: number, d: number, bound: number): boolean {
  if (!Number.isFinite(r) || !Number.isFinite(bound)) return false;
  if (r === 0) return false; // sign-of-zero and cancellation cases: exact path
  f64[0] = r;
  const hi = u32[HI];
  const lo = u32[LO];
  const exponent = (hi >>> 20) & 0x7ff;
  if (exponent === 0 || exponent === 0x7ff) return false; // subnormal: let the exact path decide
  // Half an ulp of r. At a power of two the gap on the inner side is half as big; the
  // wider margin holds only when the exact total r + d + (at most bound) is certainly on
  // the outer side, as for a unit-norm column's dot product with itself rounding to 1.
  let half = HALF_ULP[exponent];
  if ((hi & 0xfffff) === 0 && lo === 0 && !(d > bound ? r > 0 : d < -bound && r < 0)) half /= 2;
  return Math.abs(d) + bound < half;
}

/** fsum(values[start:start+length]), bit-identical. */
export function sumExact(values: ArrayLike<number>, start: number, length: number): number {
  let s = 0;
  let c = 0;
  let absErr = 0;
  for (let i = start, end = start + length; i < end; i++) {
    const p = values[i];
    const t = s + p;
    const z = t - s;
    const q = (s - (t - z)) + (p - z);
    s = t;
    c += q;
    absErr += Math.abs(q);
  }
  const r = s + c;
  const z = r - s;
  const d = (s - (r - z)) + (c - z);
  if (isCorrectlyRounded(r, d, (length + 2) * U2 * absErr)) return r;
  fallback.reset();
  for (let i = start, end = start + length; i < end; i++) fallback.add(values[i]);
  return fallback.value();
}

/**
 * fsum(a[aOff+i] * b[bOff+i] for i in range(length)), products rounded first, bit-identical.
 * The loop repeats `sumExact`'s on purpose: forming each product in place avoids a temporary
 * array in the innermost loop of every correlation.
 */
export function dotExact(a: ArrayLike<number>, aOff: number, b: ArrayLike<number>, bOff: number, length: number): number {
  let s = 0;
  let c = 0;
  let absErr = 0;
  for (let i = 0; i < length; i++) {
    const p = a[aOff + i] * b[bOff + i];
    const t = s + p;
    const z = t - s;
    const q = (s - (t - z)) + (p - z);
    s = t;
    c += q;
    absErr += Math.abs(q);
  }
  const r = s + c;
  const z = r - s;
  const d = (s - (r - z)) + (c - z);
  if (isCorrectlyRounded(r, d, (length + 2) * U2 * absErr)) return r;
  fallback.reset();
  for (let i = 0; i < length; i++) fallback.add(a[aOff + i] * b[bOff + i]);
  return fallback.value();
}

// Fused passes for column normalisation: each writes the transformed column and sums it
// in the same loop, with the operations (and the fallback) of `sumExact` / `dotExact` on
// the values written, so the results are those of the separate passes bit for bit.

/** out[i] = values[start+i] / scale for i < length; returns fsum(out[0:length]). */
export function divideAndSum(values: ArrayLike<number>, start: number, length: number, scale: number, out: Float64Array): number {
  let s = 0;
  let c = 0;
  let absErr = 0;
  for (let i = 0; i < length; i++) {
    const p = values[start + i] / scale;
    out[i] = p;
    const t = s + p;
    const z = t - s;
    const q = (s - (t - z)) + (p - z);
    s = t;
    c += q;
    absErr += Math.abs(q);
  }
  const r = s + c;
  const z = r - s;
  const d = (s - (r - z)) + (c - z);
  if (isCorrectlyRounded(r, d, (length + 2) * U2 * absErr)) return r;
  fallback.reset();
  for (let i = 0; i < length; i++) fallback.add(out[i]);
  return fallback.value();
}

/** out[i] -= mean for i < length; returns fsum(out[i] * out[i]) of the centred values. */
export function centreAndSquareSum(out: Float64Array, length: number, mean: number): number {
  let s = 0;
  let c = 0;
  let absErr = 0;
  for (let i = 0; i < length; i++) {
    const v = out[i] - mean;
    out[i] = v;
    const p = v * v;
    const t = s + p;
    const z = t - s;
    const q = (s - (t - z)) + (p - z);
    s = t;
    c += q;
    absErr += Math.abs(q);
  }
  const r = s + c;
  const z = r - s;
  const d = (s - (r - z)) + (c - z);
  if (isCorrectlyRounded(r, d, (length + 2) * U2 * absErr)) return r;
  fallback.reset();
  for (let i = 0; i < length; i++) fallback.add(out[i] * out[i]);
  return fallback.value();
}
