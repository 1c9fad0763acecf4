import { describe, expect, it } from 'vitest';
import { isAppError } from '../../src/core/errors.js';
import { encodePythonBody, parseStrictJson } from '../../src/core/json.js';
import { jacobiEigen } from '../../src/analysis/linalg/jacobi.js';
import { PyRandom } from '../../src/analysis/mt19937.js';
import {
  type AssessedWindow,
  type SpectralRequest,
  type SpectralResult,
  applySpectralPolicy,
  assessSpectral,
} from '../../src/analysis/spectral.js';
import { sha256Hex } from '../../src/core/hash.js';

const DAY = 86_400_000;
const START = Date.UTC(2026, 0, 1);

function clock(i: number): string {
  return new Date(START + i * DAY).toISOString().replace('.000Z', 'Z');
}

interface MemberSpec {
  id: string;
  kind?: string;
  values: (number | null)[];
  /** Observation index -> clock spelling override. */
  clocks?: (i: number) => string;
  rights?: string;
  drop?: number[];
  extra?: Record<string, unknown>;
  sampleSizes?: (number | null)[];
}

/** Builds a request body (as JSON text, so number kinds come from real tokens). */
function requestText(members: MemberSpec[], policy?: Record<string, number>, asOfIndex?: number): string {
  const last = Math.max(...members.map((m) => m.values.length)) - 1;
  const body: Record<string, unknown> = {
    series: members.map((m) => ({
      id: m.id,
      kind: m.kind ?? 'return',
      unit: 'unit',
      source: { id: 'synthetic', rights: m.rights ?? 'permitted' },
      max_age_seconds: 172800,
      max_gap_seconds: 10 * 86400,
      observations: m.values
        .map((value, i) => {
          const at = (m.clocks ?? clock)(i);
          const o: Record<string, unknown> = { observed_at: at, value, available_at: at };
          if (m.sampleSizes) o.sample_size = m.sampleSizes[i];
          return o;
        })
        .filter((_, i) => !(m.drop ?? []).includes(i)),
      ...(m.extra ?? {}),
    })),
    as_of: clock(asOfIndex ?? last),
  };
  if (policy) body.policy = policy;
  return JSON.stringify(body);
}

function assess(members: MemberSpec[], policy?: Record<string, number>): SpectralResult {
  const raw = parseStrictJson(requestText(members, policy));
  return assessSpectral(raw as SpectralRequest, raw);
}

function gaussians(seed: number, count: number): number[] {
  const rng = new PyRandom(seed);
  return Array.from({ length: count }, () => rng.gauss(0, 1));
}

/** Values whose interval values (kind "return": value of the later point) are `returns`. */
function asReturnSeries(returns: number[]): (number | null)[] {
  return [0, ...returns];
}

function codeOf(f: () => unknown): string | undefined {
  try {
    f();
  } catch (e) {
    return isAppError(e) ? e.code : `other: ${String(e)}`;
  }
  return undefined;
}

function assessed(w: unknown): AssessedWindow {
  expect((w as AssessedWindow).status).toBe('assessed');
  return w as AssessedWindow;
}

const T = 120;
const sinusoid = (f: number, phase: number) =>
  Array.from({ length: T }, (_, t) => Math.sin((2 * Math.PI * f * t) / T + phase));

