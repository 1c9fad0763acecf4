// Python's `'%g'` and `'%.Nf'` for doubles: decimal rounding of the exact binary value,
// ties to even, as C's printf does. JS's toPrecision/toFixed round exact ties away from
// zero (0.0009765625 -> '0.000976563' where Python prints '0.000976562'). Used only to put
// numbers into sentences, so simplicity wins over speed: exact BigInt arithmetic.
import { decompose } from './exact-decimal.js';

/** |x| = digits * 10^-scale exactly (digits without leading zeros; "0" for zero). */
function exactDecimal(x: number): { digits: bigint; scale: number } {
  const { mantissa, exponent } = decompose(x);
  if (exponent >= 0) return { digits: mantissa << BigInt(exponent), scale: 0 };
  return { digits: mantissa * 5n ** BigInt(-exponent), scale: -exponent };
}

/** digits / 10^drop rounded half-even. */
function roundAway(digits: bigint, drop: number): bigint {
  if (drop <= 0) return digits * 10n ** BigInt(-drop);
  const unit = 10n ** BigInt(drop);
  const head = digits / unit;
  const rest = digits % unit;
  const twice = rest * 2n;
  if (twice > unit || (twice === unit && head % 2n === 1n)) return head + 1n;
  return head;
}

function signOf(x: number): string {
  return x < 0 || Object.is(x, -0) ? '-' : '';
}

/** `'%.<places>f' % x`. */
export function formatFixed(x: number, places: number): string {
  if (!Number.isFinite(x)) return String(x);
  const { digits, scale } = exactDecimal(x);
  const rounded = roundAway(digits, scale - places).toString();
  if (places === 0) return signOf(x) + rounded;
  const padded = rounded.padStart(places + 1, '0');
  return `${signOf(x)}${padded.slice(0, -places)}.${padded.slice(-places)}`;
}

/** `'%.<precision>g' % x` (Python's `'%g'` is precision 6). */
export function formatGeneral(x: number, precision = 6): string {
  if (!Number.isFinite(x)) return String(x);
  const p = Math.max(precision, 1);
  const sign = signOf(x);
  if (x === 0) return `${sign}0`;
  const { digits, scale } = exactDecimal(x);
  const length = digits.toString().length;
  let exponent = length - 1 - scale;
  let head = roundAway(digits, length - p);
  if (head.toString().length > p) {
    head /= 10n;
    exponent += 1;
  }
  const text = head.toString();
  if (exponent >= -4 && exponent < p) {
    let body: string;
    if (exponent >= 0) {
      body = text.slice(0, exponent + 1) + '.' + text.slice(exponent + 1);
    } else {
      body = '0.' + '0'.repeat(-exponent - 1) + text;
    }
    return sign + stripZeros(body);
  }
  const mantissa = stripZeros(text[0] + '.' + text.slice(1));
  const e = Math.abs(exponent).toString().padStart(2, '0');
  return `${sign}${mantissa}e${exponent < 0 ? '-' : '+'}${e}`;
}

function stripZeros(s: string): string {
  if (!s.includes('.')) return s;
  return s.replace(/0+$/, '').replace(/\.$/, '');
}
