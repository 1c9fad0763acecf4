import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jacobiEigen } from '../../../src/analysis/linalg/jacobi.js';
import { loadFixture } from '../numeric/fixture.js';

interface JacobiCase {
  matrix: number[][];
  values: number[];
  vectors: number[][];
}

// scripts/gen-analysis-parity.py: the contract's Jacobi procedure run by CPython 3.11.
const cases = loadFixture<JacobiCase[]>('jacobi-reference.json');

/** Same doubles bit for bit, signed zeros included. */
function sameBits(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((x, i) => Object.is(x, b[i]));
}

describe('Jacobi eigen-decomposition parity with CPython', () => {
  it(`is bit-identical on all ${cases.length} recorded matrices`, () => {
    expect(cases.length).toBeGreaterThanOrEqual(300);
    const mismatches = cases.filter((c) => {
      const { values, vectors } = jacobiEigen(c.matrix);
      return !sameBits(values, c.values) || !vectors.every((v, j) => sameBits(v, c.vectors[j]));
    });
    expect(mismatches.map((c) => c.matrix)).toEqual([]);
  });

  it('rotates with copysign(1, tau): tau = -0.0 (equal diagonals, negative pivot) turns by -1', () => {
    // tau = (1 - 1) / (2 * -0.5) = -0.0, so t = -1: the rotation that sign(0) = +1 would
    // not take. Eigenvalues 1.5 and 0.5 either way; the vectors show which rotation ran.
    const { values, vectors } = jacobiEigen([
      [1, -0.5],
      [-0.5, 1],
    ]);
    const expected = cases[1];
    expect(expected.matrix).toEqual([
      [1, -0.5],
      [-0.5, 1],
    ]);
    expect(values).toEqual(expected.values);
    expect(sameBits(vectors[0], expected.vectors[0]) && sameBits(vectors[1], expected.vectors[1])).toBe(true);
    expect(values).toEqual([1.5, 0.5]);
  });

  it('turns every equal-diagonal 2 x 2 pivot by t = sign of the off-diagonal entry (tau = ±0)', () => {
    // tau = 0 / (2b) carries b's sign, so t = copysign(1, tau) = sign(b): the larger
    // eigenvalue a + |b| lands in column q, with vector (s, c) = (sign(b), 1) / sqrt(2).
    const c = 1 / Math.sqrt(2);
    fc.assert(
      fc.property(fc.double({ min: -4, max: 4, noNaN: true }), fc.double({ min: 1e-6, max: 4, noNaN: true }), fc.boolean(), (a, size, negative) => {
        const b = negative ? -size : size;
        const { vectors } = jacobiEigen([
          [a, b],
          [b, a],
        ]);
        expect(vectors[0]).toEqual([negative ? -c : c, c]);
      }),
      { numRuns: 500, seed: 2 },
    );
  });
});
