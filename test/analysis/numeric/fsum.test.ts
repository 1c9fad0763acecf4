import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ExactSum, FsumOverflowError, fsum, fsumProducts, fsumRange } from '../../../src/analysis/numeric/fsum.js';
import { loadFixture, type NumericReference } from './fixture.js';

const ref = loadFixture<NumericReference>('numeric-reference.json');

describe('fsum', () => {
  it('recovers the small term lost between two huge cancelling ones', () => {
    expect(fsum([1e100, 1, -1e100])).toBe(1);
  });

  it('sums ten tenths to exactly 1.0 where naive addition does not', () => {
    const tenths = new Array<number>(10).fill(0.1);
    expect(tenths.reduce((a, b) => a + b, 0)).not.toBe(1);
    expect(fsum(tenths)).toBe(1);
  });

  it('returns 0 for an empty list and keeps a single term as it is', () => {
    expect(fsum([])).toBe(0);
    expect(fsum([-2.5])).toBe(-2.5);
  });

  it('returns +0 for negative zeros, as CPython 3.11 math.fsum does', () => {
    // python3.11 -c "import math; print(math.fsum([-0.0]), math.fsum([-0.0, -0.0]))" -> 0.0 0.0
    expect(Object.is(fsum([-0]), 0)).toBe(true);
    expect(Object.is(fsum([-0, -0]), 0)).toBe(true);
  });

  it('applies the half-even correction across partials like CPython', () => {
    expect(fsum([1, 2 ** -53, 2 ** -106])).toBe(1 + 2 ** -52);
    expect(fsum([1, -(2 ** -53), -(2 ** -106)])).toBe(1 - 2 ** -53);
  });

  it('throws a dedicated error on intermediate overflow, and passes infinities through', () => {
    expect(() => fsum([1e308, 1e308, -1e308])).toThrow(FsumOverflowError);
    expect(() => fsum([1e308, 1e308, -1e308])).toThrow('intermediate overflow in fsum');
    expect(fsum([Infinity, 1])).toBe(Infinity);
    expect(() => fsum([Infinity, -Infinity])).toThrow(RangeError);
    expect(Number.isNaN(fsum([NaN, 1]))).toBe(true);
  });

  it('matches math.fsum on every recorded CPython case', () => {
    for (const [list, expected] of ref.fsum) {
      if (expected === null) expect(() => fsum(list)).toThrow(FsumOverflowError);
      else expect(fsum(list)).toBe(expected);
    }
  });

  it('agrees with an exact BigInt-rational sum rounded once (property)', () => {
    const finite = fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e200, max: 1e200 });
    fc.assert(
      fc.property(fc.array(finite, { maxLength: 30 }), (xs) => {
        expect(fsum(xs)).toBe(exactSum(xs));
      }),
      { numRuns: 300 },
    );
  });

  it('offers range, product and incremental forms that equal the plain sum', () => {
    const xs = [3.5, 1e-20, -7.25, 1e20, -1e20, 0.1];
    expect(fsumRange(xs, 1, 5)).toBe(fsum(xs.slice(1, 5)));
    const ys = [2, 3, 4, 5, 6, 7];
    expect(fsumProducts(xs, ys, 6)).toBe(fsum(xs.map((x, i) => x * ys[i])));
    const acc = new ExactSum();
    for (let i = 0; i < 200; i++) acc.add(0.1 * (i % 7) - 0.3);
    const direct = fsum(Array.from({ length: 200 }, (_, i) => 0.1 * (i % 7) - 0.3));
    expect(acc.value()).toBe(direct);
  });
});

// Reference: the exact rational sum of the doubles, rounded once by JS's correctly
// rounded decimal parser. Doubles are dyadic, so scaling by 2^1074 makes them integers.
function exactSum(xs: number[]): number {
  let total = 0n;
  for (const x of xs) total += toScaledBigInt(x);
  // CPython 3.11's math.fsum (the reference's) returns +0.0 for any zero total, negative
  // zeros included: fsum([-0.0]) == 0.0 with a positive sign, unlike IEEE addition.
  if (total === 0n) return 0;
  const negative = total < 0n;
  const mag = negative ? -total : total;
  // mag / 2^1074 -> exact decimal string (5^1074 * mag / 10^1074) and parse.
  const digits = (mag * 5n ** 1074n).toString();
  const v = Number(`${digits}e-1074`);
  return negative ? -v : v;
}

function toScaledBigInt(x: number): bigint {
  if (x === 0) return 0n;
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const biased = (hi >>> 20) & 0x7ff;
  let mant = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let exp = -1074;
  if (biased !== 0) {
    mant |= 1n << 52n;
    exp = biased - 1075;
  }
  const scaled = mant << BigInt(exp + 1074);
  return x < 0 ? -scaled : scaled;
}
