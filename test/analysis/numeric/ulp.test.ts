import { describe, expect, it } from 'vitest';
import { ulp } from '../../../src/analysis/numeric/ulp.js';
import { loadFixture, type NumericReference } from './fixture.js';

const ref = loadFixture<NumericReference>('numeric-reference.json');

describe('ulp', () => {
  it('gives the smallest subnormal for zero and 2^-52 for one', () => {
    expect(ulp(0)).toBe(5e-324);
    expect(ulp(-0)).toBe(5e-324);
    expect(ulp(1)).toBe(2 ** -52);
    expect(ulp(-1)).toBe(2 ** -52);
  });

  it('uses the gap below at the top of the range and passes non-finite values through', () => {
    expect(ulp(Number.MAX_VALUE)).toBe(2 ** 971);
    expect(ulp(Infinity)).toBe(Infinity);
    expect(Number.isNaN(ulp(NaN))).toBe(true);
  });

  it('matches math.ulp on every recorded CPython case', () => {
    for (const [x, expected] of ref.ulp) expect(ulp(x)).toBe(expected);
  });
});
