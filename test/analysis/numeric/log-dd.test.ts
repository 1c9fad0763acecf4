import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { dd } from '../../../src/analysis/numeric/double-double.js';
import { logCorrectlyRounded } from '../../../src/analysis/numeric/log.js';
import { logDD } from '../../../src/analysis/numeric/log-dd.js';
import { loadToolFixture, type SpecialFunctions } from '../tools/fixtures.js';

const ref = loadToolFixture<SpecialFunctions>('tool-special-functions.json');

const scratch = dd();
function logDDRounded(x: number): number {
  logDD(x, scratch);
  return scratch[0] + scratch[1];
}

describe('natural log on the statistical tools\' arguments', () => {
  it('the double-double log, rounded once, equals the correctly rounded log on every fixture argument', () => {
    for (const [x, , exact] of ref.log) if (x !== 1) expect(logDDRounded(x), String(x)).toBe(exact);
  });

  it('equals the correctly rounded value (decimal, 60 digits) on every CPython fixture argument', () => {
    for (const [x, , exact] of ref.log) expect(logCorrectlyRounded(x), String(x)).toBe(exact);
  });

  it('therefore equals glibc, as CPython calls it, wherever glibc is correctly rounded, and V8 does not', () => {
    let glibcMisrounded = 0;
    let v8Differs = 0;
    for (const [x, glibc, exact] of ref.log) {
      if (glibc === exact) expect(logCorrectlyRounded(x)).toBe(glibc);
      else glibcMisrounded++;
      if (Math.log(x) !== glibc) v8Differs++;
    }
    // Few glibc misroundings, many more V8 differences: the reason this module exists.
    expect(glibcMisrounded / ref.log.length).toBeLessThan(0.002);
    expect(v8Differs).toBeGreaterThan(10 * glibcMisrounded);
  });

  it('handles the edges like Math.log', () => {
    expect(logCorrectlyRounded(1)).toBe(0);
    expect(logCorrectlyRounded(0)).toBe(-Infinity);
    expect(logCorrectlyRounded(Infinity)).toBe(Infinity);
    expect(logCorrectlyRounded(-1)).toBeNaN();
    expect(logCorrectlyRounded(Number.NaN)).toBeNaN();
    expect(logCorrectlyRounded(5e-324)).toBe(-744.4400719213812);
  });

  it('is within half an ulp plus a hair of Math.log everywhere (never far off)', () => {
    fc.assert(
      fc.property(fc.double({ min: 5e-324, max: 1.7976931348623157e308, noNaN: true }), (x) => {
        const a = logCorrectlyRounded(x);
        const b = Math.log(x);
        expect(Math.abs(a - b)).toBeLessThanOrEqual(Math.abs(b) * 2.3e-16 + 1e-300);
      }),
    );
  });
});
