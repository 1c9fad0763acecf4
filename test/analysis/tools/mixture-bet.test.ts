import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mixtureBet } from '../../../src/analysis/change-detector.js';
import { mixtureBetCR } from '../../../src/analysis/tools/mixture-bet.js';

describe('the mixture bet with correctly rounded powers', () => {
  it('is one half at p = 1 and agrees with the Math.pow bet to a few ulps', () => {
    expect(mixtureBetCR(1)).toBe(0.5);
    expect(mixtureBetCR(2)).toBe(0.5);
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1, noNaN: true }), (p) => {
        expect(Math.abs(mixtureBetCR(p) - mixtureBet(p))).toBeLessThanOrEqual(mixtureBet(p) * 1e-15);
      }),
    );
  });
});
