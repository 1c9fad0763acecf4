import { describe, expect, it } from 'vitest';
import { intervalScore, weightedIntervalScore } from '../../../src/analysis/tools/score-forecasts.js';
import { expectProse, keys, refusal, run } from './run.js';
import { loadToolFixture, type ToolSeries } from './fixtures.js';

const series = loadToolFixture<ToolSeries>('tool-series.json');
const range = (n: number, f: (i: number) => number) => Array.from({ length: n }, (_, i) => f(i));
const SHORT_KEYS = ['ok', 'validity', 'guarantee', 'method', 'caveats', 'reading'];
const THIRTEEN = [10, 11, 10, 12, 11, 10, 11, 12, 13, 12, 11, 14, 12];
const TWENTY = [10, 11, 10, 12, 11, 10, 11, 12, 13, 12, 11, 14, 12, 12, 13, 11, 15, 14, 14, 13];

describe('forecast_next: the reference samples', () => {
  it('(a) eleven readings: the first interval', () => {
    const { text, body } = run('forecast_next', { values: THIRTEEN.slice(0, 11) });
    expect(keys(body)).toEqual(['ok', 'forecast', 'interval', 'nominal_coverage', 'adaptive_alpha', 'error_history_size', 'validity', 'guarantee', 'method', 'caveats', 'reading']);
    expect(text).toContain('{"ok": true, "forecast": 11.0, "interval": [10.0, 12.0], "nominal_coverage": 0.8, "adaptive_alpha": 0.19999999999999996, "error_history_size": 10, "validity": "empirical_only", "guarantee": null, "method": "');
    expectProse(body.caveats, 4);
    expectProse(body.reading);
  });

  it('(b) two misses adapt the level', () => {
    expect(run('forecast_next', { values: THIRTEEN }).text).toContain('"forecast": 12.0, "interval": [10.0, 14.0], "nominal_coverage": 0.8, "adaptive_alpha": 0.1205926106725334, "error_history_size": 12');
    expect(run('forecast_next', { values: THIRTEEN, nominal: 0.5 }).text).toContain('"interval": [11.0, 13.0], "nominal_coverage": 0.5, "adaptive_alpha": 0.45037038167033344');
  });

  it('(c) too few readings: the short form', () => {
    const { body } = run('forecast_next', { values: [1, 2, 3] });
    expect(keys(body)).toEqual(SHORT_KEYS);
    expect(body).toMatchObject({ ok: false, validity: 'empirical_only', guarantee: null });
    expect(body.reading).toContain('11');
  });
});

describe('score_forecasts: the reference samples', () => {
  it('(a) twenty readings: nine forecasts, three misses, the first two records', () => {
    const { text, body } = run('score_forecasts', { values: TWENTY });
    expect(keys(body)).toEqual([
      'ok', 'validity', 'guarantee', 'method', 'caveats', 'n_forecasts', 'nominal_coverage', 'empirical_coverage', 'calibrated',
      'within_coverage_tolerance', 'calibration_criterion', 'score', 'baseline_score', 'beats_baseline', 'skill_vs_baseline', 'n_misses',
      'records', 'misses', 'worst_misses', 'records_complete', 'reading',
    ]);
    expect(text).toContain(
      '"n_forecasts": 9, "nominal_coverage": 0.8, "empirical_coverage": 0.6666666666666666, "calibrated": false, "within_coverage_tolerance": false, "calibration_criterion": "',
    );
    expect(text).toContain('"score": 0.9900091793256823, "baseline_score": 0.9957936507936509, "beats_baseline": true, "skill_vs_baseline": 0.005808905754076998, "n_misses": 3, "records": [');
    expect(text).toContain(
      '{"index": 11, "forecast": 11.0, "interval": [10.0, 12.0], "nominal_coverage": 0.8, "adaptive_alpha": 0.19999999999999996, "error_history_size": 10, "actual": 14.0, "covered": false, "missed_by": 2.0, "score": 2.207857142857143, "baseline_score": 2.207857142857143}, ' +
        '{"index": 12, "forecast": 14.0, "interval": [12.601985123916004, 15.398014876083996], "nominal_coverage": 0.8, "adaptive_alpha": 0.16019851239160038, "error_history_size": 11, "actual": 12.0, "covered": false, "missed_by": 0.6019851239160037, "score": 1.0033037957382436, "baseline_score": 1.092857142857143}',
    );
    expect(body.records.map((r: { index: number; covered: boolean; adaptive_alpha: number }) => [r.index, r.covered, r.adaptive_alpha]).slice(2)).toEqual([
      [13, true, 0.1205926106725334],
      [14, true, 0.13044590345417634],
      [15, true, 0.14025171021108554],
      [16, false, 0.15001071094057086],
      [17, true, 0.11115927644628029],
      [18, true, 0.12082664133673693],
      [19, true, 0.1304491458232307],
    ]);
    expect(body.misses.map((r: { index: number }) => r.index)).toEqual([11, 12, 16]);
    // 11 and 16 both missed by 2.0: the tie keeps index order.
    expect(body.worst_misses.map((r: { index: number }) => r.index)).toEqual([11, 16, 12]);
    expect(body.records_complete).toBe(true);
  });

  it('(b) squares miss every time', () => {
    const { body } = run('score_forecasts', { values: range(300, (i) => i * i) });
    expect(body).toMatchObject({
      n_forecasts: 289,
      n_misses: 289,
      empirical_coverage: 0.0,
      calibrated: false,
      score: 114.29071181615875,
      baseline_score: 151.64142857142858,
      skill_vs_baseline: 0.2463094492523611,
      validity: 'empirical_only',
      guarantee: null,
    });
    expect(body.records).toHaveLength(289);
    expect(body.misses).toHaveLength(289);
    expect(body.worst_misses.map((r: { index: number }) => r.index)).toEqual([299, 298, 297, 296, 295]);
  });

  it('fewer than twenty readings: the short form', () => {
    const { body } = run('score_forecasts', { values: range(19, (i) => i) });
    expect(keys(body)).toEqual(SHORT_KEYS);
    expect(body.reading).toContain('20');
  });
});

