import { describe, expect, it } from 'vitest';
import { hypotOne } from '../../../src/analysis/numeric/hypot.js';
import { loadFixture, type NumericReference } from './fixture.js';

const ref = loadFixture<NumericReference>('numeric-reference.json');

describe('hypotOne', () => {
  it('is bit-identical to CPython math.hypot(1, t) on every recorded case', () => {
    const mismatches = ref.hypot.filter(([t, expected]) => hypotOne(t) !== expected);
    expect(mismatches).toEqual([]);
  });

  it('covers cases where V8 Math.hypot is not correctly rounded', () => {
    const v8Misses = ref.hypot.filter(([t, expected]) => Math.hypot(1, t) !== expected).length;
    // If V8 ever became correctly rounded this fixture would stop proving anything.
    expect(v8Misses).toBeGreaterThan(0);
  });

  it('handles the extremes: exact 1 for tiny t, |t| for huge t, inf and nan', () => {
    expect(hypotOne(0)).toBe(1);
    expect(hypotOne(1e-300)).toBe(1);
    expect(hypotOne(-1e200)).toBe(1e200);
    expect(hypotOne(-Infinity)).toBe(Infinity);
    expect(Number.isNaN(hypotOne(NaN))).toBe(true);
    expect(hypotOne(0.75)).toBe(1.25);
  });
});
