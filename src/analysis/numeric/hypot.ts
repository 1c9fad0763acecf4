// Correctly rounded sqrt(1 + t^2). V8's Math.hypot is off by one ulp in about a third of
// the cases the Jacobi rotation produces, which changes eigenvectors in the last bits;
// CPython's math.hypot is correctly rounded, and parity needs the same rotations.
import { newPair, twoProduct, twoSum } from './eft.js';

const sq = newPair();
const s = newPair();
const rr = newPair();

export function hypotOne(t: number): number {
  const a = Math.abs(t);
  if (!(a <= 268435456)) {
    // |t| > 2^28: 1/(2|t|) is below half an ulp of |t|, so the result is |t|
    // (this branch also passes inf and nan through, as math.hypot does).
    return a;
  }
  if (a < 7.450580596923828e-9) return 1; // 2^-27: t^2 / 2 is under half an ulp of 1
  twoProduct(a, a, sq); // a^2 = sq0 + sq1 exactly
  twoSum(1, sq[0], s); // 1 + sq0 = s0 + s1 exactly
  const hi = s[0];
  const lo = s[1] + sq[1];
  const r = Math.sqrt(hi);
  twoProduct(r, r, rr);
  // One Newton step on the double-double radicand; hi - rr0 is exact (Sterbenz).
  const residual = (hi - rr[0] - rr[1]) + lo;
  return r + residual / (2 * r);
}