describe('spectral assessment: spectra of known panels', () => {
  it('sees four orthogonal sinusoids as four unit eigenvalues, q = 4/119', () => {
    const result = assess(
      [
        { id: 'a', values: asReturnSeries(sinusoid(1, 0)) },
        { id: 'b', values: asReturnSeries(sinusoid(1, Math.PI / 2)) },
        { id: 'c', values: asReturnSeries(sinusoid(2, 0)) },
        { id: 'd', values: asReturnSeries(sinusoid(2, Math.PI / 2)) },
      ],
      { window_points: 120, max_windows: 1 },
    );
    expect(result.status).toBe('assessed');
    const w = assessed(result.latest);
    for (const v of w.eigenvalues) expect(v).toBeCloseTo(1, 12);
    expect(w.leading_variance_share).toBeCloseTo(0.25, 12);
    expect(w.effective_rank).toBeCloseTo(4, 10);
    expect(w.participation_ratio).toBeCloseTo(4, 10);
    expect(w.reference.q).toBe(4 / 119);
    expect(w.reference.in_band_count).toBe(4);
    expect(w.reference.above_upper_count + w.reference.below_lower_count).toBe(0);
    expect(w.reference.finite_sample_calibrated).toBe(false);
    expect(result.execution_authority).toBe(false);
    expect(w.numerical_rank).toBe(4);
  });

  it('collapses duplicated and negated copies to eigenvalues [4, 0, 0, 0]', () => {
    const x = gaussians(1, T);
    const result = assess(
      [
        { id: 'a', values: asReturnSeries(x) },
        { id: 'b', values: asReturnSeries(x.map((v) => -v)) },
        { id: 'c', values: asReturnSeries(x.map((v) => 2 * v)) },
        { id: 'd', values: asReturnSeries(x.map((v) => -0.5 * v)) },
      ],
      { window_points: 120, max_windows: 1 },
    );
    const w = assessed(result.latest);
    expect(w.eigenvalues[0]).toBeCloseTo(4, 12);
    for (const v of w.eigenvalues.slice(1)) expect(Math.abs(v)).toBeLessThan(1e-12);
    expect(w.reference.above_upper_count).toBe(1);
    expect(w.reference.below_lower_count).toBe(3);
    expect(w.participation_ratio).toBeCloseTo(1, 12);
    expect(w.effective_rank).toBeCloseTo(1, 6);
    const l = w.leading_loadings;
    expect(Math.sign(l.a)).toBe(-Math.sign(l.b));
    expect(Math.sign(l.a)).toBe(Math.sign(l.c));
    expect(Math.sign(l.a)).toBe(-Math.sign(l.d));
    // The largest loading is reported non-negative.
    const largest = Object.values(l).reduce((m, v) => (Math.abs(v) > Math.abs(m) ? v : m));
    expect(largest).toBeGreaterThanOrEqual(0);
    // No eigenvalue is in band, so the candidate keeps the rank-one spectrum.
    const cleaned = jacobiEigen(w.shrinkage_candidate.correlation).values;
    expect(Math.abs(cleaned[3])).toBeLessThan(1e-10);
  });

  it('produces a PSD, symmetric, unit-diagonal shrinkage candidate for a noisy factor panel', () => {
    const factor = gaussians(2, T);
    const members = Array.from({ length: 12 }, (_, s) => {
      const noise = gaussians(100 + s, T);
      return { id: `m${String(s).padStart(2, '0')}`, values: asReturnSeries(factor.map((f, t) => 0.6 * f + noise[t])) };
    });
    const w = assessed(assess(members, { window_points: 120, max_windows: 1 }).latest);
    const c = w.shrinkage_candidate.correlation;
    const values = jacobiEigen(c).values;
    expect(values[values.length - 1]).toBeGreaterThanOrEqual(-1e-10);
    expect(values.reduce((a, b) => a + b, 0)).toBeCloseTo(12, 10);
    for (let i = 0; i < 12; i++) {
      expect(c[i][i]).toBeCloseTo(1, 14);
      for (let j = 0; j < 12; j++) expect(c[i][j]).toBeCloseTo(c[j][i], 14);
    }
    expect(w.reference.above_upper_count).toBeGreaterThanOrEqual(1);
    expect(w.reference.in_band_count).toBeGreaterThan(0);
  });

  it('reproduces the Marchenko–Pastur edges for 4 series over 60 observations', () => {
    const members = ['a', 'b', 'c', 'd'].map((id, s) => ({ id, values: asReturnSeries(gaussians(10 + s, 60)) }));
    const w = assessed(assess(members, { window_points: 60, max_windows: 1 }).latest);
    expect(w.reference.q).toBe(0.06779661016949153);
    expect(w.reference.lower_edge).toBe(0.5470409662461961);
    expect(w.reference.upper_edge).toBe(1.588552254092787);
    expect(w.reference.sample_degrees_of_freedom).toBe(59);
  });

  it('is unchanged by rescaling members by 1e±150 / 1e±25 and by their input order, and does not mutate input', () => {
    const base = ['a', 'b', 'c', 'd'].map((id, s) => ({ id, values: asReturnSeries(gaussians(20 + s, T)) }));
    const scales = [1e150, 1e-150, 1e25, 1e-25];
    const scaled = base.map((m, s) => ({ ...m, values: m.values.map((v) => (v === null ? v : v * scales[s])) })).reverse();
    const policy = { window_points: 120, max_windows: 1 };
    const raw = parseStrictJson(requestText(scaled, policy)) as SpectralRequest;
    const before = JSON.stringify(raw);
    const a = assessed(assess(base, policy).latest);
    const b = assessed(assessSpectral(raw, raw).latest);
    expect(JSON.stringify(raw)).toBe(before);
    expect(b.series_ids).toEqual(['a', 'b', 'c', 'd']);
    a.eigenvalues.forEach((v, i) => expect(b.eigenvalues[i]).toBeCloseTo(v, 12));
  });

  it('reproduces the return panel from cumulated rate levels (first differences)', () => {
    const returns = ['a', 'b', 'c'].map((_, s) => gaussians(30 + s, T).map((v) => Math.round(v * 1e6) / 1e6));
    const levels = returns.map((r) => {
      const out = [5];
      for (const v of r) out.push(Math.round((out[out.length - 1] + v) * 1e6) / 1e6);
      return out;
    });
    const policy = { window_points: 120, max_windows: 1 };
    const fromReturns = assess(returns.map((r, s) => ({ id: 'abc'[s], values: asReturnSeries(r) })), policy);
    const fromLevels = assess(levels.map((l, s) => ({ id: 'abc'[s], kind: 'rate', values: l })), policy);
    expect(fromLevels.series.map((s) => s.transform)).toEqual(['first_difference', 'first_difference', 'first_difference']);
    const a = assessed(fromReturns.latest).eigenvalues;
    const b = assessed(fromLevels.latest).eigenvalues;
    a.forEach((v, i) => expect(Math.abs(b[i] - v)).toBeLessThan(1e-10));
  });
});

