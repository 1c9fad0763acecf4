// Correctly rounded exponential (round to nearest, ties to even), for the same reason and
// by the same method as numeric/log.ts: V8's Math.exp differs from the C library's exp
// (the reference's, through CPython's math.exp) in the last bit on about 10 % of
// arguments; glibc's exp departs from correct rounding only on rare near-ties.
//
// Fast path: x = k*ln2/128 + r with |r| <= ln2/256 (r as a double-double: the 34-bit head
// of ln2/128 times k is exact), exp(x) = 2^(k>>7) * 2^((k&127)/128) * exp(r), the power
// from a table of double-doubles, exp(r) by its Taylor series to r^7. Its error is below
// 2^-73 of the result; when that cannot decide the rounding, or the result is subnormal,
// an exact BigInt evaluation decides.
import { intTrueDivide } from './py-number.js';
import { EXP2_HI, EXP2_LO, LN2_128_HI, LN2_128_LO } from './log-table.generated.js';
import { ln2Fixed } from './log.js';

const SPLIT_27 = 134217729;
const INV_LN2_128 = 184.6649652337873; // 128 / ln 2 (any nearby value works: r stays small)
const BOUND = 2 ** -72;
const OVERFLOW = 709.782712893384; // above: the result exceeds the largest double
const UNDERFLOW = -745.1332191019412; // below: the result rounds to 0
const NORMAL_MIN = -708.3964185322641; // below: the result is subnormal (slow path)

/** Correctly rounded e^x; Infinity above ~709.78, 0 below ~-745.13, NaN for NaN. */
export function expCorrectlyRounded(x: number): number {
  if (!(x > NORMAL_MIN && x < OVERFLOW)) {
    if (x !== x) return x;
    if (x >= OVERFLOW) return x > OVERFLOW + 1 ? Infinity : expSlow(x);
    if (x <= UNDERFLOW - 1) return 0;
    return expSlow(x);
  }
  const k = Math.round(x * INV_LN2_128);
  // r = x - k*ln2/128: x - k*HI is exact (k*HI has at most 52 bits and lies within a
  // factor 2 of x, or k = 0); the tail adds k*LO.
  const rh0 = x - k * LN2_128_HI;
  const rl0 = -k * LN2_128_LO;
  const rh = rh0 + rl0;
  const rl = rl0 - (rh - rh0);
  const j = k & 127;
  const power = (k - j) / 128;
  // e^r - 1 = (rh + rh^2/2) + (rl + rh*rl + rh^3 (1/6 + rh/24 + ... + rh^4/5040)), the
  // first part as a double-double qh + ql (rh^2 = sh + sl exactly).
  let t = SPLIT_27 * rh;
  const hh = t - (t - rh);
  const hl = rh - hh;
  const sh = rh * rh;
  const sl = hh * hh - sh + 2 * hh * hl + hl * hl;
  const tail = sh * rh * (1 / 6 + rh * (1 / 24 + rh * (1 / 120 + rh * (1 / 720 + rh / 5040))));
  const a = 0.5 * sh;
  const qh = rh + a;
  let v = qh - rh;
  const ql = rh - (qh - v) + (a - v);
  const qlo = ql + rl + 0.5 * sl + rh * rl + tail;
  // 2^(j/128) * e^r = th + th*qh + th*qlo + tl*(1 + qh), with th*qh taken exactly.
  const th = EXP2_HI[j];
  const tl = EXP2_LO[j];
  t = SPLIT_27 * th;
  const ah = t - (t - th);
  const al = th - ah;
  t = SPLIT_27 * qh;
  const bh = t - (t - qh);
  const bl = qh - bh;
  const ph = th * qh;
  const pl = ah * bh - ph + ah * bl + al * bh + al * bl;
  const s = th + ph;
  v = s - th;
  const err = th - (s - v) + (ph - v);
  const lo = err + pl + th * qlo + tl * (1 + qh);
  const r = s + lo;
  const rest = lo - (r - s);
  const margin = BOUND * r;
  if (r + (rest + margin) === r && r + (rest - margin) === r) {
    // Scaling by a power of two is exact here (the result is normal); 2^1024 itself is not
    // a double, so the top binade takes two steps.
    return power > 1023 ? r * 2 * 2 ** (power - 1) : r * 2 ** power;
  }
  return expSlow(x);
}

/**
 * e^x by BigInt fixed point: x = k ln2 + r, |r| <= ln2/2, e^r by its Taylor series; the
 * result rounded once (subnormals included) when both ends of its error interval round
 * alike, else again with twice the precision.
 */
export function expSlow(x: number): number {
  if (x !== x) return x;
  if (x === 0) return 1;
  if (x > 710) return Infinity;
  if (x < -746) return 0;
  for (let bits = 192; ; bits *= 2) {
    const one = 1n << BigInt(bits);
    const xf = fixedOf(x, bits);
    const ln2 = ln2Fixed(bits);
    // k = round(x / ln2)
    let k = (xf + ln2 / 2n) / ln2;
    if (xf + ln2 / 2n < 0n && (xf + ln2 / 2n) % ln2 !== 0n) k -= 1n;
    const r = xf - k * ln2;
    let term = one;
    let sum = one;
    for (let n = 1n; term !== 0n; n++) {
      term = (term * r) / one / n;
      sum += term;
    }
    // Error: < 2 units per term (< 2^8), plus |k| * 2^8 from ln 2 (< 2^18).
    const slack = 1n << 20n;
    const shift = Number(k) - bits;
    const low = scaledToDouble(sum - slack, shift);
    const high = scaledToDouble(sum + slack, shift);
    if (low === high) return low;
  }
}

/** x * 2^bits, truncated toward zero. */
function fixedOf(x: number, bits: number): bigint {
  // Every double is m * 2^e exactly with |m| < 2^53.
  let e = 0;
  let m = x;
  while (!Number.isInteger(m)) {
    m *= 2;
    e--;
  }
  const big = BigInt(m);
  const s = bits + e;
  return s >= 0 ? big << BigInt(s) : big / (1n << BigInt(-s));
}

/** The double nearest to n * 2^shift (n > 0), subnormals and overflow included. */
function scaledToDouble(n: bigint, shift: number): number {
  if (shift >= 0) return intTrueDivide(n << BigInt(shift), 1n);
  return intTrueDivide(n, 1n << BigInt(-shift));
}
