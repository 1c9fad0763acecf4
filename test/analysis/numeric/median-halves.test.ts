import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { medianOfHalves, sortedAscending } from '../../../src/analysis/numeric/median-halves.js';

describe('the halves median of the statistical tools', () => {
  it('takes the middle element of an odd count and s[m-1]/2 + s[m]/2 of an even one', () => {
    expect(medianOfHalves([3, 1, 2])).toBe(2);
    expect(medianOfHalves([7, 7.5])).toBe(7.25);
    expect(medianOfHalves([1.7976931348623157e308, 1.7976931348623157e308])).toBe(1.7976931348623157e308);
    // (a + b) / 2 would overflow here; halves first do not.
    expect((1.7976931348623157e308 + 1.7976931348623157e308) / 2).toBe(Infinity);
  });

  it('loses the smallest subnormals to underflow, as the reference does', () => {
    expect(medianOfHalves([5e-324, 5e-324])).toBe(0);
    expect(medianOfHalves([5e-324, 5e-324, 5e-324])).toBe(5e-324);
  });

  it('keeps -0 and 0 in input order, as a stable sort does', () => {
    expect(Object.is(sortedAscending([0, -0])[0], 0)).toBe(true);
    expect(Object.is(sortedAscending([-0, 0])[0], -0)).toBe(true);
    expect(Object.is(medianOfHalves([-0, 0, 1]), 0)).toBe(true);
    expect(Object.is(medianOfHalves([0, -0, 1]), -0)).toBe(true);
  });

  it('lies between the smallest and largest value', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ noNaN: true, noDefaultInfinity: true }), { minLength: 1, maxLength: 40 }), (xs) => {
        const m = medianOfHalves(xs);
        expect(m).toBeGreaterThanOrEqual(Math.min(...xs));
        expect(m).toBeLessThanOrEqual(Math.max(...xs));
      }),
    );
  });

  it('refuses an empty list', () => {
    expect(() => medianOfHalves([])).toThrow(RangeError);
  });
});
