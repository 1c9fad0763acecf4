import { describe, expect, it } from 'vitest';
import { expectProse, keys, refusal, run } from './run.js';

const KEYS = [
  'selected', 'alpha', 'k', 'n_watched', 'threshold', 'board_evidence', 'descriptive_mean', 'ranked', 'valid_evalues', 'validity',
  'guarantee', 'assumptions', 'reading', 'method', 'note',
];
const board = (n: number, value = 1.0) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`m${i}`, value]));

describe('which_metrics_matter: the reference samples', () => {
  it('(a) e-BH selects the one large e-value', () => {
    const { text, body } = run('which_metrics_matter', '{"evidence":{"a":100.0,"b":1.0},"valid_evalues":true}');
    expect(keys(body)).toEqual(KEYS);
    expect(text).toContain(
      '{"selected": ["a"], "alpha": 0.1, "k": 1, "n_watched": 2, "threshold": 20.0, "board_evidence": 50.5, "descriptive_mean": 50.5, ' +
        '"ranked": [{"metric": "a", "evidence": 100.0}, {"metric": "b", "evidence": 1.0}], "valid_evalues": true, "validity": "conditional_on_valid_evalues", "guarantee": "If every supplied',
    );
    expectProse(body.assumptions, 5);
    expectProse(body.reading);
    expect(body.method).toContain('arXiv:2009.02824');
    expectProse(body.note);
  });

  it('(b) the largest qualifying rank pulls in everything above it; ties rank by name', () => {
    const request = { evidence: { signups: 40, churn: 12.5, latency: 0, revenue: 12.5 } };
    const { text, body } = run('which_metrics_matter', { ...request, valid_evalues: true, alpha: 0.2 });
    expect(body).toMatchObject({ selected: ['churn', 'revenue', 'signups'], alpha: 0.2, k: 3, n_watched: 4, threshold: 6.666666666666666, board_evidence: 16.25, descriptive_mean: 16.25 });
    expect(text).toContain('"ranked": [{"metric": "signups", "evidence": 40.0}, {"metric": "churn", "evidence": 12.5}, {"metric": "revenue", "evidence": 12.5}, {"metric": "latency", "evidence": 0.0}]');
    const plain = run('which_metrics_matter', request);
    expect(plain.body).toMatchObject({ selected: [], alpha: 0.1, k: 0, threshold: null, board_evidence: null, descriptive_mean: 16.25, valid_evalues: false, validity: 'unverified_inputs', guarantee: null });
    expect(plain.text).toContain('"ranked": [{"metric": "signups", "evidence": 40.0}, {"metric": "churn", "evidence": 12.5}');
  });

  it('(c) nothing qualifies; an empty name and an empty board are refused', () => {
    expect(run('which_metrics_matter', { evidence: { x: 3, y: 2 }, valid_evalues: true }).body).toMatchObject({ selected: [], k: 0, threshold: 20.0, board_evidence: 2.5 });
    expect(refusal('which_metrics_matter', { evidence: { '': 3 } })).toMatchObject({ status: 422, code: 'empty_metric_name', path: '/evidence/' });
    expect(refusal('which_metrics_matter', { evidence: {} })).toMatchObject({ code: 'invalid_input', path: '/evidence' });
  });
});

describe('which_metrics_matter: upstream acceptance cases', () => {
  it('twenty unit e-values select nothing', () => {
    expect(run('which_metrics_matter', { evidence: board(20), valid_evalues: true }).body.selected).toEqual([]);
  });

  it('one big e-value among nine ones is selected at threshold 100', () => {
    const { body } = run('which_metrics_matter', { evidence: { ...board(9), big: 101 }, alpha: 0.1, valid_evalues: true });
    expect(body).toMatchObject({ selected: ['big'], threshold: 100.0 });
  });

  it('the threshold grows with the family', () => {
    expect(run('which_metrics_matter', { evidence: { x: 500 }, valid_evalues: true }).body.threshold).toBe(10.0);
    expect(run('which_metrics_matter', { evidence: { x: 500, ...board(30) }, valid_evalues: true }).body.threshold).toBe(310.0);
  });

  it.each([
    ['{"evidence": {"x": 1}, "alpha": 1.5}', '/alpha'],
    ['{"evidence": {"x": 1}, "valid_evalues": "true"}', '/valid_evalues'],
    ['{"evidence": {"x": -1}}', '/evidence/x'],
    ['{"evidence": {"x": true}}', '/evidence/x'],
    ['{"evidence": {"x": "1"}}', '/evidence/x'],
  ])('%s is refused', (request, path) => {
    expect(refusal('which_metrics_matter', request)).toMatchObject({ code: 'invalid_input', path });
  });
});

describe('which_metrics_matter: caller names', () => {
  it('ranks ties by code point (astral after BMP), and keeps index-like and __proto__ names', () => {
    const { body } = run('which_metrics_matter', '{"evidence": {"\uff5a": 1, "z\ud83d\ude00": 1, "2": 1, "10": 1, "__proto__": 1}}');
    expect(body.ranked.map((r: { metric: string }) => r.metric)).toEqual(['10', '2', '__proto__', 'z😀', 'ｚ']);
  });

  it('sums the mean in the order the members were written', () => {
    const a = run('which_metrics_matter', '{"evidence": {"b": 0.1, "1": 0.2, "a": 0.3}}').body.descriptive_mean;
    let expected = 0;
    for (const v of [0.1, 0.2, 0.3]) expected += v / 3;
    expect(a).toBe(expected);
  });

  it('an alpha so small that the threshold overflows is a 422', () => {
    const error = refusal('which_metrics_matter', '{"evidence": {"x": 1, "y": 1}, "valid_evalues": true, "alpha": 1e-308}');
    expect(error).toMatchObject({ code: 'derived_statistic_overflow', path: '/alpha' });
    expect(error.message).toContain('selection threshold');
    // Without the assertion no threshold is computed, so it answers.
    expect(run('which_metrics_matter', '{"evidence": {"x": 1}, "alpha": 1e-308}').body.threshold).toBeNull();
  });

  it('a mean beyond the double range is a 422', () => {
    const max = 1.7976931348623157e308;
    const error = refusal('which_metrics_matter', { evidence: { a: max, b: max, c: max } });
    expect(error.message).toContain('merged evidence');
  });
});
