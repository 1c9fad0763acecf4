import { describe, expect, it } from 'vitest';
import { confidenceSequence, logEvidenceAgainst, logMarginal } from '../../../src/analysis/tools/confidence-sequence.js';
import { expectProse, keys, refusal, run } from './run.js';

const CONSTANT_TAIL = ['safe_to_peek', 'validity', 'guarantee', 'assumptions', 'method'];

describe('ab_test: the reference samples', () => {
  it('(a) an empty arm: no verdict, no difference, the [0, 1] interval', () => {
    const { text, body } = run('ab_test', '{"a_successes":0,"a_total":0,"b_successes":0,"b_total":10}');
    expect(keys(body)).toEqual(['decided', 'winner', 'reading', 'alpha', 'A', 'B', ...CONSTANT_TAIL]);
    expect(body).toMatchObject({ decided: false, winner: null, alpha: 0.05, safe_to_peek: true, validity: 'conditional_on_bernoulli_model' });
    expect(text).toContain('"A": {"successes": 0, "n": 0, "rate": null, "interval": [0.0, 1.0]}, "B": {"successes": 0, "n": 10, "rate": 0.0, "interval": [0.0, 0.4559300591716995]}');
    expectProse(body.reading);
    expectProse(body.guarantee);
    expectProse(body.assumptions, 5);
    expect(body.method).toContain('arXiv');
  });

  it('(b) rates that are exact ties round half-even; the overlap reports the difference', () => {
    const { text, body } = run('ab_test', '{"a_successes":1,"a_total":64,"b_successes":3,"b_total":64}');
    expect(keys(body)).toEqual(['decided', 'winner', 'reading', 'alpha', 'A', 'B', ...CONSTANT_TAIL, 'observed_difference_pp', 'what_would_decide_it']);
    expect(text).toContain('"A": {"successes": 1, "n": 64, "rate": 0.01562, "interval": [6.011891959536647e-06, 0.1483120990352219]}');
    expect(text).toContain('"B": {"successes": 3, "n": 64, "rate": 0.04688, "interval": [0.00219354709153826, 0.20098785410009964]}');
    expect(text).toContain('"observed_difference_pp": 3.12, "what_would_decide_it": "');
  });

  it('(c) separated intervals decide, and a decided result carries no difference', () => {
    const { body } = run('ab_test', '{"a_successes":500,"a_total":5000,"b_successes":750,"b_total":5000}');
    expect(body).toMatchObject({
      decided: true,
      winner: 'B',
      A: { successes: 500, n: 5000, rate: 0.1, interval: [0.083664566977472, 0.11808951820361124] },
      B: { successes: 750, n: 5000, rate: 0.15, interval: [0.1304879871782403, 0.17101459487555315] },
    });
    expect(keys(body)).not.toContain('observed_difference_pp');
  });

  it('(d) labels become result members in their place', () => {
    const { text, body } = run('ab_test', '{"a_successes":2,"a_total":10,"b_successes":9,"b_total":10,"alpha":0.1,"a_label":"control","b_label":"variant"}');
    expect(keys(body).slice(0, 7)).toEqual(['decided', 'winner', 'reading', 'alpha', 'control', 'variant', 'safe_to_peek']);
    expect(text).toContain('"control": {"successes": 2, "n": 10, "rate": 0.2, "interval": [0.010483095218914567, 0.646957807924307]}');
    expect(text).toContain('"variant": {"successes": 9, "n": 10, "rate": 0.9, "interval": [0.4548817472868107, 0.9995435831173226]}');
    expect(body.alpha).toBe(0.1);
    expect(body.observed_difference_pp).toBe(70.0);
  });
});

