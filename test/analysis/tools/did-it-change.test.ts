import { describe, expect, it } from 'vitest';
import { expectProse, keys, refusal, run } from './run.js';
import { loadToolFixture, type ToolSeries } from './fixtures.js';

const series = loadToolFixture<ToolSeries>('tool-series.json');
const STEP_21 = [1, 2, 1, 2, 1, 2, 1, 2, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22];
const range = (n: number, f: (i: number) => number) => Array.from({ length: n }, (_, i) => f(i));

describe('did_it_change: the reference samples', () => {
  it('(a) a jump after warm-up: steady, 3.037, effect against the nine earlier readings', () => {
    const { text, body } = run('did_it_change', { values: [1, 2, 1, 2, 1, 2, 1, 2, 8, 9] });
    expect(keys(body)).toEqual([
      'n', 'state', 'evidence', 'monitoring_statistic', 'statistic_type', 'is_e_value', 'validity', 'weighted', 'assumptions',
      'direction', 'effect', 'effect_reference_size', 'change_points', 'watch_at', 'changed_at', 'readings_since_change',
      'reading', 'guarantee', 'interpretation', 'method',
    ]);
    expect(text).toContain('{"n": 10, "state": "steady", "evidence": 3.037, "monitoring_statistic": 3.037, "statistic_type": "shiryaev_roberts", "is_e_value": false, "validity": "descriptive", "weighted": false, "assumptions": [');
    expect(text).toContain('"direction": "up", "effect": {"direction": "up", "delta": 7.0, "robust_z": 4.72, "percentile": 100.0}, "effect_reference_size": 9, "change_points": [], "watch_at": 200.0, "changed_at": 1000.0, "readings_since_change": null, "reading": "');
    expect(body.guarantee).toBeNull();
    expectProse(body.assumptions, 3);
    expectProse(body.interpretation);
    expectProse(body.method);
  });

  it('(b) one-sided: the alarm at 19 restarts the monitor, which is warming up again', () => {
    const { text, body } = run('did_it_change', { values: STEP_21, two_sided: false });
    expect(text).toContain('"n": 21, "state": "warming_up", "evidence": 0.0, "monitoring_statistic": 0.0, ');
    expect(text).toContain('"weighted": false, ');
    expect(text).toContain('"direction": null, "effect": {"direction": "flat", "delta": null, "robust_z": null, "percentile": null}, "effect_reference_size": 0, "change_points": [19], "watch_at": 100.0, "changed_at": 500.0, "readings_since_change": 1, ');
    expect(body.reading).toContain('CHANGED');
    expect(body.method).toContain('One-sided');
  });

  it('(b) two-sided: changed at the last reading; with half_life 4 it is weighted and steady', () => {
    const two = run('did_it_change', { values: STEP_21 }).body;
    expect(two).toMatchObject({ state: 'changed', evidence: 1812.9185, change_points: [20], readings_since_change: 0, direction: 'up' });
    expect(two.effect.robust_z).toBe(0.89);
    expect(two.reading).toContain('CHANGED');
    const weighted = run('did_it_change', { values: STEP_21, half_life: 4 }).body;
    expect(weighted).toMatchObject({ state: 'steady', evidence: 29.0645, weighted: true });
  });

  it('(c) flat data: the driver is "up" on a tie while the effect is flat', () => {
    const { text, body } = run('did_it_change', { values: [5, 5, 5, 5, 5, 5, 5, 5, 5] });
    expect(body).toMatchObject({ state: 'steady', evidence: 0.5, direction: 'up' });
    expect(text).toContain('"effect": {"direction": "flat", "delta": 0.0, "robust_z": null, "percentile": 0.0}');
  });

  it('(c) a constant series converges to exactly 1.0', () => {
    const { body } = run('did_it_change', { values: range(60, () => 42.0) });
    expect(body).toMatchObject({ state: 'steady', evidence: 1.0, change_points: [] });
  });

  it('(c) a percentile of exactly 6.25 rounds half-even to 6.2', () => {
    const { body } = run('did_it_change', { values: [0, ...range(15, () => 5), 1] });
    expect(body.effect).toMatchObject({ direction: 'down', percentile: 6.2 });
    expect(body.evidence).toBe(2.467);
  });
});

