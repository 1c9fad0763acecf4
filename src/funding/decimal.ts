// Exact decimal arithmetic for publisher values.
//
// Publisher numbers must reach the packet with the precision the publisher printed:
// 2,930,193 millions is 2930.193 billions, not 2930.1929999…, and two repo operations
// of 500,000 dollars sum to exactly 0.001 billions. Doing the unit conversion in binary
// floating point would round twice, so values are kept as an integer coefficient and a
// power-of-ten scale (BigInt, no precision limit) and turned into a double only once,
// at the end, through their exact decimal text (which `Number()` rounds correctly).

/** value = units / 10^scale, with scale ≥ 0. Not normalised: 1.50 is {150n, 2}. */
export interface Decimal {
  readonly units: bigint;
  readonly scale: number;
}

export interface DecimalTextOptions {
  /**
   * Accept `,` between groups of three integer digits (`2,930,193`). Only for formats
   * that print separators; a separator anywhere else is still refused.
   */
  readonly thousandsSeparators?: boolean;
}

const PLAIN = /^(-?)([0-9]+)(?:\.([0-9]+))?$/;
const GROUPED = /^(-?)([0-9]{1,3}(?:,[0-9]{3})+|[0-9]+)(?:\.([0-9]+))?$/;
// The forms `String(number)` produces for a finite double: digits, optional fraction,
// optional exponent (`1e-7`, `1.5e+21`).
const NUMBER_TEXT = /^(-?)([0-9]+)(?:\.([0-9]+))?(?:e([+-][0-9]+))?$/;

function fromParts(sign: string, whole: string, fraction: string | undefined, exponent = 0): Decimal {
  const frac = fraction ?? '';
  let units = BigInt(whole + frac);
  let scale = frac.length - exponent;
  if (scale < 0) {
    units *= 10n ** BigInt(-scale);
    scale = 0;
  }
  return { units: sign === '-' ? -units : units, scale };
}

/**
 * Strict decimal text → Decimal, or null when the text is not a plain decimal number.
 * Surrounding whitespace is ignored. Refused: empty text, `.`, `5.`, `.5`, a `+` sign,
 * exponents, `NA`, `NaN`, `Infinity` and any other word.
 */
export function parseDecimalText(text: string, options: DecimalTextOptions = {}): Decimal | null {
  const trimmed = text.trim();
  const m = (options.thousandsSeparators ? GROUPED : PLAIN).exec(trimmed);
  if (!m) return null;
  return fromParts(m[1], m[2].replace(/,/g, ''), m[3]);
}

/**
 * A finite double → the Decimal of its shortest round-trip text (the digits JSON
 * publishers meant: 3.9 is 3.9, not 3.899999999999999911…). NaN and ±Infinity → null.
 */
export function decimalFromNumber(value: number): Decimal | null {
  if (!Number.isFinite(value)) return null;
  const m = NUMBER_TEXT.exec(String(value));
  if (!m) return null; // unreachable for finite doubles; kept so a surprise cannot pass
  return fromParts(m[1], m[2], m[3], m[4] === undefined ? 0 : Number(m[4]));
}

/** A JSON value → Decimal: only a finite number qualifies (never null, a boolean or text). */
export function decimalFromJsonValue(value: unknown): Decimal | null {
  return typeof value === 'number' ? decimalFromNumber(value) : null;
}

/** Exact division by 10^k (k ≥ 0): ÷1000 turns millions into billions. */
export function divideByPowerOfTen(d: Decimal, k: number): Decimal {
  if (!Number.isInteger(k) || k < 0) throw new RangeError(`power of ten must be a non-negative integer, got ${k}`);
  return { units: d.units, scale: d.scale + k };
}

function aligned(a: Decimal, b: Decimal): [bigint, bigint, number] {
  const scale = Math.max(a.scale, b.scale);
  return [a.units * 10n ** BigInt(scale - a.scale), b.units * 10n ** BigInt(scale - b.scale), scale];
}

export function addDecimals(a: Decimal, b: Decimal): Decimal {
  const [x, y, scale] = aligned(a, b);
  return { units: x + y, scale };
}

export function compareDecimals(a: Decimal, b: Decimal): -1 | 0 | 1 {
  const [x, y] = aligned(a, b);
  return x < y ? -1 : x > y ? 1 : 0;
}

export function isNegativeDecimal(d: Decimal): boolean {
  return d.units < 0n;
}

export function isIntegralDecimal(d: Decimal): boolean {
  return d.units % 10n ** BigInt(d.scale) === 0n;
}

/**
 * Canonical text: plain positional notation, no exponent, no trailing fractional zeros,
 * `0` for any zero (`2930.193`, `0.001`, `0.0000001`, `-1.5`).
 */
export function formatDecimal(d: Decimal): string {
  let units = d.units < 0n ? -d.units : d.units;
  let scale = d.scale;
  while (scale > 0 && units % 10n === 0n) {
    units /= 10n;
    scale -= 1;
  }
  if (units === 0n) return '0';
  let digits = units.toString();
  if (scale > 0) {
    if (digits.length <= scale) digits = '0'.repeat(scale - digits.length + 1) + digits;
    digits = `${digits.slice(0, digits.length - scale)}.${digits.slice(digits.length - scale)}`;
  }
  return d.units < 0n ? `-${digits}` : digits;
}

/**
 * The IEEE double nearest to the exact value (ties to even). `Number()` on decimal text
 * is correctly rounded in V8, so the only rounding in the whole path happens here.
 */
export function decimalToNumber(d: Decimal): number {
  return Number(formatDecimal(d));
}
