import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  centreAndSquareSumBounded,
  divideAndSumBounded,
  dotExactBounded,
  powerOfTwoAtLeast,
} from '../../../src/analysis/numeric/bounded-kernels.js';
import { centreAndSquareSum, divideAndSum, dotExact } from '../../../src/analysis/numeric/exact-kernels.js';
import { fsum } from '../../../src/analysis/numeric/fsum.js';

const same = (a: number, b: number) => expect(Object.is(a, b)).toBe(true);
const largest = (xs: number[]) => xs.reduce((m, x) => Math.max(m, Math.abs(x)), 0);

describe('dotExactBounded', () => {
  it('equals fsum of the rounded products given the true or any larger magnitude bounds (property)', () => {
    const entry = fc.double({ noNaN: true, min: -1, max: 1 });
    fc.assert(
      fc.property(
        fc.array(fc.tuple(entry, entry), { maxLength: 600 }),
        fc.double({ min: 1, max: 1e6, noNaN: true }),
        fc.integer({ min: -300, max: 300 }),
        (pairs, slack, exponent) => {
          const scale = 2 ** exponent;
          const a = [0.5, ...pairs.map((p) => p[0] * scale)];
          const b = [0.25, ...pairs.map((p) => p[1])];
          const n = pairs.length;
          const expected = fsum(a.slice(1).map((x, i) => x * b[i + 1]));
          same(dotExactBounded(a, 1, b, 1, n, largest(a.slice(1)), largest(b.slice(1))), expected);
          same(dotExactBounded(a, 1, b, 1, n, largest(a.slice(1)) * slack, largest(b.slice(1))), expected);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('equals dotExact on the normalised columns of a correlation, including the unit diagonal', () => {
    const length = 512;
    const columns: Float64Array[] = [];
    let seed = 11;
    const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647 - 0.5;
    for (let s = 0; s < 8; s++) {
      const z = Float64Array.from({ length }, () => random());
      const mean = fsum(z) / length;
      for (let t = 0; t < length; t++) z[t] -= mean;
      const norm = Math.sqrt(fsum(z.map((x) => x * x)));
      for (let t = 0; t < length; t++) z[t] /= norm;
      columns.push(z);
    }
    for (const a of columns) {
      for (const b of columns) {
        same(dotExactBounded(a, 0, b, 0, length, largest([...a]), largest([...b])), dotExact(a, 0, b, 0, length));
      }
    }
  });

  it('leaves signed zeros, exact cancellation, ties, NaN and magnitudes near the double range to fsum', () => {
    same(dotExactBounded([-0, -0], 0, [1, 1], 0, 2, 0, 1), fsum([-0, -0]));
    same(dotExactBounded([1, -1, 0.5], 0, [0.75, 0.75, 0], 0, 3, 1, 0.75), 0);
    // 1 + 2^-53 is a tie that rounds to even.
    same(dotExactBounded([1, 2 ** -53], 0, [1, 1], 0, 2, 1, 1), 1);
    same(dotExactBounded([1, 2 ** -53, 2 ** -106], 0, [1, 1, 1], 0, 3, 1, 1), 1 + 2 ** -52);
    expect(dotExactBounded([1, NaN], 0, [1, 1], 0, 2, 1, 1)).toBeNaN();
    same(dotExactBounded([1e200, -1e200, 3], 0, [1e100, 1e100, 1], 0, 3, 1e200, 1e100), 3);
    expect(() => dotExactBounded([1e300, -1e300], 0, [1e10, 1e10], 0, 2, 1e300, 1e10)).toThrow(/inf/);
    same(dotExactBounded([1e-300, 1e-300], 0, [1e-20, 1e-20], 0, 2, 1e-300, 1e-20), fsum([1e-320, 1e-320]));
    same(dotExactBounded([], 0, [], 0, 0, 0, 0), 0);
  });
});

describe('bounded normalisation passes', () => {
  it('write and sum what divideAndSum and centreAndSquareSum do, given bounds on what they write (property)', () => {
    const finite = fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e150, max: 1e150 });
    fc.assert(
      fc.property(fc.array(finite, { minLength: 1, maxLength: 120 }), fc.boolean(), fc.double({ min: 1, max: 8, noNaN: true }), (xs, mirror, slack) => {
        const list = mirror ? [...xs, ...xs.map((x) => -x * (1 + 2 ** -52))] : xs;
        const n = list.length;
        const scale = largest(list) || 1;
        const expectedOut = new Float64Array(n);
        const out = new Float64Array(n);
        same(divideAndSumBounded([7, ...list], 1, n, scale, out, slack), divideAndSum([7, ...list], 1, n, scale, expectedOut));
        expect(Array.from(out)).toEqual(Array.from(expectedOut));
        const mean = fsum(Array.from(out)) / n;
        const bound = (1 + Math.abs(mean)) * slack;
        same(centreAndSquareSumBounded(out, n, mean, bound), centreAndSquareSum(expectedOut, n, mean));
        expect(Array.from(out)).toEqual(Array.from(expectedOut));
      }),
      { numRuns: 2000 },
    );
  });

  it('fall back to the exact sums on ties, cancellation to zero and NaN, leaving the same columns', () => {
    for (const list of [[1, -1], [1, 2 ** -53], [0.5, NaN, 0.25], [-0, -0], [1, 1, 1]]) {
      const n = list.length;
      const out = new Float64Array(n);
      const expectedOut = new Float64Array(n);
      same(divideAndSumBounded(list, 0, n, 1, out, 1), divideAndSum(list, 0, n, 1, expectedOut));
      same(centreAndSquareSumBounded(out, n, 0.5, 1.5), centreAndSquareSum(expectedOut, n, 0.5));
      expect(Array.from(out)).toEqual(Array.from(expectedOut));
    }
  });
});

describe('powerOfTwoAtLeast', () => {
  it('gives x for a power of two and the next power above otherwise', () => {
    for (const e of [-1000, -1, 0, 1, 52, 1000]) {
      same(powerOfTwoAtLeast(2 ** e), 2 ** e);
      same(powerOfTwoAtLeast(2 ** e * (1 + 2 ** -52)), 2 ** (e + 1));
      same(powerOfTwoAtLeast(2 ** e * 1.5), 2 ** (e + 1));
    }
  });
});
