import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { centreAndSquareSum, divideAndSum, dotExact, sumExact } from '../../../src/analysis/numeric/exact-kernels.js';
import { FsumOverflowError, fsum } from '../../../src/analysis/numeric/fsum.js';
import { loadFixture, type NumericReference } from './fixture.js';

const ref = loadFixture<NumericReference>('numeric-reference.json');

const same = (a: number, b: number) => expect(Object.is(a, b)).toBe(true);

describe('exact summation kernels', () => {
  it('equal math.fsum on every recorded CPython case', () => {
    for (const [list, expected] of ref.fsum) {
      if (expected === null) {
        expect(() => sumExact(list, 0, list.length)).toThrow(FsumOverflowError);
      } else {
        same(sumExact(list, 0, list.length), expected);
        same(dotExact(list, 0, new Array(list.length).fill(1), 0, list.length), expected);
      }
    }
  });

  it('equal fsum bit for bit on arbitrary doubles, including heavy cancellation (property)', () => {
    const finite = fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e150, max: 1e150 });
    fc.assert(
      fc.property(fc.array(finite, { maxLength: 60 }), fc.boolean(), (xs, mirror) => {
        const list = mirror ? [...xs, ...xs.map((x) => -x * (1 + 2 ** -52))] : xs;
        same(sumExact(list, 0, list.length), fsum(list));
      }),
      { numRuns: 2000 },
    );
  });

  it('equal fsum for totals within a few ulps either side of a power of two (property)', () => {
    // Above a power of two the gap is twice the gap below: the proof must use the side the
    // total is on (a unit-norm column's dot product with itself lands here).
    const offset = fc.integer({ min: -8, max: 8 }).map((k) => k * 2 ** -56);
    fc.assert(
      fc.property(fc.integer({ min: -60, max: 60 }), fc.array(offset, { minLength: 1, maxLength: 6 }), fc.boolean(), (e, parts, negative) => {
        const sign = negative ? -1 : 1;
        const list = [sign * 2 ** e, ...parts.map((x) => sign * x * 2 ** e)];
        same(sumExact(list, 0, list.length), fsum(list));
        same(dotExact(list, 0, new Array(list.length).fill(1), 0, list.length), fsum(list));
      }),
      { numRuns: 2000 },
    );
  });

  it('equal fsum of rounded products for dot products (property)', () => {
    const entry = fc.double({ noNaN: true, min: -1, max: 1 });
    fc.assert(
      fc.property(fc.array(fc.tuple(entry, entry), { minLength: 1, maxLength: 600 }), (pairs) => {
        const a = pairs.map((p) => p[0]);
        const b = pairs.map((p) => p[1]);
        same(dotExact(a, 0, b, 0, a.length), fsum(a.map((x, i) => x * b[i])));
      }),
      { numRuns: 500 },
    );
  });

  it('fused normalisation passes write and sum what the separate passes would (property)', () => {
    const finite = fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e150, max: 1e150 });
    fc.assert(
      fc.property(fc.array(finite, { minLength: 1, maxLength: 80 }), fc.boolean(), finite, (xs, mirror, m) => {
        const list = mirror ? [...xs, ...xs.map((x) => -x * (1 + 2 ** -52))] : xs;
        const n = list.length;
        const scale = Math.max(...list.map(Math.abs)) || 1;
        const divided = list.map((x) => x / scale);
        const out = new Float64Array(n + 1);
        same(divideAndSum([7, ...list], 1, n, scale, out), fsum(divided));
        expect(Array.from(out.subarray(0, n))).toEqual(divided);
        const mean = mirror ? m : fsum(divided) / n;
        const centred = divided.map((x) => x - mean);
        same(centreAndSquareSum(out, n, mean), fsum(centred.map((x) => x * x)));
        expect(Array.from(out.subarray(0, n))).toEqual(centred);
      }),
      { numRuns: 1000 },
    );
  });

  it('fall back correctly on exact ties and near-ties', () => {
    const cases = [
      [1, 2 ** -53],
      [1, 2 ** -53, 2 ** -106],
      [1, -(2 ** -54)],
      [1, -(2 ** -54), -(2 ** -110)],
      [2 ** 53, 1],
      [2 ** 53, 1, 2 ** -60],
      [0.1, 0.2, -0.3],
      [-0, -0],
      [1e308, 1e308, -1e308, -1e308],
    ];
    for (const c of cases) {
      let expected: number | 'overflow';
      try {
        expected = fsum(c);
      } catch {
        expected = 'overflow';
      }
      if (expected === 'overflow') expect(() => sumExact(c, 0, c.length)).toThrow(FsumOverflowError);
      else same(sumExact(c, 0, c.length), expected);
    }
  });

  it('work on sub-ranges', () => {
    const xs = [9, 1e100, 1, -1e100, 9];
    same(sumExact(xs, 1, 3), 1);
    same(dotExact(xs, 1, [1, 1, 1, 1, 1], 0, 3), 1);
  });
});
