import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { exactlySymmetric, sweepsFull, sweepsUpper } from '../../../src/analysis/linalg/jacobi-sweeps.js';

/** Row-major symmetric matrix from lower-triangle entries (cycled when short). */
function symmetric(n: number, entries: number[]): Float64Array {
  const a = new Float64Array(n * n);
  let k = 0;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j <= i; j++) {
      const v = entries[k++ % entries.length];
      a[i * n + j] = v;
      a[j * n + i] = v;
    }
  }
  return a;
}

function identity(n: number): Float64Array {
  const v = new Float64Array(n * n);
  for (let i = 0; i < n; i++) v[i * n + i] = 1;
  return v;
}

const entry = fc.oneof(
  fc.double({ min: -1, max: 1, noNaN: true }),
  fc.constantFrom(0, -0, 1, -1, 0.5, 1e-15, -1e-15),
);

describe('Jacobi sweeps on exactly symmetric matrices', () => {
  it('keep the upper triangle and V^T bit for bit where the full update keeps both triangles and V (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), fc.array(entry, { minLength: 1, maxLength: 78 }), (n, xs) => {
        const full = symmetric(n, xs);
        const upper = Float64Array.from(full);
        const v = identity(n);
        const vt = identity(n);
        expect(exactlySymmetric(full, n)).toBe(true);
        expect(sweepsUpper(upper, vt, n)).toBe(sweepsFull(full, v, n));
        for (let i = 0; i < n; i++) {
          expect(Object.is(upper[i * n + i], full[i * n + i])).toBe(true);
          for (let j = i + 1; j < n; j++) expect(Object.is(upper[i * n + j], full[i * n + j])).toBe(true);
          for (let k = 0; k < n; k++) expect(Object.is(vt[i * n + k], v[k * n + i])).toBe(true);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('tell a mirrored signed zero or a rounding-level asymmetry from exact symmetry', () => {
    const a = symmetric(3, [1, 0.5, 1, 0.25, 0.125, 1]);
    expect(exactlySymmetric(a, 3)).toBe(true);
    a[1 * 3 + 0] = 0.5 + 2 ** -53;
    expect(exactlySymmetric(a, 3)).toBe(false);
    const z = symmetric(2, [1, 0, 1]);
    z[1 * 2 + 0] = -0;
    expect(exactlySymmetric(z, 2)).toBe(false);
  });
});
