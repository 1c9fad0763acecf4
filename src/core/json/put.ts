// Positional writers: each puts one token's digest-form bytes at `p` of a buffer the caller
// has made room in, and returns the position after it. The ByteSink methods and the
// schema-specialised request digest share them, so a number or a plain string is written
// by exactly one piece of code whichever path a document takes.
//
// Room: a plain string needs length + 2 bytes; a number at most MAX_FAST_NUMBER_BYTES.

/** Upper bound of what putFastNumber writes. */
export const MAX_FAST_NUMBER_BYTES = 32;

/**
 * `"text"` when every character is printable ASCII other than `"` and `\\` (no escaping
 * in any layout); -1 otherwise, leaving the bytes after `p` unspecified.
 */
export function putPlainQuoted(buf: Uint8Array, p: number, text: string): number {
  const n = text.length;
  buf[p++] = 0x22;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) return -1;
    buf[p++] = c;
  }
  buf[p++] = 0x22;
  return p;
}

// "00" … "99": two digits per division halves the divisions of long numbers.
const DIGIT_PAIRS = new Uint8Array(200);
for (let i = 0; i < 100; i++) {
  DIGIT_PAIRS[2 * i] = 0x30 + ((i / 10) | 0);
  DIGIT_PAIRS[2 * i + 1] = 0x30 + (i % 10);
}

/** A non-negative integer below 2^31, zero-padded to `width` digits (at least as many as it has). */
export function putDigits(buf: Uint8Array, p: number, value: number, width: number): number {
  const end = p + width;
  let q = end;
  while (q - p >= 2) {
    const next = (value / 100) | 0;
    const pair = (value - next * 100) << 1;
    buf[--q] = DIGIT_PAIRS[pair + 1];
    buf[--q] = DIGIT_PAIRS[pair];
    value = next;
  }
  if (q > p) buf[--q] = 0x30 + value;
  return end;
}

/** Decimal digits of a non-negative integer below 2^31. */
export function digitCount(v: number): number {
  if (v < 1e5) return v < 10 ? 1 : v < 100 ? 2 : v < 1000 ? 3 : v < 1e4 ? 4 : 5;
  return v < 1e6 ? 6 : v < 1e7 ? 7 : v < 1e8 ? 8 : v < 1e9 ? 9 : 10;
}

/** An integral value strictly between ±2^31, as Python prints an int (-0 prints `0`). */
export function putSmallInteger(buf: Uint8Array, p: number, n: number): number {
  if (n < 0) {
    buf[p++] = 0x2d;
    n = -n;
  }
  return putDigits(buf, p, n, digitCount(n));
}

/**
 * Python's repr of a float for the values market data mostly holds — at most six
 * fractional digits and a magnitude in [1e-4, 1e9) — written digit by digit; -1 for any
 * other value (the caller then prints it with floatText). Same test and same text as
 * floatText's fast path (see format.ts for why the text is the shortest round trip).
 */
export function putSixDecimalFloat(buf: Uint8Array, p: number, n: number): number {
  const a = n < 0 ? -n : n;
  if (!(a >= 1e-4 && a < 1e9)) return -1;
  const scaled = Math.round(a * 1e6);
  if (scaled / 1e6 !== a) return -1;
  // `scaled` is an integer below 1e15, so % and the division below are exact.
  let fraction = scaled % 1e6;
  const whole = (scaled - fraction) / 1e6;
  if (n < 0) buf[p++] = 0x2d;
  p = putDigits(buf, p, whole, digitCount(whole));
  buf[p++] = 0x2e;
  // Six fractional digits without their trailing zeros, at least one digit.
  if (fraction === 0) {
    buf[p] = 0x30;
    return p + 1;
  }
  let width = 6;
  while (fraction % 10 === 0) {
    fraction /= 10;
    width--;
  }
  return putDigits(buf, p, fraction, width);
}

/**
 * A JSON number whose token kind needs no side table — non-integral values, and integral
 * ones read from integer tokens — or null; -1 when the value needs the general printers
 * (other floats, integers beyond ±2^31, anything not a number or null).
 */
export function putFastNumber(buf: Uint8Array, p: number, v: unknown): number {
  if (typeof v === 'number') {
    if (Number.isInteger(v)) return v > -2147483648 && v < 2147483648 ? putSmallInteger(buf, p, v) : -1;
    return putSixDecimalFloat(buf, p, v);
  }
  if (v === null) {
    buf[p] = 0x6e;
    buf[p + 1] = 0x75;
    buf[p + 2] = 0x6c;
    buf[p + 3] = 0x6c;
    return p + 4;
  }
  return -1;
}
