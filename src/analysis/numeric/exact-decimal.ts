// Exact decimal rounding of a double via BigInt. Slow, so only used where a fast
// floating-point path cannot decide (ties and out-of-range magnitudes).

const view = new DataView(new ArrayBuffer(8));

/** |x| = mantissa * 2^exponent exactly, for finite x. */
export function decompose(x: number): { mantissa: bigint; exponent: number } {
  view.setFloat64(0, x);
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const biased = (hi >>> 20) & 0x7ff;
  const top = hi & 0xfffff;
  let mantissa = (BigInt(top) << 32n) | BigInt(lo);
  let exponent: number;
  if (biased === 0) {
    exponent = -1074;
  } else {
    mantissa |= 1n << 52n;
    exponent = biased - 1075;
  }
  return { mantissa, exponent };
}

/** |x| * 10^k as the exact fraction num / den. */
function scaledFraction(x: number, k: number): { num: bigint; den: bigint } {
  const { mantissa, exponent } = decompose(x);
  let num = mantissa;
  let den = 1n;
  if (exponent >= 0) num <<= BigInt(exponent);
  else den <<= BigInt(-exponent);
  if (k >= 0) num *= 10n ** BigInt(k);
  else den *= 10n ** BigInt(-k);
  return { num, den };
}

/** The sign of |x| * 10^k - n, exactly. */
export function compareScaled(x: number, k: number, n: bigint): number {
  const { num, den } = scaledFraction(x, k);
  const target = n * den;
  return num < target ? -1 : num > target ? 1 : 0;
}

/** round_half_even(|x| * 10^k) as an exact integer. */
export function scaledHalfEven(x: number, k: number): bigint {
  const { num, den } = scaledFraction(x, k);
  const q = num / den;
  const r2 = (num - q * den) * 2n;
  if (r2 > den || (r2 === den && (q & 1n) === 1n)) return q + 1n;
  return q;
}

/** The double nearest to n * 10^-k (JS decimal parsing is correctly rounded). */
export function fromScaled(n: bigint, k: number, negative: boolean): number {
  const v = Number(`${n}e${-k}`);
  return negative ? -v : v;
}
