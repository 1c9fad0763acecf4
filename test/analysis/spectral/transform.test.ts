import { describe, expect, it } from 'vitest';
import { deferredIntervals, fillLogReturns, roundIntervals, transformName } from '../../../src/analysis/spectral/transform.js';
import { NonFiniteStatisticError } from '../../../src/analysis/numeric/round15.js';
import { measurementCoverage } from '../../../src/analysis/spectral/coverage.js';
import { encodePythonBody, parseStrictJson } from '../../../src/core/json.js';
import { ulp } from '../../../src/analysis/numeric/ulp.js';
import type { SpectralObservation, SpectralSeriesKind } from '../../../src/analysis/spectral/types.js';

const tail = (...values: number[]): SpectralObservation[] =>
  values.map((value, i) => ({ observed_at: `2026-01-0${i + 1}T00:00:00Z`, value }));

/** Every interval computed up front: what the deferred form must amount to. */
function intervalValues(kind: SpectralSeriesKind, observations: readonly SpectralObservation[]) {
  const intervals = deferredIntervals(kind, observations);
  if (kind === 'price') fillLogReturns(intervals, observations, 0);
  return intervals;
}

describe('interval transforms', () => {
  it('names the transform by kind', () => {
    expect(transformName('price')).toBe('log_return');
    expect(transformName('return')).toBe('identity_return');
    for (const k of ['level', 'spread', 'rate', 'count'] as const) expect(transformName(k)).toBe('first_difference');
  });

  it('differences logs for prices and records a ulp-based tolerance', () => {
    const out = intervalValues('price', tail(100, 110, 99));
    expect(out.count).toBe(2);
    const d0 = Math.log(110) - Math.log(100);
    expect(out.values[0]).toBe(d0);
    roundIntervals(out.values, 0, 1);
    expect(out.values[0]).toBe(Number(d0.toPrecision(15)));
    expect(out.tolerances![0]).toBe(4 * (ulp(Math.log(100)) + ulp(Math.log(110)) + ulp(d0)));
  });

  it('takes the later value for returns and differences for levels, rounded to 15 digits', () => {
    expect(Array.from(intervalValues('return', tail(9, 0.1, 0.2)).values)).toEqual([0.1, 0.2]);
    // 0.3 - 0.1 is 0.19999999999999998 in binary; 15 digits give 0.2.
    const diff = intervalValues('rate', tail(0.1, 0.3)).values;
    expect(Array.from(diff)).toEqual([0.19999999999999998]);
    roundIntervals(diff, 0, 1);
    expect(Array.from(diff)).toEqual([0.2]);
    expect(intervalValues('level', tail(1)).count).toBe(0);
    expect(intervalValues('level', []).count).toBe(0);
  });

  it('refuses a non-finite interval value wherever it lies', () => {
    expect(() => intervalValues('spread', tail(-1.7e308, 1.7e308, 0))).toThrow(NonFiniteStatisticError);
  });

  it('fills deferred price intervals from any start exactly as the eager transform does', () => {
    const prices = tail(100, 110.5, 99.25, 1e-300, 3e300, 7, 7, 8.125);
    const eager = intervalValues('price', prices);
    for (let from = 0; from <= eager.count; from++) {
      const deferred = deferredIntervals('price', prices);
      fillLogReturns(deferred, prices, from);
      expect(Array.from(deferred.values.subarray(from))).toEqual(Array.from(eager.values.subarray(from)));
      expect(Array.from(deferred.tolerances!.subarray(from))).toEqual(Array.from(eager.tolerances!.subarray(from)));
    }
  });

  it('still refuses a non-finite price when price intervals are deferred', () => {
    expect(() => deferredIntervals('price', tail(Infinity, 1, 2))).toThrow(NonFiniteStatisticError);
    expect(() => deferredIntervals('price', tail(1, NaN, 2))).toThrow(NonFiniteStatisticError);
  });
});

describe('measurement coverage', () => {
  it('is not_supplied without any sample_size key', () => {
    expect(measurementCoverage(tail(1, 2)).status).toBe('not_supplied');
  });

  it('is incomplete when a size is null or missing, with min/max of the declared ones', () => {
    const t = tail(1, 2, 3);
    t[0].sample_size = 50;
    t[1].sample_size = null;
    expect(measurementCoverage(t)).toEqual({
      status: 'incomplete',
      declared_points: 1,
      tail_points: 3,
      minimum: 50,
      maximum: 50,
      sampling_adjustment_applied: false,
    });
  });

  it('distinguishes constant from variable sizes and echoes number kinds', () => {
    const obs = parseStrictJson(
      '[{"observed_at":"2026-01-01T00:00:00Z","value":1,"sample_size":100.0},' +
        '{"observed_at":"2026-01-02T00:00:00Z","value":1,"sample_size":100}]',
    ) as SpectralObservation[];
    const c = measurementCoverage(obs);
    expect(c.status).toBe('constant_declared_count');
    // The first of equal values wins, as with Python's min and max.
    expect(encodePythonBody(c)).toContain('"minimum": 100.0, "maximum": 100.0');
    obs[1].sample_size = 90;
    expect(measurementCoverage(obs).status).toBe('variable');
  });
});
