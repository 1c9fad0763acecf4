// Natural logarithm as a double-double, for pow and the mixture bets, which need ln x to
// more than double precision before they round once. The correctly rounded double-valued
// log (with its proven fast path and exact fallback) is `logCorrectlyRounded` in log.ts.
//
// Method: x = m * 2^k with m in [sqrt(1/2), sqrt(2)], and
// ln m = 2 atanh(u) = 2 (u + u^3/3 + u^5/5 + ...), u = (m - 1) / (m + 1), |u| <= 0.1716,
// evaluated in double-double (about 104 bits) and added to k ln 2 held as a double-double.
// The result is then rounded once, so it is wrong only when ln x lies within ~2^-100
// relative of a rounding midpoint.
import { dd, ddAdd, ddMul, reciprocal, twoProd, type DD } from './double-double.js';

const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);
const HI = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 1 : 0; // little-endian: high word second

export const LN2_HI = 0.6931471805599453;
export const LN2_LO = 2.3190468138462996e-17;
const TWO_54 = 18014398509481984;

// Series terms: u^2 <= 0.02944, so after 22 terms the remainder is below 2^-107.
const TERMS = 22;
const DD_TERMS = 10;
const COEF_HI = new Float64Array(TERMS);
const COEF_LO = new Float64Array(TERMS);
const r = dd();
for (let j = 0; j < TERMS; j++) {
  reciprocal(2 * j + 1, r);
  COEF_HI[j] = r[0];
  COEF_LO[j] = r[1];
}

/** ln x as a double-double, for finite x > 0. */
export function logDD(x: number, out: DD): void {
  let k = 0;
  if (x < 2.2250738585072014e-308) {
    x *= TWO_54;
    k = -54;
  }
  f64[0] = x;
  const top = u32[HI];
  k += ((top >>> 20) & 0x7ff) - 1023;
  u32[HI] = (top & 0x000fffff) | 0x3ff00000;
  let m = f64[0]; // in [1, 2)
  if (m > Math.SQRT2) {
    m *= 0.5;
    k += 1;
  }
  // u = (m - 1) / (m + 1): m - 1 is exact, m + 1 is split exactly (two-sum).
  const num = m - 1;
  const dh = m + 1;
  const bb = dh - m;
  const dl = (m - (dh - bb)) + (1 - bb);
  const q1 = num / dh;
  ddMul(q1, 0, dh, dl, out);
  const q2 = ((num - out[0]) - out[1]) / dh; // the remainder num - q1*d, divided once more
  const uh = q1 + q2;
  const ul = q2 - (uh - q1);
  ddMul(uh, ul, uh, ul, out);
  const vh = out[0];
  const vl = out[1];
  // Terms from DD_TERMS on are below 2^-50 relative to the sum: plain doubles suffice there.
  let tail = COEF_HI[TERMS - 1];
  for (let j = TERMS - 2; j >= DD_TERMS; j--) tail = tail * vh + COEF_HI[j];
  let sh = tail;
  let sl = 0;
  for (let j = DD_TERMS - 1; j >= 0; j--) {
    ddMul(sh, sl, vh, vl, out);
    ddAdd(out[0], out[1], COEF_HI[j], COEF_LO[j], out);
    sh = out[0];
    sl = out[1];
  }
  ddMul(sh, sl, uh, ul, out);
  const lh = 2 * out[0];
  const ll = 2 * out[1];
  if (k === 0) {
    out[0] = lh;
    out[1] = ll;
    return;
  }
  twoProd(k, LN2_HI, out);
  ddAdd(out[0], out[1] + k * LN2_LO, lh, ll, out);
}
