// The ±0 rule, decision by decision: wherever the numeric code decides a sign or returns a
// zero, it does what CPython does with the reference's operations (copysign, fsum, sorted,
// round, '%.15g').
import { describe, expect, it } from 'vitest';
import { dotExactBounded } from '../../../src/analysis/numeric/bounded-kernels.js';
import { dotExact, sumExact } from '../../../src/analysis/numeric/exact-kernels.js';
import { ExactSum, fsum } from '../../../src/analysis/numeric/fsum.js';
import { median } from '../../../src/analysis/numeric/median.js';
import { robustCorrelation } from '../../../src/analysis/numeric/normalise.js';
import { pyround } from '../../../src/analysis/numeric/pyround.js';
import { round15 } from '../../../src/analysis/numeric/round15.js';
import { jacobiEigen } from '../../../src/analysis/linalg/jacobi.js';

const isPlusZero = (x: number) => Object.is(x, 0);
const isMinusZero = (x: number) => Object.is(x, -0);

describe('signed zeros follow CPython', () => {
  it('exact sums and dot products of zeros, or of terms that cancel, are +0 (math.fsum in 3.11)', () => {
    const negatives = new Float64Array([-0, -0, -0]);
    expect(isPlusZero(fsum(negatives))).toBe(true);
    expect(isPlusZero(sumExact(negatives, 0, 3))).toBe(true);
    const acc = new ExactSum();
    acc.add(-0);
    expect(isPlusZero(acc.value())).toBe(true);
    // Every product is ±0: columns that never overlap.
    const a = new Float64Array([0.5, -0.5, 0, 0]);
    const b = new Float64Array([0, 0, 0.5, -0.5]);
    expect(isPlusZero(dotExact(a, 0, b, 0, 4))).toBe(true);
    expect(isPlusZero(dotExactBounded(a, 0, b, 0, 4, 0.5, 0.5))).toBe(true);
    const x = [1, -1, 0, 0, 0, 0, 0, 0, 0, 0];
    const y = [0, 0, 1, -1, 0, 0, 0, 0, 0, 0];
    expect(isPlusZero(robustCorrelation(x, y) as number)).toBe(true);
  });

  it('a median keeps the signed zero that a stable sort with -0 == 0 leaves in the middle', () => {
    expect(isMinusZero(median([0, -0, 5]))).toBe(true);
    expect(isPlusZero(median([-0, 0, 5]))).toBe(true);
    // Past the insertion-sort size the general (stable) sort must agree.
    const zeros = (n: number) => Array.from({ length: n }, () => 0);
    expect(isMinusZero(median([...zeros(40), -0, ...zeros(40)]))).toBe(true);
    expect(isPlusZero(median([-0, ...zeros(80)]))).toBe(true);
    expect(isMinusZero(median([...Array.from({ length: 40 }, () => -1), -0, ...Array.from({ length: 40 }, () => 1)]))).toBe(true);
    // Even counts add the middle pair: -0 + 0 is +0, -0 + -0 stays -0.
    expect(isPlusZero(median([-0, 0]))).toBe(true);
    expect(isMinusZero(median([-0, -0]))).toBe(true);
  });

  it('rounding keeps the sign of a zero or of a value that rounds to zero', () => {
    expect(isMinusZero(round15(-0))).toBe(true);
    expect(isMinusZero(pyround(-0, 4))).toBe(true);
    expect(isMinusZero(pyround(-1e-9, 4))).toBe(true);
    expect(isPlusZero(pyround(1e-9, 4))).toBe(true);
  });

  it('the Jacobi rotation takes copysign(1, tau): -1 at tau = -0, +1 at tau = +0', () => {
    // Negative pivot between equal diagonals: tau = 0 / -1 = -0.
    const negative = jacobiEigen([
      [1, -0.5],
      [-0.5, 1],
    ]);
    // t = -1: c = s = ±1/sqrt(2) with V = [[c, s], [-s, c]] giving the (1, -1) direction first.
    expect(negative.values).toEqual([1.5, 0.5]);
    expect(Math.sign(negative.vectors[0][0])).toBe(-Math.sign(negative.vectors[0][1]));
    expect(negative.vectors[0][0]).toBeLessThan(0);
    // Positive pivot between equal diagonals: tau = +0, t = +1.
    const positive = jacobiEigen([
      [1, 0.5],
      [0.5, 1],
    ]);
    expect(positive.values).toEqual([1.5, 0.5]);
    expect(positive.vectors[0][0]).toBeGreaterThan(0);
    expect(positive.vectors[0][1]).toBeGreaterThan(0);
  });
});
