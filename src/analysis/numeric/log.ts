// Correctly rounded natural logarithm (round to nearest, ties to even).
//
// The reference takes logs with the C library's `log` through CPython's math.log; V8's
// Math.log differs from it by one ulp on 0.4-0.7 % of inputs, and on a smooth geometric
// price path the log returns are pure rounding noise, so one ulp there moves a reported
// correlation in its second digit. glibc's log is within a hair of correct rounding (its
// only departures are inputs whose logarithm lies within ~1e-4 ulp of a midpoint between
// two doubles, about 4 in 100 000), so a correctly rounded log is the closest portable
// match. See test/analysis/numeric/log.test.ts for the CPython fixture.
//
// Method (Ziv): a double-double evaluation with a proven error bound, accepted when the
// bound cannot straddle a rounding boundary; otherwise (about once in 10^7 calls on
// price-like inputs, more often just around x = 1) an exact fixed-point evaluation in
// BigInt arithmetic, repeated at higher precision until it decides. The fast path:
//   x = 2^E * m, m in [1, 2); c ~ 1/m from a 128-entry table (21-bit values, so the
//   products below are exact); z = m*c - 1 exactly as a double-double, |z| < 2^-7.99;
//   ln x = E*ln2 + (-ln c) + log1p(z), log1p by its Taylor series to z^9.
// Inputs within 2^-8 of 1 use log1p(x - 1) directly (x - 1 is exact there).
import { INV, LN2_HI, LN2_LO, NEG_LOG_HI, NEG_LOG_LO } from './log-table.generated.js';

const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);
const LITTLE = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
const HI = LITTLE ? 1 : 0;
const LO = LITTLE ? 0 : 1;

// SCALE[1023 - e] = 2^-e for every normal binary exponent e (2^-1023 is subnormal but
// exact), so that x * SCALE[1023 - e] is x's significand in [1, 2), exactly.
const SCALE = new Float64Array(2047);
for (let e = -1022; e <= 1023; e++) SCALE[1023 - e] = 2 ** -e;

const SPLIT_27 = 134217729; // 2^27 + 1: Veltkamp split into 26 + 27 bits
const SPLIT_32 = 4294967297; // 2^32 + 1: head of 21 bits, tail of 32
const TWO_54 = 18014398509481984;
const NEAR_ONE = 0.00390625; // 2^-8

// Error bounds of the fast paths: absolute for the table path (whose results are at least
// 2^-8 in magnitude; analysis below, about 2^-76.5, rounded up), relative to |x - 1| near 1
// (about 2^-68.6, rounded up).
const TABLE_BOUND = 2 ** -74;
const NEAR_ONE_BOUND = 2 ** -66;

/** Correctly rounded ln(x); NaN below 0 and for NaN, -Infinity at 0, like C's log. */
export function logCorrectlyRounded(x: number): number {
  if (!(x > 0) || x === Infinity) {
    if (x === 0) return -Infinity;
    return x === Infinity ? Infinity : NaN;
  }
  const d = x - 1;
  let r: number;
  if (d < NEAR_ONE && d > -NEAR_ONE) {
    if (d === 0) return 0;
    r = nearOne(d);
  } else {
    // A subnormal is scaled into the normal range first (x < 2^-1022 exactly then).
    r = x < 2.2250738585072014e-308 ? tablePath(x * TWO_54, -54) : tablePath(x, 0);
  }
  return r === r ? r : logSlow(x);
}

/**
 * hi + lo (|lo| <= ulp(hi)) is known to lie within `bound` of the true value: the double
 * nearest to the true value when both ends of that interval round to the same double
 * (rounding is monotonic), else NaN.
 */
function decide(hi: number, lo: number, bound: number): number {
  const r = hi + lo;
  const rest = lo - (r - hi); // exact (fast two-sum: |hi| >= |lo|)
  // The endpoints are computed a little wide of the interval (bound carries margin), so
  // rounding them cannot pull either inside.
  return r + (rest + bound) === r && r + (rest - bound) === r ? r : NaN;
}

