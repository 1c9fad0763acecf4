import { describe, expect, it } from 'vitest';
import { expectProse, keys, refusal, run } from './run.js';

const HEAD = ['n_pairs', 'validity', 'guarantee', 'is_causal', 'method', 'caveats'];
const MEASURES = ['metric_now', 'sample_size_now', 'metric_departure', 'metric_delta', 'zero_reference_spread', 'sample_size_departure', 'sample_size_change_pct'];
const TAIL = ['verdict', 'assessment', 'reading'];
const HISTORY = [5, 5.5, 6, 6.5, 7, 7.5, 8, 8.5, 9, 9.5];
const SIZES = [100, 110, 120, 130, 140, 150, 160, 170, 180, 190];
const range = (n: number, f: (i: number) => number) => Array.from({ length: n }, (_, i) => f(i));

describe('real_or_sampling: the reference samples', () => {
  it('(a) a fall that follows the sample size: SAMPLING_ARTIFACT, extrapolating', () => {
    const { text, body } = run('real_or_sampling', { values: [...HISTORY, 2.5], sample_sizes: [...SIZES, 50] });
    expect(keys(body)).toEqual([...HEAD, ...MEASURES, 'fit', 'denominator_extrapolation', 'departure_after_conditioning', ...TAIL]);
    expect(text).toContain(
      '"metric_now": 2.5, "sample_size_now": 50.0, "metric_departure": -2.56, "metric_delta": -4.75, "zero_reference_spread": false, ' +
        '"sample_size_departure": -2.56, "sample_size_change_pct": -65.51724137931035, "fit": {"slope": 0.05, "intercept": 0.0, "correlation": 1.0}, ' +
        '"denominator_extrapolation": true, "departure_after_conditioning": null, "verdict": "SAMPLING_ARTIFACT", "assessment": "consistent_with_denominator_association", "reading": "',
    );
    expect(body).toMatchObject({ n_pairs: 11, validity: 'descriptive', guarantee: null, is_causal: false });
    expectProse(body.method);
    expectProse(body.caveats, 5);
    expect(body.reading).toContain('not evidence');
  });

  it('(b) a rise off the line: REAL', () => {
    const { text } = run('real_or_sampling', { values: [...HISTORY, 20], sample_sizes: [...SIZES, 150] });
    expect(text).toContain(
      '"metric_now": 20.0, "sample_size_now": 150.0, "metric_departure": 6.88, "metric_delta": 12.75, "zero_reference_spread": false, ' +
        '"sample_size_departure": 0.13, "sample_size_change_pct": 3.4482758620689653, "fit": {"slope": 0.05, "intercept": 0.0, "correlation": 1.0}, ' +
        '"denominator_extrapolation": false, "departure_after_conditioning": null, "verdict": "REAL", "assessment": "departure_survives_linear_conditioning"',
    );
  });

  it('(c) a weak association: UNCLEAR, and no conditioning member', () => {
    const { text, body } = run('real_or_sampling', { values: [5, 6, 5, 6, 5, 6, 5, 6, 5, 6, 30], sample_sizes: [100, 101, 100, 99, 100, 101, 100, 99, 100, 101, 100] });
    expect(keys(body)).toEqual([...HEAD, ...MEASURES, 'fit', 'denominator_extrapolation', ...TAIL]);
    expect(text).toContain(
      '"metric_departure": 33.05, "metric_delta": 24.5, "zero_reference_spread": false, "sample_size_departure": 0.0, "sample_size_change_pct": 0.0, ' +
        '"fit": {"slope": 0.1020408163265306, "intercept": -4.714285714285712, "correlation": 0.143}, "denominator_extrapolation": false, ' +
        '"verdict": "UNCLEAR", "assessment": "weak_linear_association"',
    );
    expect(body.reading).toContain('0.14');
  });

  it('a move from a history without spread', () => {
    const { text, body } = run('real_or_sampling', { values: [...range(10, () => 1), 3], sample_sizes: range(11, () => 10) });
    expect(keys(body)).toEqual([...HEAD, ...MEASURES, ...TAIL]);
    expect(text).toContain('"metric_departure": null, "metric_delta": 2.0, "zero_reference_spread": true, "sample_size_departure": null, "sample_size_change_pct": 0.0, "verdict": "UNCLEAR", "assessment": "departure_from_zero_spread"');
  });

  it('a constant sample size identifies nothing', () => {
    const { body } = run('real_or_sampling', { values: [1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 9], sample_sizes: range(11, () => 10) });
    expect(body).toMatchObject({ metric_departure: 10.12, verdict: 'UNCLEAR', assessment: 'denominator_explanation_unidentified' });
    expect(keys(body)).not.toContain('fit');
  });

  it('fewer than ten pairs: the short form', () => {
    const { body } = run('real_or_sampling', { values: [1, 2, 3], sample_sizes: [1, 2, 3] });
    expect(keys(body)).toEqual([...HEAD, ...TAIL]);
    expect(body).toMatchObject({ n_pairs: 3, verdict: 'NOT_ENOUGH_HISTORY', assessment: 'insufficient_history' });
  });
});

