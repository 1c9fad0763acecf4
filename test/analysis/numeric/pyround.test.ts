import { describe, expect, it } from 'vitest';
import { pyround } from '../../../src/analysis/numeric/pyround.js';
import { loadFixture, type NumericReference } from './fixture.js';

const ref = loadFixture<NumericReference>('numeric-reference.json');

describe('pyround', () => {
  it('rounds exact binary ties half-even, where x*1e4 rounding goes up', () => {
    expect(pyround(0.03125, 4)).toBe(0.0312);
    expect(Math.round(0.03125 * 1e4) / 1e4).toBe(0.0313);
    expect(pyround(0.09375, 4)).toBe(0.0938);
    expect(pyround(2.5, 0)).toBe(2);
    expect(pyround(-0.03125, 4)).toBe(-0.0312);
  });

  it('decides near-ties by the exact binary value', () => {
    // 0.00005 is stored slightly above the decimal tie, 0.00015 slightly below it.
    expect(pyround(0.00005, 4)).toBe(0.0001);
    expect(pyround(0.00015, 4)).toBe(0.0001);
  });

  it('keeps the sign of a result that rounds to zero', () => {
    expect(Object.is(pyround(-0.00001, 4), -0)).toBe(true);
  });

  it('returns huge values unchanged and passes non-finite values through', () => {
    expect(pyround(1e300, 4)).toBe(1e300);
    expect(pyround(Infinity, 4)).toBe(Infinity);
  });

  it('matches round(x, 4) on every recorded CPython case', () => {
    let mismatches = 0;
    for (const [x, expected] of ref.round4) if (!Object.is(pyround(x, 4), expected)) mismatches++;
    expect(mismatches).toBe(0);
  });
});