describe('ab_test: caller labels as result members', () => {
  it('keeps array-index labels where they belong, in the order given', () => {
    const { text } = run('ab_test', { a_successes: 2, a_total: 10, b_successes: 9, b_total: 10, a_label: '1', b_label: '0' });
    expect(text).toMatch(/"alpha": 0\.05, "1": \{"successes": 2, [^}]*\}, "0": \{"successes": 9, [^}]*\}, "safe_to_peek": true/);
  });

  it('makes __proto__ a real member and names it as the winner', () => {
    const { text, body } = run('ab_test', { a_successes: 500, a_total: 5000, b_successes: 750, b_total: 5000, a_label: 'x', b_label: '__proto__' });
    expect(text).toContain('"winner": "__proto__"');
    expect(text).toMatch(/"x": \{[^}]*\}, "__proto__": \{"successes": 750, /);
    expect(Object.getPrototypeOf(body)).toBe(Object.prototype);
  });

  it('names the winner by label whichever arm it is', () => {
    expect(run('ab_test', { a_successes: 750, a_total: 5000, b_successes: 500, b_total: 5000, a_label: 'B', b_label: 'A' }).body.winner).toBe('B');
    expect(run('ab_test', { a_successes: 500, a_total: 5000, b_successes: 750, b_total: 5000, a_label: 'control', b_label: 'variant' }).body.winner).toBe('variant');
  });

  it('accepts astral and non-ASCII labels of up to 128 code points', () => {
    const label = '😀'.repeat(128);
    const { body } = run('ab_test', { a_successes: 1, a_total: 2, b_successes: 1, b_total: 2, a_label: label, b_label: 'é' });
    expect(keys(body).slice(4, 6)).toEqual([label, 'é']);
  });
});

describe('ab_test: refusals, in the reference order', () => {
  it('more successes than trials, arm A first, then arm B', () => {
    const a = refusal('ab_test', { a_successes: 10, a_total: 5, b_successes: 10, b_total: 5 });
    expect(a).toMatchObject({ status: 422, code: 'successes_exceed_total', path: '/a_successes' });
    expect(refusal('ab_test', { a_successes: 1, a_total: 5, b_successes: 10, b_total: 5 })).toMatchObject({ code: 'successes_exceed_total', path: '/b_successes' });
    // Counts come before labels.
    expect(refusal('ab_test', { a_successes: 10, a_total: 5, b_successes: 0, b_total: 5, a_label: 'alpha' }).code).toBe('successes_exceed_total');
  });

  it.each([
    [{ a_label: 'A', b_label: 'A' }, '/b_label'],
    [{ a_label: 'alpha', b_label: 'B' }, '/a_label'],
    [{ b_label: 'winner' }, '/b_label'],
    [{ a_label: 'B' }, '/b_label'],
    [{ a_label: 'what_would_decide_it' }, '/a_label'],
  ])('labels %j that collide are refused', (labels, path) => {
    expect(refusal('ab_test', { a_successes: 1, a_total: 10, b_successes: 2, b_total: 10, ...labels })).toMatchObject({ code: 'invalid_arm_labels', path });
  });

  it('an empty label is a schema error', () => {
    expect(refusal('ab_test', { a_successes: 1, a_total: 10, b_successes: 2, b_total: 10, b_label: '' })).toMatchObject({ code: 'invalid_input', path: '/b_label' });
  });

  it('an alpha whose half underflows is refused; 0 and 1 already by the schema', () => {
    expect(refusal('ab_test', '{"a_successes": 1, "a_total": 2, "b_successes": 1, "b_total": 2, "alpha": 5e-324}')).toMatchObject({ code: 'alpha_too_small', path: '/alpha' });
    expect(refusal('ab_test', '{"a_successes": 1, "a_total": 2, "b_successes": 1, "b_total": 2, "alpha": 0}')).toMatchObject({ code: 'invalid_input', path: '/alpha' });
    expect(run('ab_test', '{"a_successes": 1, "a_total": 2, "b_successes": 1, "b_total": 2, "alpha": 1e-300}').body.alpha).toBe(1e-300);
  });

  it.each(['-1', '10.5', '1e1', 'true', '"10"', 'null'])('a_total %s is refused by the schema', (total) => {
    expect(refusal('ab_test', `{"a_successes": 1, "a_total": ${total}, "b_successes": 1, "b_total": 2}`)).toMatchObject({ code: 'invalid_input', path: '/a_total' });
  });
});