describe('did_it_change: upstream acceptance cases', () => {
  it('a spike after a flat stretch: effect up, robust z 302.85, percentile 100', () => {
    const { body } = run('did_it_change', { values: [...range(30, (i) => 50 + (i % 3) * 0.1), 95] });
    expect(body.effect.direction).toBe('up');
    expect(body.effect.robust_z).toBe(302.85);
    expect(body.effect.percentile).toBe(100.0);
  });

  it('a shifted gaussian series (seed 4) reads CHANGED and counts readings since the change', () => {
    const { body } = run('did_it_change', { values: series.did_it_change_seed4 });
    // The reference's own run on this series: change point 45, six readings since.
    expect(body.change_points).toEqual([45]);
    expect(body.readings_since_change).toBe(6);
    expect(body.reading).toContain('CHANGED');
  });

  it('two-sided thresholds are twice the one-sided ones', () => {
    const values = range(30, (i) => i % 5);
    expect(run('did_it_change', { values }).body).toMatchObject({ watch_at: 200.0, changed_at: 1000.0 });
    expect(run('did_it_change', { values, two_sided: false }).body).toMatchObject({ watch_at: 100.0, changed_at: 500.0 });
  });

  it('the same readings give the same bytes', () => {
    const values = range(60, (i) => (7 * i) % 13);
    expect(run('did_it_change', { values }).text).toBe(run('did_it_change', { values }).text);
  });

  it('a rising line: watch at 484.9268, and its statistic is no e-value for which_metrics_matter', () => {
    const { body } = run('did_it_change', { values: range(40, (i) => i) });
    expect(body).toMatchObject({ state: 'watch', evidence: 484.9268, is_e_value: false, statistic_type: 'shiryaev_roberts', guarantee: null });
    const board = run('which_metrics_matter', { evidence: { rising: body.evidence } }).body;
    expect(board).toMatchObject({ selected: [], guarantee: null, board_evidence: null, validity: 'unverified_inputs' });
  });

  it.each([
    [undefined, false],
    [undefined, true],
    [5.0, false],
    [5.0, true],
  ])('half_life %s, two_sided %s: descriptive, no guarantee, never an n/1000 claim', (halfLife, twoSided) => {
    const { text, body } = run('did_it_change', { values: range(30, (i) => i % 3), two_sided: twoSided, ...(halfLife === undefined ? {} : { half_life: halfLife }) });
    expect(body.guarantee).toBeNull();
    expect(body.validity).toBe('descriptive');
    expectProse(body.assumptions, 3);
    expect(text).not.toContain('n/1000');
  });

  it('the first change point of a step from 0 to 100 is 36; before it the monitor is still warming up', () => {
    const values = [...range(30, () => 0), ...range(30, (i) => 100 + i)];
    expect(run('did_it_change', { values }).body.change_points[0]).toBe(36);
    const prefix = run('did_it_change', { values: values.slice(0, 38) }).body;
    expect(prefix).toMatchObject({ state: 'warming_up', effect_reference_size: 0 });
    expect(prefix.effect.robust_z).toBeNull();
  });

  it('eight readings are still a warm-up', () => {
    expect(run('did_it_change', { values: [10, 11, 10, 12, 11, 10, 11, 12] }).body).toMatchObject({ n: 8, state: 'warming_up' });
  });

  it('at most 32 of 200 iid gaussian series show any change point', () => {
    const flagged = series.did_it_change_iid_seed11_plus_t.filter((values) => run('did_it_change', { values }).body.change_points.length > 0);
    expect(flagged.length).toBeLessThanOrEqual(32);
  });

  it('a rise and its mirror: two-sided catches both, one-sided misses the fall', () => {
    expect(run('did_it_change', { values: series.did_it_change_seed3_up }).body.change_points.length).toBeGreaterThan(0);
    expect(run('did_it_change', { values: series.did_it_change_seed3_down }).body.change_points.length).toBeGreaterThan(0);
    expect(run('did_it_change', { values: series.did_it_change_seed3_up, two_sided: false }).body.change_points.length).toBeGreaterThan(0);
    expect(run('did_it_change', { values: series.did_it_change_seed3_down, two_sided: false }).body.change_points).toEqual([]);
  });
});

describe('did_it_change: numbers that leave the double range', () => {
  it('an overflowing latest departure is a 422 naming it', () => {
    const error = refusal('did_it_change', '{"values": [1e308, -1e308]}');
    expect(error).toMatchObject({ status: 422, code: 'derived_statistic_overflow', path: '/values/1' });
    expect(error.message).toContain('latest departure');
  });

  it('an overflowing reference spread is a 422 too', () => {
    const error = refusal('did_it_change', '{"values": [1e308, -1e308, 1e308, 0]}');
    expect(error.code).toBe('derived_statistic_overflow');
    expect(error.message).toContain('reference deviation');
  });

  it('a tiny half-life weights only the newest reading and still answers', () => {
    const { body } = run('did_it_change', { values: range(40, (i) => i % 7), half_life: 1e-300 });
    expect(body.weighted).toBe(true);
  });

  it('an integer -0 is the float 0.0 the reference would print', () => {
    const { text } = run('did_it_change', '{"values": [-0]}');
    expect(text).toContain('"evidence": 0.0');
    expect(run('did_it_change', '{"values": [1, 1, 1, 1, 1, 1, 1, 1, 1, -0]}').body.effect.delta).toBe(-1);
  });
});
