import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { JacobiError, jacobiEigen } from '../../../src/analysis/linalg/jacobi.js';

function symmetric(n: number, entries: number[]): number[][] {
  const m = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  let k = 0;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j <= i; j++) {
      const v = entries[k++ % entries.length];
      m[i][j] = v;
      m[j][i] = v;
    }
  }
  return m;
}

function checkDecomposition(a: number[][]): void {
  const n = a.length;
  const { values, vectors } = jacobiEigen(a);
  let maxAbs = 0;
  for (const row of a) for (const v of row) maxAbs = Math.max(maxAbs, Math.abs(v));
  const scale = Math.max(maxAbs, 1e-300);
  // A v_j = lambda_j v_j
  for (let j = 0; j < n; j++) {
    for (let i = 0; i < n; i++) {
      let av = 0;
      for (let k = 0; k < n; k++) av += a[i][k] * vectors[j][k];
      expect(Math.abs(av - values[j] * vectors[j][i])).toBeLessThanOrEqual(2e-12 * scale);
    }
  }
  // V^T V = I
  for (let p = 0; p < n; p++) {
    for (let q = 0; q < n; q++) {
      let dot = 0;
      for (let k = 0; k < n; k++) dot += vectors[p][k] * vectors[q][k];
      expect(Math.abs(dot - (p === q ? 1 : 0))).toBeLessThanOrEqual(2e-12);
    }
  }
  // sum of eigenvalues = trace, and descending order
  let trace = 0;
  for (let i = 0; i < n; i++) trace += a[i][i];
  const sum = values.reduce((x, y) => x + y, 0);
  expect(Math.abs(sum - trace)).toBeLessThanOrEqual(2e-12 * scale * n);
  for (let j = 1; j < n; j++) expect(values[j]).toBeLessThanOrEqual(values[j - 1]);
}

const entry = fc.double({ min: -1, max: 1, noNaN: true });

describe('jacobiEigen', () => {
  it.each([2, 8, 32])('reconstructs random symmetric %i x %i matrices with orthonormal vectors', (n) => {
    fc.assert(
      fc.property(fc.array(entry, { minLength: (n * (n + 1)) / 2, maxLength: (n * (n + 1)) / 2 }), fc.double({ min: -6, max: 6, noNaN: true }), (xs, e) => {
        const m = symmetric(n, xs.map((x) => x * 10 ** e));
        checkDecomposition(m);
      }),
      { numRuns: n === 32 ? 20 : 100 },
    );
  });

  it('returns a diagonal matrix sorted descending, ties in index order', () => {
    const { values, vectors } = jacobiEigen([
      [1, 0, 0],
      [0, 3, 0],
      [0, 0, 1],
    ]);
    expect(values).toEqual([3, 1, 1]);
    expect(vectors).toEqual([
      [0, 1, 0],
      [1, 0, 0],
      [0, 0, 1],
    ]);
  });

  it('handles the zero matrix and 1 x 1 input', () => {
    expect(jacobiEigen([[0, 0], [0, 0]]).values).toEqual([0, 0]);
    expect(jacobiEigen([[-2.5]])).toEqual({ values: [-2.5], vectors: [[1]] });
  });

  it('solves a 2 x 2 rotation exactly enough to recover known eigenvalues', () => {
    const { values } = jacobiEigen([
      [2, 1],
      [1, 2],
    ]);
    expect(values[0]).toBeCloseTo(3, 15);
    expect(values[1]).toBeCloseTo(1, 15);
  });

  it('accepts a row-major Float64Array', () => {
    const flat = Float64Array.from([4, 1, 0, 1, 3, 1, 0, 1, 2]);
    const rows = [
      [4, 1, 0],
      [1, 3, 1],
      [0, 1, 2],
    ];
    expect(jacobiEigen(flat, 3)).toEqual(jacobiEigen(rows));
  });

  it('does not modify its input', () => {
    const m = [
      [1, 0.5],
      [0.5, 1],
    ];
    jacobiEigen(m);
    expect(m).toEqual([
      [1, 0.5],
      [0.5, 1],
    ]);
  });

  it('rejects non-square, non-finite and non-symmetric matrices with a typed error', () => {
    const reason = (f: () => unknown): string | undefined => {
      try {
        f();
      } catch (e) {
        return e instanceof JacobiError ? e.reason : 'other';
      }
      return undefined;
    };
    expect(reason(() => jacobiEigen([[1, 2]]))).toBe('not_square');
    expect(reason(() => jacobiEigen([]))).toBe('not_square');
    expect(reason(() => jacobiEigen([[NaN]]))).toBe('not_finite');
    expect(reason(() => jacobiEigen([[1, 0.5], [0.4, 1]]))).toBe('not_symmetric');
    // Asymmetry below 1e-12 of the largest entry is tolerated.
    expect(reason(() => jacobiEigen([[1, 0.5], [0.5 + 1e-14, 1]]))).toBeUndefined();
  });
});
