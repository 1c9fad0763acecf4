import { describe, expect, it } from 'vitest';
import { lgamma } from '../../../src/analysis/numeric/lgamma.js';
import { loadToolFixture, type SpecialFunctions } from '../tools/fixtures.js';

const ref = loadToolFixture<SpecialFunctions>('tool-special-functions.json');

describe("CPython's lgamma for x >= 1", () => {
  it('is bit-identical to math.lgamma wherever glibc rounded its own two logs correctly', () => {
    let flagged = 0;
    for (const [x, expected, logsExact] of ref.lgamma) {
      if (logsExact) expect(lgamma(x), String(x)).toBe(expected);
      else flagged++;
    }
    expect(flagged).toBeLessThan(ref.lgamma.length / 200);
  });

  it('is within 1e-15 relative of math.lgamma everywhere else', () => {
    for (const [x, expected] of ref.lgamma) {
      expect(Math.abs(lgamma(x) - expected), String(x)).toBeLessThanOrEqual(1e-15 * Math.max(1, Math.abs(expected)));
    }
  });

  it('gives exact zeros at 1 and 2 and ln((n-1)!) at integers', () => {
    expect(lgamma(1)).toBe(0);
    expect(lgamma(2)).toBe(0);
    expect(lgamma(11)).toBeCloseTo(Math.log(3628800), 12);
  });

  it('refuses arguments below 1, which the tools never pass', () => {
    expect(() => lgamma(0.5)).toThrow(RangeError);
    expect(() => lgamma(Infinity)).toThrow(RangeError);
  });
});