describe('forecasts: upstream acceptance cases', () => {
  it('two readings are too few for both tools', () => {
    expect(run('forecast_next', { values: [1, 2] }).body.ok).toBe(false);
    expect(run('score_forecasts', { values: [1, 2] }).body.ok).toBe(false);
  });

  it('the interval brackets the forecast', () => {
    const { body } = run('forecast_next', { values: range(40, (i) => 50 + (i % 5)) });
    expect(body.forecast).toBe(54.0);
    expect(body.interval).toEqual([53.0, 55.0]);
  });

  it('a spike (seed 3): misses recorded, worst first', () => {
    const { body } = run('score_forecasts', { values: series.score_forecasts_seed3 });
    // The reference's own run: 21 misses, the worst at these indices.
    expect(body.n_misses).toBe(21);
    expect(body.worst_misses.map((r: { index: number }) => r.index)).toEqual([101, 100, 52, 67, 53]);
    expect(body.worst_misses[0].covered).toBe(false);
    const missedBy = body.worst_misses.map((r: { missed_by: number }) => r.missed_by);
    for (let i = 1; i < missedBy.length; i++) expect(missedBy[i]).toBeLessThanOrEqual(missedBy[i - 1]);
  });

  it('gaussian noise (seed 17): a boolean comparison and a skill', () => {
    const { body } = run('score_forecasts', { values: series.score_forecasts_seed17 });
    expect(typeof body.beats_baseline).toBe('boolean');
    expect(body.skill_vs_baseline).not.toBeNull();
  });

  it('every record is what forecast_next says on the values before it (seed 193 walk)', () => {
    const values = series.score_forecasts_seed193_walk;
    const { body } = run('score_forecasts', { values });
    for (const record of body.records) {
      const next = run('forecast_next', { values: values.slice(0, record.index) }).body;
      expect(next.forecast).toBe(record.forecast);
      expect(next.interval).toEqual(record.interval);
      expect(next.nominal_coverage).toBe(record.nominal_coverage);
      expect(next.adaptive_alpha).toBe(record.adaptive_alpha);
      expect(record.covered).toBe(record.interval[0] <= record.actual && record.actual <= record.interval[1]);
    }
    expect(body.n_misses).toBe(body.misses.length);
    expect(body.empirical_coverage).toBe(1 - body.misses.length / body.n_forecasts);
    expect(body.records_complete).toBe(true);
  });

  it('records of a prefix are a prefix of the records after more readings', () => {
    const prefix = series.score_forecasts_seed193_walk.slice(0, 75);
    const before = run('score_forecasts', { values: prefix }).text;
    const after = run('score_forecasts', { values: [...prefix, 1000, -4000, 2] }).body;
    const beforeBody = JSON.parse(before);
    expect(after.records.slice(0, beforeBody.records.length)).toEqual(beforeBody.records);
  });

  it('2000 gaussian readings (seed 7) cover within 0.04 of the target; the first 50 are judged by the 0.05 rule', () => {
    const all = run('score_forecasts', { values: series.score_forecasts_seed7 }).body;
    expect(Math.abs(all.empirical_coverage - 0.8)).toBeLessThan(0.04);
    expect(all.calibrated).toBe(true);
    const head = run('score_forecasts', { values: series.score_forecasts_seed7.slice(0, 50) }).body;
    expect(head.calibrated).toBe(Math.abs(head.empirical_coverage - 0.8) <= 0.05);
  });

  it.each(['0', '1', '-1', '1.1', 'true', 'null', '"0.8"'])('nominal %s is refused even for a short series', (nominal) => {
    for (const tool of ['forecast_next', 'score_forecasts']) {
      expect(refusal(tool, `{"values": [1, 2], "nominal": ${nominal}}`)).toMatchObject({ code: 'invalid_input', path: '/nominal' });
    }
  });
});

describe('interval scores', () => {
  it('a wide interval around the outcome scores better than a narrow one far from it', () => {
    const near = weightedIntervalScore(10, 10, [[9, 11], [9, 11], [9, 11]], '');
    const far = weightedIntervalScore(10, 16, [[15, 17], [15, 17], [15, 17]], '');
    expect(near).toBeLessThan(far);
  });

  it('missing at a stricter level costs more', () => {
    expect(intervalScore(20, 9, 11, 0.05, '')).toBeGreaterThan(intervalScore(20, 9, 11, 0.5, ''));
  });
});

describe('forecasts: numbers that leave the double range', () => {
  it.each([
    ['forecast_next', '[1e308, -1e308, 1e308, -1e308, 1e308, -1e308, 1e308, -1e308, 1e308, -1e308, 1e308, -1e308]', 'one-step absolute change'],
    ['forecast_next', '[0, 1e308, 0, 1e308, 0, 1e308, 0, 1e308, 0, 1e308, 0, 1e308]', 'upper forecast bound'],
    ['score_forecasts', '[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1e308]', 'interval score'],
  ])('%s on %s: 422 naming the %s', (tool, values, quantity) => {
    const error = refusal(tool, `{"values": ${values}}`);
    expect(error).toMatchObject({ status: 422, code: 'derived_statistic_overflow' });
    expect(error.path).toMatch(/^\/values\/\d+$/);
    expect(error.message).toContain(quantity);
  });
});