describe('spectral assessment: 15-digit interval values', () => {
  it('feeds windows the rounded first differences, exactly as a pre-rounded return panel', () => {
    const levels = ['a', 'b', 'c'].map((_, s) => {
      const g = gaussians(400 + s, T);
      const out = [Math.PI];
      for (const v of g) out.push(out[out.length - 1] + v / 3);
      return out;
    });
    const rounded = levels.map((l) => l.slice(1).map((v, t) => Number((v - l[t]).toPrecision(15))));
    const policy = { window_points: 60, step_points: 30, max_windows: 3 };
    const fromLevels = assess(levels.map((l, s) => ({ id: 'abc'[s], kind: 'level', values: l })), policy);
    const fromReturns = assess(rounded.map((r, s) => ({ id: 'abc'[s], values: asReturnSeries(r) })), policy);
    expect(fromLevels.windows.map((w) => assessed(w).correlation)).toEqual(fromReturns.windows.map((w) => assessed(w).correlation));
    expect(fromLevels.windows.map((w) => assessed(w).eigenvalues)).toEqual(fromReturns.windows.map((w) => assessed(w).eigenvalues));
  });
});

describe('spectral assessment: panel blockers', () => {
  const four = (overrides: Partial<MemberSpec> = {}) =>
    ['a', 'b', 'c', 'd'].map((id, s) => ({ id, values: asReturnSeries(gaussians(40 + s, T)), ...(id === 'c' ? overrides : {}) }));

  it('reports an empty request as needing two series', () => {
    const raw = parseStrictJson('{"series": [], "as_of": "2026-01-01T00:00:00Z"}');
    const result = assessSpectral(raw as SpectralRequest, raw);
    expect(result.status).toBe('insufficient_visibility');
    expect(result.reasons).toEqual(['at_least_two_series_required']);
    expect(result.windows).toEqual([]);
    expect(result.latest).toBeNull();
    expect(result.coverage).toEqual({ requested_series: 0, complete_for_supplied_series: false, market_universe_complete: false });
    expect(result.alignment).toEqual({
      method: 'common_contiguous_interval_suffix',
      aligned_points: 0,
      first_observation_sets_interval_start: true,
      filled_points: 0,
    });
  });

  it.each([
    ['restricted rights', { rights: 'restricted' }, 'source_use_not_permitted_or_unknown'],
    ['unknown rights', { rights: 'unknown' }, 'source_use_not_permitted_or_unknown'],
    ['a latest null', { values: [...asReturnSeries(gaussians(42, T - 1)), null] }, 'latest_value_missing'],
    ['a future point', { clocks: (i: number) => clock(i + 1) }, 'future_observation'],
    ['a stale member', { extra: { max_age_seconds: 1 }, clocks: (i: number) => clock(i - 1) }, 'stale_observation'],
  ] as [string, Partial<MemberSpec>, string][])('lets one member with %s block the whole panel', (_, override, issue) => {
    const result = assess(four(override));
    expect(result.status).toBe('insufficient_visibility');
    expect(result.reasons).toEqual(['one_or_more_series_ineligible', 'insufficient_contiguous_intervals']);
    expect(result.windows).toEqual([]);
    expect(result.latest).toBeNull();
    expect(result.coverage.requested_series).toBe(4);
    const bad = result.series.find((s) => s.id === 'c')!;
    expect(bad.reasons).toContain(issue);
    expect(bad.contiguous_intervals).toBe(0);
    expect(result.series.find((s) => s.id === 'a')!.contiguous_intervals).toBe(T);
  });

  it('flags a member that is not yet available', () => {
    const text = requestText(four()).replace(`"available_at":"${clock(T)}"`, `"available_at":"${clock(T + 1)}"`);
    const raw = parseStrictJson(text);
    const result = assessSpectral(raw as SpectralRequest, raw);
    expect(result.series.find((s) => s.reasons.includes('not_yet_available'))).toBeDefined();
    expect(result.reasons[0]).toBe('one_or_more_series_ineligible');
  });

  it('needs the window to be longer than the number of series', () => {
    const members = Array.from({ length: 22 }, (_, s) => ({ id: `s${s}`, values: asReturnSeries(gaussians(s, 40)) }));
    const result = assess(members, { window_points: 20 });
    expect(result.reasons).toEqual(['window_must_exceed_series_count_for_reference']);
    expect(result.status).toBe('insufficient_visibility');
  });

  it('never turns a null inside one member into pairwise deletion', () => {
    const values = asReturnSeries(gaussians(42, T));
    values[100] = null;
    const result = assess(four({ values }), { window_points: 20 });
    expect(result.status).toBe('insufficient_visibility');
    expect(result.reasons).toEqual(['insufficient_aligned_contiguous_history']);
    expect(result.alignment.aligned_points).toBeLessThan(20);
    expect(result.series.find((s) => s.id === 'c')!.warnings).toContain('missing_observations_preserved');
  });

  it('does not fall back to older data when one member lacks the latest point', () => {
    const result = assess(four({ values: asReturnSeries(gaussians(42, T - 1)) }), undefined);
    // Member c ends a day earlier but is still fresh (max age two days).
    expect(result.alignment.aligned_points).toBe(0);
    expect(result.reasons).toEqual(['insufficient_aligned_contiguous_history']);
  });
});

