import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { pyFloatRepr } from '../../../src/core/json.js';
import { digitCount, putDigits, putFastNumber, putPlainQuoted, putSixDecimalFloat, putSmallInteger } from '../../../src/core/json/put.js';

const written = (put: (buf: Uint8Array, p: number) => number): string | null => {
  const buf = new Uint8Array(64).fill(0x3f);
  // Start past zero so a writer that ignores `p` is caught.
  const end = put(buf, 3);
  return end < 0 ? null : Buffer.from(buf.subarray(3, end)).toString('latin1');
};

describe('positional writers', () => {
  it('print digits zero-padded to the width asked for', () => {
    expect(written((b, p) => putDigits(b, p, 7, 3))).toBe('007');
    expect(written((b, p) => putDigits(b, p, 0, 1))).toBe('0');
    expect(written((b, p) => putDigits(b, p, 2147483647, 10))).toBe('2147483647');
    expect(written((b, p) => putDigits(b, p, 120, 6))).toBe('000120');
  });

  it('count digits of every non-negative int32 (property)', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), (n) => {
      expect(digitCount(n)).toBe(String(n).length);
    }), { numRuns: 5000 });
  });

  it('print int32 integers as Python prints an int, -0 as 0 (property)', () => {
    fc.assert(fc.property(fc.oneof(fc.integer({ min: -(2 ** 31) + 1, max: 2 ** 31 - 1 }), fc.constant(-0)), (n) => {
      expect(written((b, p) => putSmallInteger(b, p, n))).toBe(String(BigInt(n)));
      expect(written((b, p) => putFastNumber(b, p, n))).toBe(String(BigInt(n)));
    }), { numRuns: 5000 });
  });

  it('print short decimals as Python repr, and decline every other double (property)', () => {
    const decimal = fc.tuple(fc.integer({ min: -999_999_999_999_999, max: 999_999_999_999_999 }), fc.integer({ min: 0, max: 9 }))
      .map(([units, scale]) => units / 10 ** scale);
    fc.assert(fc.property(fc.oneof(decimal, fc.double({ noNaN: true, noDefaultInfinity: true })), (x) => {
      const text = written((b, p) => putSixDecimalFloat(b, p, x));
      const a = Math.abs(x);
      const inDomain = a >= 1e-4 && a < 1e9 && Math.round(a * 1e6) / 1e6 === a;
      expect(text).toBe(inDomain ? pyFloatRepr(x) : null);
      if (!Number.isInteger(x)) expect(written((b, p) => putFastNumber(b, p, x))).toBe(text);
    }), { numRuns: 20000 });
  });

  it('decline what needs a side table or the general printers', () => {
    for (const v of [2 ** 31, -(2 ** 31), 1e21, 1e-7, 'text', undefined, {}, true]) {
      expect(written((b, p) => putFastNumber(b, p, v))).toBeNull();
    }
    expect(written((b, p) => putFastNumber(b, p, null))).toBe('null');
  });

  it('quote printable ASCII without escapes, as JSON.stringify does (property)', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 12 }), (s) => {
      const plain = [...s].every((c) => c >= ' ' && c <= '~' && c !== '"' && c !== '\\');
      const buf = new Uint8Array(s.length + 8);
      const end = putPlainQuoted(buf, 1, s);
      if (plain) expect(Buffer.from(buf.subarray(1, end)).toString('latin1')).toBe(JSON.stringify(s));
      else expect(end).toBe(-1);
    }), { numRuns: 5000 });
  });
});
