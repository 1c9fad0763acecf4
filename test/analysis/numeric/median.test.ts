import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAD_FACTOR, madSpread, median } from '../../../src/analysis/numeric/median.js';

describe('median', () => {
  it('takes the middle element of an odd count and (a+b)/2 of an even count', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([1e308, 1.5e308])).toBe(Infinity); // (a+b)/2, exactly as Python computes it
  });

  it('does not reorder the caller array', () => {
    const xs = [5, 1, 4];
    median(xs);
    expect(xs).toEqual([5, 1, 4]);
  });

  it('keeps Python\'s stable order for signed zeros', () => {
    expect(Object.is(median([0, -0, 0]), -0)).toBe(true);
    expect(Object.is(median([-0, 0, -0]), 0)).toBe(true);
  });

  it('gives what sorting a copy with Array.prototype.sort gives, signed zeros and NaN included', () => {
    const reference = (xs: number[]): number => {
      const sorted = [...xs].sort((a, b) => a - b);
      const mid = sorted.length >> 1;
      return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    };
    const value = fc.oneof(
      fc.constantFrom(0, -0, 1, -1, 0.5, NaN),
      fc.double({ noDefaultInfinity: true }),
      fc.integer({ min: -3, max: 3 }),
    );
    fc.assert(
      fc.property(fc.array(value, { minLength: 1, maxLength: 90 }), (xs) => {
        expect(Object.is(median(xs), reference(xs))).toBe(true);
        expect(Object.is(median(Float64Array.from(xs)), reference(xs))).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses an empty list', () => {
    expect(() => median([])).toThrow(RangeError);
  });
});

describe('madSpread', () => {
  it('is 1.4826 times the median absolute deviation', () => {
    expect(madSpread([1, 2, 3, 4, 100])).toBe(MAD_FACTOR * 1);
    expect(madSpread([7, 7, 7])).toBe(0);
  });
});
