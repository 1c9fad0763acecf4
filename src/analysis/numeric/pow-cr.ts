// Correctly rounded x ** y for x > 0 with a result in the normal range.
//
// CPython's float ** calls glibc's pow, which is correctly rounded in nearly every case;
// V8's Math.pow differs from it by an ulp for about 7 % of the rank-bet arguments and 19 %
// of the recency weights 0.5^(j/h) that did_it_change uses (CPython fixtures). Computed as
// exp(y ln x) entirely in double-double (ln x from log-dd, exp by a Taylor series on the
// reduced argument), then rounded once. Outside the normal range (results that overflow
// or fall below 2^-1022, which the tools only meet as negligible weights) and for
// non-positive or non-finite operands, Math.pow decides.
import { dd, ddAdd, ddMul, twoProd } from './double-double.js';
import { LN2_HI, LN2_LO, logDD } from './log-dd.js';

// 1/n! as double-doubles; |r| <= 0.347 after reduction, so 24 terms leave < 2^-110.
const TERMS = 25;
const FACT_HI = new Float64Array(TERMS);
const FACT_LO = new Float64Array(TERMS);
{
  let hi = 1;
  let lo = 0;
  const p = dd();
  for (let n = 0; n < TERMS; n++) {
    if (n > 1) {
      // (hi + lo) / n: q = hi / n, and the exact remainder hi - q n gives the low word.
      const q = hi / n;
      twoProd(q, n, p);
      const low = ((hi - p[0]) - p[1] + lo) / n;
      hi = q + low;
      lo = low - (hi - q);
    }
    FACT_HI[n] = hi;
    FACT_LO[n] = lo;
  }
}

const POW2 = Float64Array.from({ length: 2046 }, (_, i) => 2 ** (i - 1022)); // 2^-1022 .. 2^1023
const t = dd();
const w = dd();

// Beyond these, exp overflows or the result leaves the normal range.
const MAX_LN = 709.782712893384;
const MIN_LN = -708.3964185322641;
// Series terms from DD_TERMS on are below 2^-45 of the sum: plain doubles suffice there.
const DD_TERMS = 12;

/**
 * e^(y (lh + ll)) rounded once, where lh + ll is a double-double logarithm; NaN when the
 * result would leave the normal range (the caller then decides).
 */
export function expOfScaledLog(lh: number, ll: number, y: number): number {
  ddMul(lh, ll, y, 0, t);
  if (!(t[0] < MAX_LN && t[0] > MIN_LN)) return Number.NaN;
  const k = Math.round(t[0] / LN2_HI);
  // r = y ln x - k ln 2, in double-double.
  twoProd(k, LN2_HI, w);
  ddAdd(t[0], t[1], -w[0], -w[1], t);
  ddAdd(t[0], t[1], -k * LN2_LO, 0, t);
  const rh = t[0];
  const rl = t[1];
  let tail = FACT_HI[TERMS - 1];
  for (let n = TERMS - 2; n >= DD_TERMS; n--) tail = tail * rh + FACT_HI[n];
  let sh = tail;
  let sl = 0;
  for (let n = DD_TERMS - 1; n >= 0; n--) {
    ddMul(sh, sl, rh, rl, w);
    ddAdd(w[0], w[1], FACT_HI[n], FACT_LO[n], w);
    sh = w[0];
    sl = w[1];
  }
  // e^r in [0.70, 1.42] rounded once; scaling by 2^k is exact in the normal range.
  const scaled = (sh + sl) * POW2[k + 1022];
  return scaled < 2.2250738585072014e-308 ? Number.NaN : scaled;
}

const lnx = dd();

export function powCR(x: number, y: number): number {
  if (!(x > 0) || x === Infinity || !Number.isFinite(y)) return Math.pow(x, y);
  if (y === 0 || x === 1) return 1;
  if (y === 1) return x;
  logDD(x, lnx);
  const v = expOfScaledLog(lnx[0], lnx[1], y);
  return Number.isNaN(v) ? Math.pow(x, y) : v;
}
