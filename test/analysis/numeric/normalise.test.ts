import { describe, expect, it } from 'vitest';
import { normaliseColumn, robustCorrelation } from '../../../src/analysis/numeric/normalise.js';

const ramp = Array.from({ length: 12 }, (_, i) => i + 1);

describe('normaliseColumn', () => {
  it('centres on the mean and scales to unit norm', () => {
    const z = normaliseColumn([1, 2, 3])!;
    expect(z[0]).toBeCloseTo(-Math.SQRT1_2, 15);
    expect(z[1]).toBe(0);
    expect(z[2]).toBeCloseTo(Math.SQRT1_2, 15);
  });

  it('is undefined for an all-zero or a constant column', () => {
    expect(normaliseColumn([0, 0, 0])).toBeNull();
    expect(normaliseColumn([5, 5, 5])).toBeNull();
    expect(normaliseColumn([])).toBeNull();
  });

  it('stays finite for values near the ends of the double range', () => {
    // Power-of-two rescaling is exact, so the normalised column does not change at all.
    expect(normaliseColumn(ramp.map((v) => v * 2 ** 1000))).toEqual(normaliseColumn(ramp));
    expect(normaliseColumn(ramp.map((v) => v * 1e-300))!.every(Number.isFinite)).toBe(true);
  });
});

describe('robustCorrelation', () => {
  it('needs equal lengths and at least ten points', () => {
    expect(robustCorrelation(ramp.slice(0, 9), ramp.slice(0, 9))).toBeNull();
    expect(robustCorrelation(ramp, ramp.slice(1))).toBeNull();
  });

  it('is ±1 to the last bit for proportional series, even at 1e±200', () => {
    // CPython's reference formula gives these same two values (0.9999999999999999, -1.0).
    expect(robustCorrelation(ramp.map((v) => v * 1e200), ramp.map((v) => v * 1e-200))).toBe(0.9999999999999999);
    expect(robustCorrelation(ramp.map((v) => v * 1e200), ramp.map((v) => -v * 3e-200))).toBe(-1);
    expect(robustCorrelation(ramp.map((v) => v * 2 ** 600), ramp.map((v) => v * 2 ** -600))).toBe(robustCorrelation(ramp, ramp));
  });

  it('is null when one side is constant, and accepts typed arrays', () => {
    expect(robustCorrelation(ramp, ramp.map(() => 2))).toBeNull();
    const a = Float64Array.from(ramp);
    expect(robustCorrelation(a.subarray(0, 11), a.subarray(1, 12))).toBe(1);
  });

  it('lies in [-1, 1] for arbitrary data', () => {
    const a = ramp.map((v) => Math.sin(v * 1.7));
    const b = ramp.map((v) => Math.cos(v * 0.3) + v / 10);
    const r = robustCorrelation(a, b)!;
    expect(r).toBeGreaterThanOrEqual(-1);
    expect(r).toBeLessThanOrEqual(1);
  });
});
