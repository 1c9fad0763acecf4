import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { codePointLength, compareCodePoints, groupThousands, hasLoneSurrogate } from '../../src/core/strings.js';

describe('code point strings', () => {
  it('counts astral characters once', () => {
    expect(codePointLength('a😀b')).toBe(3);
    expect(codePointLength('\ud800')).toBe(1);
    expect(codePointLength('')).toBe(0);
  });

  it('orders by code point: astral characters after U+FFFF', () => {
    expect(['😀', '\uffff', 'a'].sort(compareCodePoints)).toEqual(['a', '\uffff', '😀']);
  });

  it('agrees with comparing code point arrays (property)', () => {
    fc.assert(fc.property(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' }), (a, b) => {
      const ca = [...a].map((c) => c.codePointAt(0)!);
      const cb = [...b].map((c) => c.codePointAt(0)!);
      let expected = 0;
      for (let i = 0; i < Math.min(ca.length, cb.length) && expected === 0; i++) expected = Math.sign(ca[i] - cb[i]);
      if (expected === 0) expected = Math.sign(ca.length - cb.length);
      expect(Math.sign(compareCodePoints(a, b))).toBe(expected);
    }), { numRuns: 500 });
  });

  it('finds unpaired surrogates only', () => {
    expect(hasLoneSurrogate('😀')).toBe(false);
    expect(hasLoneSurrogate('a\ud83d')).toBe(true);
    expect(hasLoneSurrogate('\ude00a')).toBe(true);
  });
});

describe('groupThousands', () => {
  it('writes what toLocaleString("en-US") writes for every non-negative safe integer (property)', () => {
    fc.assert(fc.property(fc.oneof(fc.nat(), fc.maxSafeNat(), fc.constantFrom(0, 999, 1000, 999_999, 1_000_000)), (n) => {
      expect(groupThousands(n)).toBe(n.toLocaleString('en-US'));
    }), { numRuns: 2000 });
  });

  it('refuses what it cannot group: negatives, fractions, unsafe integers', () => {
    for (const n of [-1, 1.5, Number.MAX_SAFE_INTEGER + 1, Number.NaN]) expect(() => groupThousands(n)).toThrow(RangeError);
  });
});
