// JSON numbers as the reference holds them. Python keeps the lexical kind of every token:
// an int token (no `.`, `e`, `E`) is an exact integer of any size, a float token a double.
// Arithmetic on two ints is exact (`-` and `+`), `/` of two ints is correctly rounded, and
// comparisons between an int and a float compare the exact values; only an operation that
// mixes an int with a float turns the int into its nearest double first.
//
// Plain doubles give the same results except when an int token is too large for its double
// to be exact (beyond ±2^53), or when a sum of two ints is (beyond 2^53), and for the int
// token `-0`, which is the int 0 (the reader hands it over as the double -0). The helpers
// below detect those cases so that the common path stays on plain doubles.
import { isFloatToken, rawIntegerOf } from '../../core/json.js';

/** A number as Python holds it: bigint for an int, number for a float. */
export type PyNumber = bigint | number;

const TWO_52 = 4503599627370496;

/**
 * The member as Python holds it. `container[key]` must be a number; an int token comes back
 * as its exact bigint (the reader's `-0` as 0n), a float token as the double.
 */
export function pyNumberOf(container: object, key: string | number): PyNumber {
  const value = (container as Record<string | number, number>)[key];
  if (!Number.isInteger(value) || isFloatToken(container, key)) return value;
  const digits = rawIntegerOf(container, key);
  return digits === undefined ? BigInt(value) : BigInt(digits);
}

/**
 * Whether a value read from a number member might be held differently by Python than by
 * its double: an integral value of magnitude 2^52 or more (an int token there may be
 * inexact, or its sums may be), or a negative zero (the int token `-0` is 0). Callers
 * take the exact route, which asks the token's kind, only then.
 */
export function mayDifferFromDouble(value: number): boolean {
  return value >= TWO_52 || value <= -TWO_52 || Object.is(value, -0);
}

/**
 * The member's value as a double the way Python converts it for float arithmetic
 * (`float(int)` is the nearest double; the int `-0` is +0.0). Use where the reference
 * mixes a token with floats or reports it as a float.
 */
export function pyFloatOf(container: object, key: string | number): number {
  const value = (container as Record<string | number, number>)[key];
  if (Object.is(value, -0) && !isFloatToken(container, key)) return 0;
  return value;
}

/** `float(x)`: the nearest double (Number(bigint) rounds half to even, as CPython does). */
export function toDouble(x: PyNumber): number {
  return typeof x === 'bigint' ? Number(x) : x;
}

export function pyAdd(a: PyNumber, b: PyNumber): PyNumber {
  if (typeof a === 'bigint' && typeof b === 'bigint') return a + b;
  return toDouble(a) + toDouble(b);
}

export function pySub(a: PyNumber, b: PyNumber): PyNumber {
  if (typeof a === 'bigint' && typeof b === 'bigint') return a - b;
  return toDouble(a) - toDouble(b);
}

/** `a / b` (true division): correctly rounded for two ints, float division otherwise. */
export function pyDiv(a: PyNumber, b: PyNumber): number {
  if (typeof a === 'bigint' && typeof b === 'bigint') return intTrueDivide(a, b);
  return toDouble(a) / toDouble(b);
}

/** Three-way comparison of the exact values (Python's int/float comparisons are exact). */
export function pyCompare(a: PyNumber, b: PyNumber): number {
  if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'bigint' && typeof b === 'bigint') return a < b ? -1 : a > b ? 1 : 0;
  return typeof a === 'bigint' ? compareIntFloat(a, b as number) : -compareIntFloat(b as bigint, a);
}

function compareIntFloat(i: bigint, f: number): number {
  if (f === Infinity) return -1;
  if (f === -Infinity) return 1;
  const floor = Math.floor(f);
  const whole = BigInt(floor);
  if (i < whole) return -1;
  if (i > whole) return 1;
  // i == floor(f): equal when f is integral, else f is larger.
  return floor === f ? 0 : -1;
}

function bitLength(n: bigint): number {
  return n === 0n ? 0 : n.toString(2).length;
}

/**
 * `a / b` for Python ints: the exact quotient rounded once to the nearest double (ties to
 * even), subnormal results included; ±Infinity where Python raises OverflowError.
 */
export function intTrueDivide(a: bigint, b: bigint): number {
  if (b === 0n) throw new RangeError('division by zero');
  // CPython: 0 / -5 is -0.0 (the int 0 has no sign; the divisor's decides).
  if (a === 0n) return b < 0n ? -0 : 0;
  const negative = (a < 0n) !== (b < 0n);
  const n = a < 0n ? -a : a;
  const d = b < 0n ? -b : b;
  // 2^(e-1) <= n/d < 2^(e+1) for e = bitLength(n) - bitLength(d). Scale by 2^s so that at
  // least two bits below the result's last place are in the integer quotient.
  const e = bitLength(n) - bitLength(d);
  const s = Math.min(55 - e, 1076);
  const scaled = s >= 0 ? n << BigInt(s) : n;
  const divisor = s >= 0 ? d : d << BigInt(-s);
  const q = scaled / divisor;
  const sticky = scaled % divisor !== 0n;
  // The result's exponent and the exponent of its last place (2^-1074 for subnormals).
  const exponent = bitLength(q) - 1 - s;
  const last = Math.max(exponent - 52, -1074);
  if (exponent > 1023) return negative ? -Infinity : Infinity;
  const drop = BigInt(last + s);
  let mantissa = q >> drop;
  const rest = q - (mantissa << drop);
  const half = 1n << (drop - 1n);
  if (rest > half || (rest === half && (sticky || (mantissa & 1n) === 1n))) mantissa += 1n;
  const value = Number(mantissa) * 2 ** last;
  return negative ? -value : value;
}
