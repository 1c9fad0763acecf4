import { describe, expect, it } from 'vitest';

import {
  addDecimals,
  compareDecimals,
  decimalFromJsonValue,
  decimalFromNumber,
  decimalToNumber,
  divideByPowerOfTen,
  formatDecimal,
  isIntegralDecimal,
  parseDecimalText,
} from '../../src/funding/decimal.js';

function text(t: string, thousands = false): string | null {
  const d = parseDecimalText(t, { thousandsSeparators: thousands });
  return d === null ? null : formatDecimal(d);
}

describe('parseDecimalText', () => {
  it('reads plain decimal text exactly and ignores surrounding whitespace', () => {
    expect(text('3.65')).toBe('3.65');
    expect(text('  924627 \n')).toBe('924627');
    expect(text('-0.25')).toBe('-0.25');
    expect(text('0')).toBe('0');
    expect(text('0.000')).toBe('0');
    expect(text('12345678901234567890.123456789')).toBe('12345678901234567890.123456789');
  });

  it('accepts thousands separators only when the format allows them, and only in groups of three', () => {
    expect(text('2,930,193', true)).toBe('2930193');
    expect(text('2930193', true)).toBe('2930193');
    expect(text('1,234.5', true)).toBe('1234.5');
    expect(text('2,930,193')).toBeNull();
    expect(text('2,93,0193', true)).toBeNull();
    expect(text('2930,193', true)).toBeNull();
    expect(text(',930', true)).toBeNull();
    expect(text('1.234,5', true)).toBeNull();
  });

  it.each(['', '   ', '.', '5.', '.5', '+1', '1e3', 'NA', 'NaN', 'nan', 'Infinity', '-Infinity', 'n.a.', '1 000', '0x10', '--1', '٣'])(
    'refuses %j',
    (t) => {
      expect(parseDecimalText(t)).toBeNull();
      expect(parseDecimalText(t, { thousandsSeparators: true })).toBeNull();
    },
  );
});

describe('decimalFromNumber / decimalFromJsonValue', () => {
  it('takes the shortest round-trip digits of a double, including exponent forms', () => {
    const f = (n: number) => formatDecimal(decimalFromNumber(n)!);
    expect(f(3.9)).toBe('3.9');
    expect(f(0.1)).toBe('0.1');
    expect(f(2914)).toBe('2914');
    expect(f(1e-7)).toBe('0.0000001');
    expect(f(-2.5e-8)).toBe('-0.000000025');
    expect(f(1.5e21)).toBe('1500000000000000000000');
    expect(f(-0)).toBe('0');
    expect(f(5e-324)).toBe(`0.${'0'.repeat(323)}5`);
  });

  it('refuses NaN and ±Infinity', () => {
    expect(decimalFromNumber(NaN)).toBeNull();
    expect(decimalFromNumber(Infinity)).toBeNull();
    expect(decimalFromNumber(-Infinity)).toBeNull();
  });

  it.each([null, true, false, 'NA', '3.9', 'NaN', 'Infinity', '.', '', undefined, [], {}])(
    'refuses the JSON value %j',
    (v) => {
      expect(decimalFromJsonValue(v)).toBeNull();
    },
  );
});

describe('exact unit conversion', () => {
  const millionsToBillions = (t: string, thousands = false) =>
    decimalToNumber(divideByPowerOfTen(parseDecimalText(t, { thousandsSeparators: thousands })!, 3));
  const dollarsToBillions = (n: number) => decimalToNumber(divideByPowerOfTen(decimalFromNumber(n)!, 9));

  it('converts the precision cases without binary rounding errors', () => {
    expect(dollarsToBillions(576_000_000)).toBe(0.576);
    expect(millionsToBillions('2,930,193', true)).toBe(2930.193);
    expect(millionsToBillions('924627')).toBe(924.627);
    expect(dollarsToBillions(1_000_000)).toBe(0.001);
    expect(dollarsToBillions(0)).toBe(0);
    expect(Object.is(dollarsToBillions(0), 0)).toBe(true);
    // Scaling in binary floating point would round twice and miss these.
    expect(576_000_000 * 1e-9).not.toBe(0.576);
    expect(924627 * 0.001).not.toBe(924.627);
  });

  it('sums SRF operations exactly, including totals below 0.01 billion', () => {
    const sum = (a: number, b: number) =>
      divideByPowerOfTen(addDecimals(decimalFromNumber(a)!, decimalFromNumber(b)!), 9);
    expect(formatDecimal(sum(500_000, 500_000))).toBe('0.001');
    expect(decimalToNumber(sum(2_000_000, 3_000_000))).toBe(0.005);
    expect(decimalToNumber(sum(1_000, 0))).toBe(0.000001);
    expect(decimalToNumber(sum(0, 0))).toBe(0);
    const exact = addDecimals(parseDecimalText('0.1')!, parseDecimalText('0.2')!);
    expect(decimalToNumber(exact)).toBe(0.3);
  });

  it('rounds to the nearest double only once, ties to even', () => {
    expect(decimalToNumber(parseDecimalText('9007199254740993')!)).toBe(9007199254740992);
    expect(decimalToNumber(parseDecimalText('9007199254740995')!)).toBe(9007199254740996);
    expect(decimalToNumber(parseDecimalText('0.30000000000000000001')!)).toBe(0.3);
  });

  it('divides only by non-negative integral powers of ten', () => {
    expect(() => divideByPowerOfTen(parseDecimalText('1')!, -1)).toThrow(RangeError);
    expect(() => divideByPowerOfTen(parseDecimalText('1')!, 1.5)).toThrow(RangeError);
  });
});

describe('comparison and integrality', () => {
  it('compares values regardless of scale', () => {
    expect(compareDecimals(parseDecimalText('1.50')!, parseDecimalText('1.5')!)).toBe(0);
    expect(compareDecimals(parseDecimalText('0.001')!, parseDecimalText('0')!)).toBe(1);
    expect(compareDecimals(parseDecimalText('-2')!, parseDecimalText('1')!)).toBe(-1);
  });

  it('knows whole numbers', () => {
    expect(isIntegralDecimal(parseDecimalText('1000.000')!)).toBe(true);
    expect(isIntegralDecimal(parseDecimalText('1000.5')!)).toBe(false);
    expect(isIntegralDecimal(decimalFromNumber(1e21)!)).toBe(true);
  });
});