describe('ab_test: verdicts (upstream acceptance cases)', () => {
  it('5/50 against 8/50 is safe to peek and cites its method', () => {
    const { body } = run('ab_test', { a_successes: 5, a_total: 50, b_successes: 8, b_total: 50 });
    expect(body.safe_to_peek).toBe(true);
    expect(body.method).toContain('arXiv');
    expect(body.decided).toBe(false);
  });

  it('1/10 against 2/10: conditional on the Bernoulli model, with five assumptions', () => {
    const { body } = run('ab_test', { a_successes: 1, a_total: 10, b_successes: 2, b_total: 10 });
    expect(body.validity).toBe('conditional_on_bernoulli_model');
    expectProse(body.assumptions, 5);
  });

  it('1/3 against 2/3 is undecided', () => {
    expect(run('ab_test', { a_successes: 1, a_total: 3, b_successes: 2, b_total: 3 }).body.decided).toBe(false);
  });

  it('prints alpha in the guarantee as Python %g does', () => {
    const guarantee = (alpha: string) =>
      run('ab_test', `{"a_successes": 1, "a_total": 2, "b_successes": 1, "b_total": 2, "alpha": ${alpha}}`).body.guarantee as string;
    expect(guarantee('0.05')).toContain(' 0.05.');
    expect(guarantee('1e-06')).toContain(' 1e-06.');
    expect(guarantee('0.0009765625')).toContain(' 0.000976562.');
  });

  it('handles the largest counts', () => {
    const { body } = run('ab_test', { a_successes: 1e12, a_total: 1e12, b_successes: 0, b_total: 1e12 });
    expect(body).toMatchObject({ decided: true, winner: 'A' });
    expect(body.A.interval[1]).toBe(1.0);
    expect(body.B.interval[0]).toBe(0.0);
  });
});

describe('the confidence sequence of one arm', () => {
  const cs = (s: number, n: number) => confidenceSequence(s, n, 0.025, '/a_successes');

  it('narrows as the trials grow', () => {
    const width = ([lo, hi]: [number, number]) => hi - lo;
    expect(width(cs(100, 1000))).toBeLessThan(width(cs(10, 100)));
    expect(width(cs(1000, 10000))).toBeLessThan(width(cs(100, 1000)));
  });

  it.each([[10, 100], [1, 1000], [999, 1000], [0, 30], [30, 30]])('contains the observed rate of %i/%i', (s, n) => {
    const [lo, hi] = cs(s, n);
    expect(lo).toBeLessThanOrEqual(s / n);
    expect(hi).toBeGreaterThanOrEqual(s / n);
  });

  it.each([[0, 10], [10, 10], [1, 5]])('stays within [0, 1] for %i/%i', (s, n) => {
    const [lo, hi] = cs(s, n);
    expect(lo).toBeGreaterThanOrEqual(0);
    expect(hi).toBeLessThanOrEqual(1);
  });

  it('is [0, 1] without trials', () => {
    expect(cs(0, 0)).toEqual([0, 1]);
  });

  it('the mixture evidence: stronger against a rate far from the data; infinite against an impossible rate', () => {
    const m = logMarginal(100, 1000, '');
    expect(logEvidenceAgainst(0.5, 100, 1000, m)).toBeGreaterThan(logEvidenceAgainst(0.1, 100, 1000, m));
    const m5 = logMarginal(5, 10, '');
    expect(logEvidenceAgainst(0, 5, 10, m5)).toBe(Infinity);
    expect(logEvidenceAgainst(1, 5, 10, m5)).toBe(Infinity);
    const m0 = logMarginal(0, 10, '');
    expect(logEvidenceAgainst(0, 0, 10, m0)).toBeCloseTo(-Math.log(11), 14);
  });
});
