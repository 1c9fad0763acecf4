// Numbers as Python prints them: floats by `repr`, integers as plain digits.

/**
 * Python's `repr(float)`: shortest round-trip digits, positional for decimal exponents
 * -4 ≤ e < 16 (always with a fractional part), otherwise `d.ddde±XX`.
 */
export function pyFloatRepr(n: number): string {
  if (!Number.isFinite(n)) throw new RangeError('non-finite numbers have no JSON form');
  if (n === 0) return Object.is(n, -0) ? '-0.0' : '0.0';
  const sci = Math.abs(n).toExponential(); // shortest digits, e.g. "1.2345e+2"
  const sign = n < 0 ? '-' : '';
  const ePos = sci.indexOf('e');
  const mantissa = sci.slice(0, ePos);
  const exponent = Number(sci.slice(ePos + 1));
  const digits = mantissa.replace('.', '');
  if (exponent >= -4 && exponent < 16) {
    if (exponent < 0) return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`;
    const intLen = exponent + 1;
    if (digits.length <= intLen) return `${sign}${digits}${'0'.repeat(intLen - digits.length)}.0`;
    return `${sign}${digits.slice(0, intLen)}.${digits.slice(intLen)}`;
  }
  const expText = `${exponent < 0 ? '-' : '+'}${String(Math.abs(exponent)).padStart(2, '0')}`;
  return `${sign}${mantissa}e${expText}`;
}

export function formatInteger(n: number): string {
  if (Object.is(n, -0)) return '0';
  return Math.abs(n) < 1e21 ? String(n) : BigInt(n).toString();
}

/** Python repr of a float, with fast paths for the values data usually holds. */
export function floatText(n: number): string {
  const a = n < 0 ? -n : n;
  if (a >= 1e-4 && a < 1e9) {
    // Values with at most six decimals (prices, rates, amounts): if scaled / 1e6 rounds
    // back to `a`, the decimal scaled × 10^-6 reads back as `a`; it has at most 15
    // significant digits, and no two such decimals share a double, so it is the shortest
    // round-trip text — what repr prints. Integer formatting is far cheaper than the
    // general shortest-digits conversion.
    const scaled = Math.round(a * 1e6);
    if (scaled / 1e6 === a) {
      let digits = String(scaled);
      if (digits.length < 7) digits = '0000000'.slice(digits.length) + digits;
      let end = digits.length;
      const point = end - 6;
      while (end > point + 1 && digits.charCodeAt(end - 1) === 48) end--;
      return (n < 0 ? '-' : '') + digits.slice(0, point) + '.' + digits.slice(point, end);
    }
  }
  if (a >= 1e-4 && a < 1e16) {
    // In this range both print positional shortest digits; only integral values differ.
    return Number.isInteger(n) ? String(n) + '.0' : String(n);
  }
  return pyFloatRepr(n);
}
