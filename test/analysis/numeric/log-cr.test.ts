import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { logCR } from '../../../src/analysis/numeric/log-cr.js';
import { loadToolFixture, type SpecialFunctions } from '../tools/fixtures.js';

const ref = loadToolFixture<SpecialFunctions>('tool-special-functions.json');

describe('correctly rounded natural log', () => {
  it('equals the correctly rounded value (decimal, 60 digits) on every CPython fixture argument', () => {
    for (const [x, , exact] of ref.log) expect(logCR(x), String(x)).toBe(exact);
  });

  it('therefore equals glibc, as CPython calls it, wherever glibc is correctly rounded, and V8 does not', () => {
    let glibcMisrounded = 0;
    let v8Differs = 0;
    for (const [x, glibc, exact] of ref.log) {
      if (glibc === exact) expect(logCR(x)).toBe(glibc);
      else glibcMisrounded++;
      if (Math.log(x) !== glibc) v8Differs++;
    }
    // Few glibc misroundings, many more V8 differences: the reason this module exists.
    expect(glibcMisrounded / ref.log.length).toBeLessThan(0.002);
    expect(v8Differs).toBeGreaterThan(10 * glibcMisrounded);
  });

  it('handles the edges like Math.log', () => {
    expect(logCR(1)).toBe(0);
    expect(logCR(0)).toBe(-Infinity);
    expect(logCR(Infinity)).toBe(Infinity);
    expect(logCR(-1)).toBeNaN();
    expect(logCR(Number.NaN)).toBeNaN();
    expect(logCR(5e-324)).toBe(-744.4400719213812);
  });

  it('is within half an ulp plus a hair of Math.log everywhere (never far off)', () => {
    fc.assert(
      fc.property(fc.double({ min: 5e-324, max: 1.7976931348623157e308, noNaN: true }), (x) => {
        const a = logCR(x);
        const b = Math.log(x);
        expect(Math.abs(a - b)).toBeLessThanOrEqual(Math.abs(b) * 2.3e-16 + 1e-300);
      }),
    );
  });
});