/** log1p(d) for 0 < |d| < 2^-8, d = x - 1 (exact). */
function nearOne(d: number): number {
  // d^2 = sh + sl exactly (Dekker).
  let t = SPLIT_27 * d;
  const dh = t - (t - d);
  const dl = d - dh;
  const sh = d * d;
  const sl = dh * dh - sh + 2 * dh * dl + dl * dl;
  // d - d^2/2 as a double-double.
  const a = -0.5 * sh;
  const s = d + a;
  const bb = s - d;
  const e = d - (s - bb) + (a - bb);
  // d^3 (1/3 - d/4 + d^2/5 - ... + d^8/11): rounding error below 2^-68.6 |d|, the
  // truncation below 2^-85 |d|.
  const tail =
    sh *
    d *
    (1 / 3 +
      d * (-1 / 4 + d * (1 / 5 + d * (-1 / 6 + d * (1 / 7 + d * (-1 / 8 + d * (1 / 9 + d * (-1 / 10 + d / 11))))))));
  t = e - 0.5 * sl + tail;
  return decide(s, t, NEAR_ONE_BOUND * (d < 0 ? -d : d));
}

/** ln(y) + shift * ln 2 for a normal y (shift is -54 for a scaled subnormal, else 0). */
function tablePath(y: number, shift: number): number {
  f64[0] = y;
  const word = u32[HI];
  const biased = word >>> 20; // y > 0 and normal
  const exponent = biased - 1023 + shift;
  const i = (word >>> 13) & 0x7f;
  // The significand m in [1, 2), split into a 21-bit head and a 32-bit tail.
  const m = y * SCALE[2046 - biased];
  let t = SPLIT_32 * m;
  const mh = t - (t - m);
  const ml = m - mh;
  const c = INV[i];
  // z = m*c - 1 = (mh*c - 1) + ml*c: both products exact (21x21 and 32x21 bits), the
  // subtraction exact (Sterbenz), and their sum held exactly as zh + zl, |z| < 2^-7.99.
  const p = mh * c - 1;
  const q = ml * c;
  const zh = p + q;
  const bq = zh - p;
  const zl = p - (zh - bq) + (q - bq);
  // zh^2 = sh + sl exactly.
  t = SPLIT_27 * zh;
  const hh = t - (t - zh);
  const hl = zh - hh;
  const sh = zh * zh;
  const sl = hh * hh - sh + 2 * hh * hl + hl * hl;
  // log1p(z) = z - z^2/2 + z^3 (1/3 - z/4 + ... + z^6/9): the tail's rounding error is
  // below 2^-76.6, the truncation below 2^-83.
  const tail = sh * zh * (1 / 3 + zh * (-1 / 4 + zh * (1 / 5 + zh * (-1 / 6 + zh * (1 / 7 + zh * (-1 / 8 + zh / 9))))));
  // High parts summed without error: E*LN2_HI is exact (42-bit head, |E| < 2^11).
  const a = exponent * LN2_HI;
  const b = NEG_LOG_HI[i];
  let s = a + b;
  let v = s - a;
  let err = a - (s - v) + (b - v);
  let prev = s;
  s = prev + zh;
  v = s - prev;
  err += prev - (s - v) + (zh - v);
  const half = -0.5 * sh;
  prev = s;
  s = prev + half;
  v = s - prev;
  err += prev - (s - v) + (half - v);
  // z = zh + zl: -z^2/2 adds -zh*zl, and the cubic term's slope z^2 adds sh*zl. The
  // table's tails (-ln c_i, ln 2) are good to 2^-106 and 2^-95 relative.
  const lo = err + exponent * LN2_LO + NEG_LOG_LO[i] + zl - 0.5 * sl - zh * zl + sh * zl + tail;
  return decide(s, lo, TABLE_BOUND);
}

