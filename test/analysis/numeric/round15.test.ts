import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { NonFiniteStatisticError, round15 } from '../../../src/analysis/numeric/round15.js';
import { loadFixture, type NumericReference } from './fixture.js';

const ref = loadFixture<NumericReference>('numeric-reference.json');

describe('round15', () => {
  it('rounds an exact 16-digit decimal tie to even, unlike toPrecision', () => {
    const x = 1 + 2 ** -15; // exactly 1.000030517578125
    expect(Number(x.toPrecision(15))).toBe(1.00003051757813);
    expect(round15(x)).toBe(1.00003051757812);
    expect(round15(-x)).toBe(-1.00003051757812);
    expect(round15(1000000000000005)).toBe(1000000000000000);
    expect(round15(1000000000000015)).toBe(1000000000000020);
  });

  it('leaves values with at most 15 significant digits unchanged', () => {
    for (const x of [0.1, 4.23, -45, 3600, 1e-5, 123456789012345, 0.333333333333333]) {
      expect(round15(x)).toBe(x);
    }
  });

  it('finds the decimal exponent on both sides of every power of ten a double can hold', () => {
    for (let k = -307; k <= 308; k++) {
      const p = Number(`1e${k}`);
      for (const x of [p, p * (1 - 2 ** -52), p * (1 + 2 ** -52), p * 0.9999999999999999]) {
        if (Number.isFinite(x)) expect(round15(x)).toBe(Number(x.toPrecision(15)));
      }
    }
  });

  it('keeps the sign of zero and refuses non-finite values', () => {
    expect(Object.is(round15(-0), -0)).toBe(true);
    expect(() => round15(Infinity)).toThrow(NonFiniteStatisticError);
    expect(() => round15(NaN)).toThrow(NonFiniteStatisticError);
  });

  it('rounds a value just below a power of ten at its own decimal exponent, beyond the fast range too', () => {
    // python3.11: float('%.15g' % 9.999999999999965e-17) -> 9.99999999999997e-17 (not 1e-16)
    expect(round15(9.999999999999965e-17)).toBe(9.99999999999997e-17);
    expect(round15(-9.999999999999965e-17)).toBe(-9.99999999999997e-17);
    // ...and to the power itself when the 15 digits do round up to it.
    expect(round15(9.9999999999999995e22)).toBe(1e23);
  });

  it('matches float("%.15g" % x) on every recorded CPython case, ties included', () => {
    let mismatches = 0;
    for (const [x, expected] of ref.round15) {
      if (!Object.is(round15(x), expected)) mismatches++;
    }
    expect(mismatches).toBe(0);
  });

  it('agrees with toPrecision(15) within a few ulps of a 15-digit half-way point, either sign (property)', () => {
    // Where the scaled value sits this close to one half, the low part of the exact
    // product decides the rounding. Magnitudes 1e-8 to 1e15: the double-arithmetic path.
    const digits = fc.bigInt({ min: 10n ** 14n, max: 10n ** 15n - 1n });
    fc.assert(
      fc.property(digits, fc.integer({ min: -7, max: 15 }), fc.integer({ min: -6, max: 6 }), fc.boolean(), (m, e, ulps, negative) => {
        let x = Number(`${m}5e${e - 16}`);
        for (let k = 0; k < Math.abs(ulps); k++) x = nextAway(x, ulps > 0);
        if (negative) x = -x;
        if (isExactTie(x)) return;
        expect(round15(x)).toBe(Number(x.toPrecision(15)));
      }),
      { numRuns: 3000 },
    );
  });

  it('agrees with toPrecision(15) wherever the value is not an exact tie (property)', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => {
        if (x === 0 || isExactTie(x)) return; // toPrecision drops the sign of -0; Python keeps it
        expect(round15(x)).toBe(Number(x.toPrecision(15)));
      }),
      { numRuns: 3000 },
    );
  });
});

// An exact tie at 15 digits: the exact decimal expansion has 16 significant digits, the
// last one a 5.
function isExactTie(x: number): boolean {
  if (x === 0) return false;
  const digits = exactSignificantDigits(x);
  return digits.length === 16 && digits.endsWith('5');
}

function exactSignificantDigits(x: number): string {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, Math.abs(x));
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const biased = (hi >>> 20) & 0x7ff;
  let m = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let e = -1074;
  if (biased !== 0) {
    m |= 1n << 52n;
    e = biased - 1075;
  }
  // m * 2^e = m * 5^-e / 10^-e, so the digits of m * 5^-e are the significant digits.
  const digits = e >= 0 ? (m << BigInt(e)).toString() : (m * 5n ** BigInt(-e)).toString();
  return digits.replace(/0+$/, '');
}

/** The next double above (up) or below positive x. */
function nextAway(x: number, up: boolean): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  view.setBigUint64(0, view.getBigUint64(0) + (up ? 1n : -1n));
  return view.getFloat64(0);
}