describe('spectral assessment: alignment', () => {
  it('drops everything up to the newest disagreement when a member misses a point', () => {
    const members = ['a', 'b', 'c'].map((id, s) => ({
      id,
      values: asReturnSeries(gaussians(50 + s, T)),
      drop: id === 'b' ? [50] : [],
    }));
    const result = assess(members, { window_points: 60, max_windows: 1 });
    expect(result.alignment).toEqual({
      method: 'common_contiguous_interval_suffix',
      aligned_points: 69,
      first_observation_sets_interval_start: true,
      filled_points: 0,
      unmatched_intervals: 3,
      discarded_common_intervals: 49,
    });
    expect(result.series.find((s) => s.id === 'b')!.contiguous_intervals).toBe(T - 1);
    expect(result.status).toBe('assessed');
    expect(result.latest!.window_start).toBe(clock(T - 60));
    expect(result.latest!.window_end).toBe(clock(T));
  });

  it('aligns .000000Z, +00:00 and Z spellings of the same instants', () => {
    const members = [
      { id: 'a', values: asReturnSeries(gaussians(60, T)) },
      { id: 'b', values: asReturnSeries(gaussians(61, T)), clocks: (i: number) => clock(i).replace('Z', '+00:00') },
      { id: 'c', values: asReturnSeries(gaussians(62, T)), clocks: (i: number) => clock(i).replace('Z', '.000000Z') },
    ];
    const result = assess(members, { window_points: 60 });
    expect(result.alignment.aligned_points).toBe(T);
    expect(result.alignment.unmatched_intervals).toBe(0);
    expect(result.status).toBe('assessed');
    // Supplied clocks are echoed; window clocks are re-printed with Z.
    expect(result.series[1].observed_at).toBe(clock(T).replace('Z', '+00:00'));
    expect(result.latest!.window_end).toBe(clock(T));
  });

  it('prints microsecond window clocks with six digits', () => {
    const members = ['a', 'b', 'c'].map((id, s) => ({
      id,
      values: asReturnSeries(gaussians(70 + s, 30)),
      clocks: (i: number) => clock(i).replace('Z', '.5Z'),
    }));
    const raw = parseStrictJson(requestText(members, { window_points: 30 }).replace(/"as_of":"[^"]*"/, `"as_of":"${clock(31)}"`));
    const result = assessSpectral(raw as SpectralRequest, raw);
    expect(result.latest!.window_end).toBe(clock(30).replace('Z', '.500000Z'));
  });
});

describe('spectral assessment: windows and dynamics', () => {
  it('lays out rolling windows oldest first with the latest as the last one', () => {
    const members = ['a', 'b', 'c'].map((id, s) => ({ id, values: asReturnSeries(gaussians(80 + s, T)) }));
    const result = assess(members);
    expect(result.policy).toEqual({ window_points: 60, step_points: 20, max_windows: 4 });
    expect(result.windows.map((w) => w.window_end)).toEqual([clock(60), clock(80), clock(100), clock(120)]);
    expect(result.windows.map((w) => w.window_start)).toEqual([clock(0), clock(20), clock(40), clock(60)]);
    expect(result.latest).toBe(result.windows[3]);
    expect(result.dynamics).toHaveLength(3);
    expect(result.dynamics[0].from).toBe(clock(60));
    expect(result.dynamics[0].to).toBe(clock(80));
    expect(result.coverage.complete_for_supplied_series).toBe(true);
  });

  it('marks a constant member unresolved in the windows it is constant in', () => {
    const constant = asReturnSeries(gaussians(90, T));
    for (let t = 61; t <= T; t++) constant[t] = 0.25;
    const members = [
      { id: 'a', values: asReturnSeries(gaussians(91, T)) },
      { id: 'b', values: asReturnSeries(gaussians(92, T)) },
      { id: 'z', values: constant },
    ];
    const result = assess(members, { window_points: 60, step_points: 60, max_windows: 2 });
    expect(result.windows[0].status).toBe('assessed');
    expect(result.windows[1]).toEqual({
      window_start: clock(60),
      window_end: clock(120),
      observations: 60,
      series_ids: ['a', 'b', 'z'],
      status: 'insufficient_visibility',
      reasons: ['constant_or_unresolved_series:z'],
    });
    expect(result.status).toBe('insufficient_visibility');
    expect(result.reasons).toEqual(['one_or_more_windows_unresolved']);
    expect(result.dynamics).toEqual([]);
    expect(result.coverage.complete_for_supplied_series).toBe(false);
  });

  it('reports partial when only older windows are unresolved', () => {
    const constantEarly = asReturnSeries(gaussians(93, T));
    for (let t = 1; t <= 60; t++) constantEarly[t] = 0;
    const members = [
      { id: 'a', values: asReturnSeries(gaussians(94, T)) },
      { id: 'b', values: constantEarly },
    ];
    const result = assess(members, { window_points: 60, step_points: 60, max_windows: 2 });
    expect(result.status).toBe('partial');
    expect(result.reasons).toEqual(['one_or_more_windows_unresolved']);
  });

  it('treats geometric prices (constant log returns) as unresolved', () => {
    const geometric = Array.from({ length: 61 }, (_, t) => 100 * 1.01 ** t);
    const members = [
      { id: 'a', kind: 'price', values: geometric },
      { id: 'b', kind: 'price', values: geometric.map((v) => v * 3) },
      { id: 'c', values: asReturnSeries(gaussians(95, 60)) },
    ];
    const result = assess(members, { window_points: 60 });
    expect(result.series[0].transform).toBe('log_return');
    expect(result.status).toBe('insufficient_visibility');
    expect(result.latest!.reasons).toEqual(['constant_or_unresolved_series:a', 'constant_or_unresolved_series:b']);
  });

  it('sees a common factor appear, and keeps past windows blind to later data', () => {
    const factor = gaussians(3, T);
    const members = ['a', 'b', 'c', 'd'].map((id, s) => {
      const noise = gaussians(200 + s, T);
      return { id, values: asReturnSeries(noise.map((e, t) => (t >= 60 ? 3 * factor[t] + 0.3 * e : e))) };
    });
    const policy = { window_points: 60, step_points: 60, max_windows: 2 };
    const result = assess(members, policy);
    expect(result.status).toBe('assessed');
    expect(result.dynamics).toHaveLength(1);
    const d = result.dynamics[0];
    expect(d.leading_variance_share_change).toBeGreaterThan(0.5);
    expect(d.calibrated_regime_change).toBe(false);
    expect(d.leading_vector_comparison).toBe('descriptive');
    expect(d.leading_vector_squared_overlap).not.toBeNull();

    const truncated = members.map((m) => ({ ...m, values: m.values.slice(0, 61) }));
    const prefix = assess(truncated, { window_points: 60, max_windows: 1 });
    expect(prefix.latest).toEqual(result.windows[0]);
  });

  it('leaves the leading-vector overlap unresolved for degenerate leading modes', () => {
    const wave = (f: number, phase: number) =>
      asReturnSeries(Array.from({ length: T }, (_, t) => Math.sin((2 * Math.PI * f * t) / 60 + phase)));
    const members = [
      { id: 'a', values: wave(1, 0) },
      { id: 'b', values: wave(1, Math.PI / 2) },
      { id: 'c', values: wave(2, 0) },
    ];
    const result = assess(members, { window_points: 60, step_points: 60, max_windows: 2 });
    expect(result.status).toBe('assessed');
    expect(result.dynamics[0].leading_vector_squared_overlap).toBeNull();
    expect(result.dynamics[0].leading_vector_comparison).toBe('unresolved_degenerate_mode');
  });

  it('reports lag-one correlations per member, null for an unresolvable half', () => {
    const alternating = asReturnSeries(Array.from({ length: T }, (_, t) => (t % 2 === 0 ? 1 : -1) + 0.001 * Math.sin(t)));
    const members = [
      { id: 'a', values: alternating },
      { id: 'b', values: asReturnSeries(gaussians(96, T)) },
    ];
    const w = assessed(assess(members, { window_points: 120, max_windows: 1 }).latest);
    expect(w.lag_one_correlations.map((e) => e.id)).toEqual(['a', 'b']);
    expect(w.lag_one_correlations[0].correlation!).toBeLessThan(-0.99);
  });
});

describe('spectral assessment: coverage, digests and body', () => {
  it('reports variable declared sample sizes without adjusting anything', () => {
    const sizes = Array.from({ length: T + 1 }, (_, i) => (i < 60 ? 100 : 80));
    const members = [
      { id: 'a', values: asReturnSeries(gaussians(97, T)), sampleSizes: sizes },
      { id: 'b', values: asReturnSeries(gaussians(98, T)) },
    ];
    const result = assess(members, { window_points: 60 });
    expect(result.series[0].measurement_coverage).toEqual({
      status: 'variable',
      declared_points: T + 1,
      tail_points: T + 1,
      minimum: 80,
      maximum: 100,
      sampling_adjustment_applied: false,
    });
    expect(result.series[0].warnings).toContain('review_measurement_coverage');
    expect(result.series[1].measurement_coverage.status).toBe('not_supplied');
    expect(result.status).toBe('assessed');
  });

  it('digests the default policy to the upstream value', () => {
    const policy = applySpectralPolicy(undefined);
    const result = assess([
      { id: 'a', values: asReturnSeries(gaussians(1, 70)) },
      { id: 'b', values: asReturnSeries(gaussians(2, 70)) },
    ]);
    expect(policy).toEqual({ window_points: 60, step_points: 20, max_windows: 4 });
    expect(result.policy_sha256).toBe('1901051719cf56e554594b3299fedbcf536a13c5b617af57b82d6e0755f22b9a');
  });

  it('digests the applied policy of the upstream sample', () => {
    const result = assess(
      [
        { id: 'a', values: asReturnSeries(gaussians(1, 70)) },
        { id: 'b', values: asReturnSeries(gaussians(2, 70)) },
      ],
      { window_points: 60, step_points: 60, max_windows: 2 },
    );
    expect(result.policy_sha256).toBe('d3e78a599093ba6934c1ed85a2aac577b2dcd1d3fd475fffdc37da6007381314');
  });

  it('hashes the request as received, with the policy only when one was sent', () => {
    const members = [
      { id: 'a', values: asReturnSeries(gaussians(1, 70)) },
      { id: 'b', values: asReturnSeries(gaussians(2, 70)) },
    ];
    const without = JSON.parse(requestText(members));
    const withEmpty = { ...without, policy: {} };
    const expected = (x: Record<string, unknown>) => sha256Hex(JSON.stringify(sortKeys(x)));
    const a = assessSpectral(without, without);
    const b = assessSpectral(withEmpty, withEmpty);
    expect(a.request_sha256).toBe(expected({ series: without.series, as_of: without.as_of }));
    expect(b.request_sha256).toBe(expected({ series: without.series, as_of: without.as_of, policy: {} }));
    expect(a.policy_sha256).toBe(b.policy_sha256);
  });

  it('emits the documented keys in order and encodes as a Python body', () => {
    const result = assess([
      { id: 'a', values: asReturnSeries(gaussians(1, 70)) },
      { id: 'b', values: asReturnSeries(gaussians(2, 70)) },
    ]);
    expect(Object.keys(result)).toEqual([
      'schema', 'as_of', 'status', 'maturity', 'validity', 'guarantee', 'is_e_value', 'policy', 'series', 'reasons',
      'windows', 'latest', 'dynamics', 'alignment', 'coverage', 'limits', 'execution_authority', 'request_sha256',
      'policy_sha256',
    ]);
    expect(Object.keys(result.series[0])).toEqual([
      'id', 'kind', 'unit', 'source', 'group', 'transform', 'reasons', 'warnings', 'observed_at', 'available_at',
      'age_seconds', 'gap_indices', 'missing_points', 'availability_timestamps_complete', 'as_published_history_verified',
      'measurement_coverage', 'contiguous_intervals',
    ]);
    expect(Object.keys(result.latest!)).toEqual([
      'window_start', 'window_end', 'observations', 'series_ids', 'status', 'reasons', 'correlation', 'eigenvalues',
      'leading_variance_share', 'participation_ratio', 'effective_rank', 'numerical_rank', 'leading_eigengap',
      'leading_loadings', 'lag_one_correlations', 'reference', 'shrinkage_candidate',
    ]);
    expect(result.limits).toHaveLength(10);
    const body = encodePythonBody(result);
    expect(body).toContain('"age_seconds": 0.0');
    expect(body).toContain('"group": "a"');
    expect(body).toContain('"sample_degrees_of_freedom": 59');
    expect(body.startsWith('{"schema": "noisefloor.spectral-assessment.v1", ')).toBe(true);
  });
});

describe('spectral assessment: domain errors', () => {
  it('rejects duplicate ids', () => {
    const members = [
      { id: 'a', values: [1, 2, 3] },
      { id: 'a', values: [1, 2, 3] },
    ];
    expect(codeOf(() => assess(members))).toBe('duplicate_series_id');
  });

  it('raises per-series errors in id order, not input order', () => {
    const members = [
      { id: 'b', values: [1, 2, 3], clocks: (i: number) => clock(i === 2 ? 1 : i) },
      { id: 'a', kind: 'price', values: [1, 0, 3] },
    ];
    expect(codeOf(() => assess(members))).toBe('non_positive_price');
    expect(codeOf(() => assess([members[0], { id: 'c', values: [1, 2, 3] }]))).toBe('non_increasing_timestamps');
    expect(codeOf(() => assess([{ id: 'a', kind: 'count', values: [1, -1, 3] }, members[0]]))).toBe('negative_count');
  });

  it('reports every series\' domain errors before an invalid available_at or an overflow in an earlier one', () => {
    // Series a's second available_at is not a clock (the first text replaced is a's).
    const badAvailability = { id: 'a', values: [1, 2, 3] };
    const text = (members: MemberSpec[]) =>
      requestText(members).replace(`"available_at":"${clock(1)}"`, '"available_at":"not a clock"');
    const run = (members: MemberSpec[]) => {
      const raw = parseStrictJson(text(members));
      return assessSpectral(raw as SpectralRequest, raw);
    };
    const overflow = { id: 'b', kind: 'level', values: [-1.7e308, 1.7e308, 0] };
    const price = { id: 'c', kind: 'price', values: [1, 0, 3] };
    expect(codeOf(() => run([badAvailability, overflow, price]))).toBe('non_positive_price');
    expect(codeOf(() => run([badAvailability, overflow]))).toBe('invalid_input');
    expect(codeOf(() => assess([{ id: 'a', values: [1, 2, 3] }, overflow, price]))).toBe('non_positive_price');
  });

  it('reports a first difference that overflows as a derived statistic overflow', () => {
    const members = [
      { id: 'a', kind: 'level', values: [-1.7e308, 1.7e308, 0] },
      { id: 'b', values: [1, 2, 3] },
    ];
    expect(codeOf(() => assess(members))).toBe('derived_statistic_overflow');
  });

  it('reports a lone surrogate in the request as its own error', () => {
    const members = [
      { id: 'a', values: [1, 2, 3] },
      { id: 'b', values: [1, 2, 3] },
    ];
    const raw = JSON.parse(requestText(members));
    raw.series[0].unit = 'bad\ud800';
    expect(codeOf(() => assessSpectral(raw, raw))).toBe('lone_surrogate');
  });
});

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort()) out[k] = sortKeys((value as Record<string, unknown>)[k]);
    return out;
  }
  return value;
}

describe('spectral assessment far from the epoch', () => {
  it('aligns and assesses clocks beyond ±2^53 microseconds like recent ones', () => {
    const recent = ['a', 'b', 'c'].map((id, s) => ({ id, values: asReturnSeries(gaussians(300 + s, 60)), drop: id === 'b' ? [10] : [] }));
    const old = recent.map((m) => ({ ...m, clocks: (i: number) => clock(i).replace('2026-', '1500-') }));
    const raw = parseStrictJson(requestText(old, { window_points: 40 }).replace(/"as_of":"2026-/, '"as_of":"1500-'));
    const a = assess(recent, { window_points: 40 });
    const b = assessSpectral(raw as SpectralRequest, raw);
    expect(b.alignment).toEqual(a.alignment);
    expect(b.status).toBe('assessed');
    expect(assessed(b.latest).eigenvalues).toEqual(assessed(a.latest).eigenvalues);
    expect(b.latest!.window_end.startsWith('1500-')).toBe(true);
  });
});