// --- Slow path: fixed-point BigInt evaluation ------------------------------------------

let ln2Bits = 0;
let ln2Cached = 0n;

/** ln 2 * 2^bits, truncated (error below 2^8 units); shared with exp's slow path. */
export function ln2Fixed(bits: number): bigint {
  if (ln2Bits < bits) {
    ln2Bits = bits;
    ln2Cached = atanhSeries(1n, 3n, bits);
  }
  return ln2Cached >> BigInt(ln2Bits - bits);
}

/**
 * 2 atanh(num/den) * 2^bits = ln((den + num)/(den - num)) * 2^bits for |num/den| <= 1/3,
 * each step truncated toward zero: the error stays below 2 units per term.
 */
function atanhSeries(num: bigint, den: bigint, bits: number): bigint {
  const one = 1n << BigInt(bits);
  const s = (num * one) / den;
  const s2 = (s * s) / one;
  let power = s;
  let sum = 0n;
  for (let k = 1n; power !== 0n; k += 2n) {
    sum += power / k;
    power = (power * s2) / one;
  }
  return 2n * sum;
}

function bitLength(n: bigint): number {
  return n.toString(2).length;
}

/** The exact significand and exponent of a positive finite double: x = mantissa * 2^exponent. */
function decompose(x: number): { mantissa: bigint; exponent: number } {
  f64[0] = x;
  const hi = u32[HI];
  const lo = u32[LO];
  const biased = (hi >>> 20) & 0x7ff;
  const top = hi & 0xfffff;
  let mantissa = (BigInt(top) << 32n) | BigInt(lo);
  let exponent: number;
  if (biased === 0) exponent = -1074;
  else {
    mantissa |= 1n << 52n;
    exponent = biased - 1075;
  }
  return { mantissa, exponent };
}

/**
 * ln(x) by BigInt fixed point: x = M * 2^e = m * 2^E with m in [sqrt(1/2), sqrt(2)),
 * ln m = 2 atanh((m - 1)/(m + 1)). Each attempt bounds its error and checks that both ends
 * of the error interval round to the same double; precision doubles until they do (ln x is
 * transcendental for x != 1, so it is never exactly on a rounding boundary).
 */
export function logSlow(x: number): number {
  if (!(x > 0) || x === Infinity || x === 1) return logCorrectlyRounded(x);
  const { mantissa, exponent } = decompose(x);
  const length = bitLength(mantissa);
  // m = mantissa / 2^(length - 1) in [1, 2), or half that when m >= sqrt(2).
  let top = 1n << BigInt(length - 1);
  let e = exponent + length - 1;
  if (mantissa * mantissa >= 2n * top * top) {
    top <<= 1n;
    e += 1;
  }
  for (let bits = 192; ; bits *= 2) {
    const lnm = atanhSeries(mantissa - top, mantissa + top, bits);
    const value = lnm + BigInt(e) * ln2Fixed(bits);
    // Error: series < 2^9 units, ln 2 < 2^8 units times |E| <= 1100.
    const slack = 1n << 20n;
    const low = toDoubleScaled(value - slack, bits);
    const high = toDoubleScaled(value + slack, bits);
    if (low === high) return low;
  }
}

/** The double nearest to n / 2^bits (|n / 2^bits| in the normal range). */
function toDoubleScaled(n: bigint, bits: number): number {
  const negative = n < 0n;
  const a = negative ? -n : n;
  const length = bitLength(a);
  // Keep 53 bits plus a sticky bit, so that Number() rounds once and correctly.
  const drop = length - 55;
  let head: bigint;
  if (drop > 0) {
    head = a >> BigInt(drop);
    if ((head << BigInt(drop)) !== a) head |= 1n;
  } else head = a;
  const value = Number(head) * 2 ** (Math.max(drop, 0) - bits);
  return negative ? -value : value;
}
