// `float('%.15g' % x)`: the double nearest to x rounded to 15 significant digits, with
// Python's half-even treatment of exact decimal ties. `Number(x.toPrecision(15))` rounds
// such ties away from zero, and is also slow enough to matter on 65 000-point panels.
import { type Pair, newPair, twoSum } from './eft.js';
import { compareScaled, fromScaled, scaledHalfEven } from './exact-decimal.js';

export class NonFiniteStatisticError extends RangeError {
  constructor() {
    super('a derived statistic is not finite');
    this.name = 'NonFiniteStatisticError';
  }
}

/** 10^0 .. 10^22, every one exactly representable. */
export const EXACT_POW10: readonly number[] = Array.from({ length: 23 }, (_, i) => Number(`1e${i}`));

const sum: Pair = newPair();

/**
 * Nearest integer to the exact value hi + lo (half-even), for 0 <= hi < 2^52 and
 * |lo| <= ulp(hi) / 2, as produced by twoProduct.
 */
export function roundPairHalfEven(hi: number, lo: number): number {
  const floor = Math.floor(hi);
  // hi - floor is exact; the two-sum makes the comparison with one half exact as well.
  twoSum(hi - floor, lo, sum);
  const f = sum[0];
  const e = sum[1];
  if (f > 0.5 || (f === 0.5 && e > 0)) return floor + 1;
  if (f < 0.5 || e < 0) return floor;
  return floor % 2 === 0 ? floor : floor + 1;
}

const SPLITTER = 134217729; // 2^27 + 1
const LOG10_2 = 0.3010299956639812;

const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);
const HI = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 1 : 0; // little-endian: high word second

/** `float('%.15g' % x)`; throws NonFiniteStatisticError for inf/nan. */
export function round15(x: number): number {
  if (!Number.isFinite(x)) throw new NonFiniteStatisticError();
  if (x === 0) return x;
  const a = Math.abs(x);
  // Decimal exponent estimate from the binary one, corrected against the exact scaled
  // value below: floor(b * log10(2)) is floor(log10(a)) or one less for a in [2^b, 2^(b+1)),
  // and one extra attempt is cheaper than Math.log10.
  f64[0] = a;
  let e = Math.floor((((u32[HI] >>> 20) & 0x7ff) - 1023) * LOG10_2);
  // Veltkamp split of a, shared by every attempt (the error-free product is inlined:
  // this runs once per interval value of a panel).
  let t = SPLITTER * a;
  const ah = t - (t - a);
  const al = a - ah;
  for (let attempt = 0; attempt < 3; attempt++) {
    const k = 14 - e;
    if (k < 0 || k > 22) break;
    const scale = EXACT_POW10[k];
    // a * 10^k = hi + lo exactly.
    const hi = a * scale;
    t = SPLITTER * scale;
    const bh = t - (t - scale);
    const bl = scale - bh;
    const lo = ((ah * bh - hi) + ah * bl + al * bh) + al * bl;
    if (hi < 1e14 || (hi === 1e14 && lo < 0)) {
      e -= 1;
      continue;
    }
    if (hi > 1e15 || (hi === 1e15 && lo > 0)) {
      e += 1;
      continue;
    }
    // Nearest integer to hi + lo, half-even; hi - floor is exact.
    const floor = Math.floor(hi);
    const d = hi - floor;
    let n: number;
    if (Math.abs(d - 0.5) > Math.abs(lo)) {
      // The usual case, decided without a data-dependent branch: hi lies in [1e14, 1e15],
      // so d is a multiple of 2^-6 and d - 0.5 is exact, and lo cannot carry d across
      // one half.
      n = floor + +(d > 0.5);
    } else {
      // Near one half: the two-sum keeps the comparison with one half exact.
      const f = d + lo;
      const bb = f - d;
      const err = (d - (f - bb)) + (lo - bb);
      if (f > 0.5 || (f === 0.5 && err > 0)) n = floor + 1;
      else if (f < 0.5 || err < 0) n = floor;
      else n = floor % 2 === 0 ? floor : floor + 1;
    }
    // n / 10^k with both operands exact is one correctly rounded division, which is
    // what parsing the 15-digit decimal string yields; rounding is symmetric, so dividing
    // by -10^k negates it (and spares a branch on the sign).
    return n / (x < 0 ? -scale : scale);
  }
  return round15Exact(x);
}

const E14 = 10n ** 14n;
const E15 = 10n ** 15n;

function round15Exact(x: number): number {
  const a = Math.abs(x);
  let e = Math.floor(Math.log10(a));
  for (;;) {
    // The exponent is settled on the exact value, 10^e <= a < 10^(e+1), before rounding:
    // judged on the rounded digits, a value just below 10^e whose 15 digits round up to
    // 10^e would be rounded at the wrong place (9.999999999999965e-17 became 1e-16).
    const k = 14 - e;
    if (compareScaled(a, k, E14) < 0) e -= 1;
    else if (compareScaled(a, k, E15) >= 0) e += 1;
    else return fromScaled(scaledHalfEven(a, k), k, x < 0);
  }
}