describe('real_or_sampling: upstream acceptance cases', () => {
  it('five pairs are not enough history', () => {
    expect(run('real_or_sampling', { values: [1, 2, 3, 4, 5], sample_sizes: [1, 2, 3, 4, 5] }).body.verdict).toBe('NOT_ENOUGH_HISTORY');
  });

  it('a metric proportional to its denominator, then a point on the same line', () => {
    const sizes = range(40, (i) => 1000 + 40 * ((7 * i) % 11));
    const { body } = run('real_or_sampling', { values: [...sizes.map((d) => 0.05 * d), 15], sample_sizes: [...sizes, 300] });
    expect(body.verdict).toBe('SAMPLING_ARTIFACT');
    expect(body.reading).toContain('not evidence');
  });

  it('a spike against an almost constant denominator: weak association (r 0.014)', () => {
    const { body } = run('real_or_sampling', {
      values: [...range(40, (i) => 50 + (i % 3) * 0.1), 95],
      sample_sizes: [...range(40, (i) => 1000 + (i % 4)), 1001],
    });
    expect(body).toMatchObject({ verdict: 'UNCLEAR', assessment: 'weak_linear_association' });
    expect(body.fit.correlation).toBe(0.014);
  });

  it('an ordinary reading: NO_MOVE at 0.67', () => {
    const { body } = run('real_or_sampling', { values: range(30, (i) => 50 + (i % 3)), sample_sizes: range(30, () => 1000) });
    expect(body).toMatchObject({ verdict: 'NO_MOVE', metric_departure: 0.67 });
    expectProse(body.reading);
  });

  it('a jump from a flat history: unclear, no standardized departure, not causal', () => {
    const { body } = run('real_or_sampling', { values: [...range(20, () => 1.0), 1000], sample_sizes: range(21, () => 100) });
    expect(body).toMatchObject({ verdict: 'UNCLEAR', assessment: 'departure_from_zero_spread', metric_delta: 999, metric_departure: null, is_causal: false });
  });

  it('series of different lengths are refused', () => {
    expect(refusal('real_or_sampling', { values: range(21, (i) => i), sample_sizes: range(10, () => 1) })).toMatchObject({
      status: 422,
      code: 'length_mismatch',
      path: '/sample_sizes',
    });
  });

  it('a zero sample size is a schema error at its index', () => {
    expect(refusal('real_or_sampling', { values: [1, 2], sample_sizes: [1, 0] })).toMatchObject({ code: 'invalid_input', path: '/sample_sizes/1' });
  });
});

describe('real_or_sampling: arithmetic the reference cannot finish', () => {
  it('subnormal sample sizes whose median halves underflow: 422, where the reference divides by zero and drops the connection', () => {
    const error = refusal('real_or_sampling', '{"values": [1,1,1,1,1,1,1,1,1,1,1], "sample_sizes": [5e-324,5e-324,5e-324,5e-324,5e-324,5e-324,5e-324,5e-324,5e-324,5e-324,5e-324]}');
    expect(error).toMatchObject({ status: 422, code: 'derived_statistic_overflow', path: '/sample_sizes' });
    expect(error.message).toContain('denominator change');
  });

  it('an odd history of the same sizes has a median and answers', () => {
    const sizes = range(12, () => 5e-324);
    expect(run('real_or_sampling', { values: range(12, () => 1), sample_sizes: sizes }).body.verdict).toBe('NO_MOVE');
  });

  it('a metric departure beyond the double range', () => {
    const error = refusal('real_or_sampling', { values: [...range(10, () => -1e308), 1e308], sample_sizes: range(11, () => 1) });
    expect(error.code).toBe('derived_statistic_overflow');
    expect(error.message).toContain('metric departure');
  });

  it('a standardized departure beyond the double range', () => {
    const error = refusal('real_or_sampling', { values: [...range(5, () => 0), ...range(5, () => 1e-322), 1e308], sample_sizes: range(11, () => 1) });
    expect(error.message).toContain('standardized departure');
  });

  it('a finite deviation whose square overflows: values too large for the fit', () => {
    const error = refusal('real_or_sampling', {
      values: [...range(10, (i) => (i % 2 === 0 ? 1 : 2)), 1e6],
      sample_sizes: [...range(10, (i) => (i % 2 === 0 ? 1e200 : 3e200)), 1],
    });
    expect(error).toMatchObject({ code: 'derived_statistic_overflow', path: '/sample_sizes' });
    expect(error.message).toContain('too large');
  });
});
