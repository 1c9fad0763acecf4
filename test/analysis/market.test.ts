import { describe, expect, it } from 'vitest';
import { isAppError } from '../../src/core/errors.js';
import { cloneJson, encodeDigestJson, encodePythonBody, parseStrictJson } from '../../src/core/json.js';
import { assessMarket } from '../../src/analysis/market.js';
import { type AlignedWindow, relatedMovements } from '../../src/analysis/market/related.js';
import { robustCorrelation } from '../../src/analysis/numeric/normalise.js';
import { round15 } from '../../src/analysis/numeric/round15.js';
import type {
  MarketAssessment,
  MarketObservation,
  MarketRequest,
  MarketSeries,
  SeriesResult,
} from '../../src/analysis/market.js';

const HOUR = 3600_000;
const DAY = 24 * HOUR;
const START = Date.UTC(2026, 9, 6, 12);

function clock(ms: number): string {
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}

interface SeriesOptions {
  id?: string;
  kind?: MarketSeries['kind'];
  unit?: string;
  rights?: MarketSeries['source']['rights'];
  step?: number;
  start?: number;
  maxAge?: number;
  maxGap?: number;
  group?: string;
  availableAfter?: number | null;
  sampleSizes?: (number | null | undefined)[];
}

function makeSeries(values: (number | null)[], options: SeriesOptions = {}): MarketSeries {
  const step = options.step ?? HOUR;
  const start = options.start ?? START;
  const availableAfter = options.availableAfter === undefined ? 5 * 60_000 : options.availableAfter;
  const observations: MarketObservation[] = values.map((value, i) => {
    const obs: MarketObservation = { observed_at: clock(start + i * step), value };
    if (availableAfter !== null) obs.available_at = clock(start + i * step + availableAfter);
    const size = options.sampleSizes?.[i];
    if (options.sampleSizes && i < options.sampleSizes.length && size !== undefined) obs.sample_size = size;
    return obs;
  });
  const series: MarketSeries = {
    id: options.id ?? 'a',
    kind: options.kind ?? 'level',
    unit: options.unit ?? 'points',
    source: { id: 'test-source', rights: options.rights ?? 'permitted' },
    max_age_seconds: options.maxAge ?? 2 * 86400,
    observations,
  };
  series.max_gap_seconds = options.maxGap ?? 2 * (step / 1000);
  if (options.group !== undefined) series.group = options.group;
  return series;
}

/** `as_of` one step after the last point of the longest series. */
function makeRequest(series: MarketSeries[], extra: Partial<MarketRequest> = {}): MarketRequest {
  let last = START;
  for (const s of series) {
    const n = s.observations.length;
    if (n > 0) last = Math.max(last, Date.parse(s.observations[n - 1].observed_at) + HOUR);
  }
  return { series, as_of: clock(last), ...extra };
}

function only(result: MarketAssessment): SeriesResult {
  expect(result.series).toHaveLength(1);
  return result.series[0];
}

function assessOne(values: (number | null)[], options: SeriesOptions = {}, extra: Partial<MarketRequest> = {}): SeriesResult {
  return only(assessMarket(makeRequest([makeSeries(values, options)], extra)));
}

function expectAppError(fn: () => unknown, code: string, pattern: RegExp): void {
  try {
    fn();
  } catch (error) {
    expect(isAppError(error)).toBe(true);
    if (isAppError(error)) {
      expect(error.code).toBe(code);
      expect(error.status).toBe(422);
      expect(error.message).toMatch(pattern);
    }
    return;
  }
  throw new Error('expected an error');
}

const BASELINE = Array.from({ length: 5 }, () => [10, 11, 9, 10, 12, 8]).flat();

/** A non-trivial, deterministic sequence (no platform RNG). */
function wiggle(n: number, seed = 3): number[] {
  const out: number[] = [];
  let s = seed;
  for (let i = 0; i < n; i++) {
    s = (s * 1103515245 + 12345) % 2147483648;
    out.push(100 + (s / 2147483648 - 0.5) * 4 + i * 0.05);
  }
  return out;
}

describe('market departures', () => {
  it('flags a persistent shift for review and echoes the source', () => {
    const r = assessOne([...BASELINE, 30, 31, 30], { id: 'shift' });
    expect(r.status).toBe('review');
    expect(r.reasons).toContain('persistent_departure');
    expect(r.diagnostics?.median_change).toBe(20);
    expect(r.source).toEqual({ id: 'test-source', rights: 'permitted' });
    expect(r.validity).toBe('descriptive');
    expect(r.guarantee).toBeNull();
    expect(r.is_e_value).toBe(false);
    expect(r.priority).toBe(2);
    expect(r.analyzed_points).toBe(33);
  });

  it('puts an isolated latest spike on watch without calling it persistent', () => {
    const r = assessOne([...BASELINE, 10, 10, 100]);
    expect(r.status).toBe('watch');
    expect(r.reasons).toEqual(['latest_departure']);
    expect(r.reasons).not.toContain('persistent_departure');
    expect(r.priority).toBe(1);
  });

  it('analyses a regular exponential price trend as flat log returns', () => {
    const prices = Array.from({ length: 40 }, (_, i) => 100 * Math.exp(0.01 * i));
    const r = assessOne(prices, { kind: 'price' });
    expect(r.transform).toBe('log_return');
    expect(r.analyzed_unit).toBe('log_return');
    expect(Math.abs(r.diagnostics?.median_change as number)).toBeLessThan(1e-12);
    expect(r.analyzed_points).toBe(33);
    expect(r.contiguous_points).toBe(39);
  });

  for (const scale of [100, 1e-200]) {
    for (const growth of [1.001, 0.999, 1.03, 0.97]) {
      it(`sees no departure in constant geometric growth ×${growth} per day at scale ${scale}`, () => {
        const prices = Array.from({ length: 40 }, (_, i) => scale * growth ** i);
        const r = assessOne(prices, { kind: 'price', step: DAY, maxAge: 2 * 86400 });
        expect(r.status).toBe('no_supported_departure');
        expect(r.reasons).toEqual([]);
        expect(r.priority).toBe(0);
        expect(r.diagnostics?.representation_tolerance).toBeGreaterThan(0);
        expect(r.diagnostics?.representation_tolerance_basis).not.toBe('');
        expect(r.diagnostics?.monitor.state).toBe('steady');
      });
    }
  }

  for (const sign of [1, -1]) {
    it(`reviews a tiny direct shift from 0 to ${sign * 1e-200} exactly`, () => {
      const r = assessOne([...Array(30).fill(0), ...Array(3).fill(sign * 1e-200)]);
      expect(r.status).toBe('review');
      expect(r.reasons).toContain('persistent_departure');
      expect(r.diagnostics?.persistence_points).toBe(3);
      expect(r.diagnostics?.median_change).toBe(sign * 1e-200);
      expect(r.diagnostics?.latest_change).toBe(sign * 1e-200);
      expect(r.diagnostics?.representation_tolerance).toBe(0);
    });
  }

  it('reports a jump from a constant baseline without a robust departure', () => {
    const r = assessOne([...Array(30).fill(5), 9, 9, 9]);
    expect(r.status).toBe('review');
    expect(r.diagnostics?.robust_departure).toBeNull();
    expect(r.diagnostics?.latest_robust_departure).toBeNull();
    expect(r.diagnostics?.volatility_ratio).toBeNull();
    expect(r.reasons).toContain('constant_baseline_changed');
  });

  it('flags volatility expansion when the recent spread outgrows the baseline', () => {
    const r = assessOne([...BASELINE, 0, 20, 10]);
    expect(r.reasons).toContain('volatility_expansion');
    expect(r.status).toBe('review');
    expect(r.diagnostics?.volatility_ratio).toBeGreaterThanOrEqual(3);
  });

  it('can never call a single recent point persistent (recent_points = 1)', () => {
    const r = assessOne([...BASELINE, 30], {}, { policy: { recent_points: 1 } });
    expect(r.reasons).toEqual(['latest_departure']);
    expect(r.status).toBe('watch');
    expect(r.required_points).toBe(31);
  });

  it('reports the monitor as a descriptive Shiryaev–Roberts statistic', () => {
    const r = assessOne([...BASELINE, 30, 31, 30]);
    const monitor = r.diagnostics?.monitor;
    expect(monitor?.statistic_type).toBe('shiryaev_roberts');
    expect(monitor?.is_e_value).toBe(false);
    expect(monitor?.guarantee).toBeNull();
    expect(['steady', 'watch', 'changed']).toContain(monitor?.state);
    expect(Number(monitor?.statistic.toFixed(4))).toBe(monitor?.statistic);
  });
});

describe('market contiguous history', () => {
  it('lets a null split the history instead of filling it', () => {
    const values: (number | null)[] = [...BASELINE, 10, 10];
    values.push(null, 10, 10, 10);
    const r = assessOne(values);
    expect(r.status).toBe('insufficient_visibility');
    expect(r.contiguous_points).toBe(3);
    expect(r.missing_points).toBe(1);
    expect(r.reasons).toEqual(['insufficient_contiguous_history']);
    expect(r.warnings).toContain('missing_observations_preserved');
    expect(r.diagnostics).toBeNull();
    expect(r.priority).toBeNull();
    expect(r).not.toHaveProperty('analyzed_points');
  });

  it('refuses a series whose latest value is null', () => {
    const r = assessOne([...BASELINE, 10, 10, 10, null]);
    expect(r.status).toBe('insufficient_visibility');
    expect(r.reasons).toContain('latest_value_missing');
    expect(r.diagnostics).toBeNull();
    expect(r.reading).toContain('latest_value_missing');
  });

  it('does not compute returns across a declared calendar gap', () => {
    const series = makeSeries(Array.from({ length: 40 }, (_, i) => 100 + i), { kind: 'price', maxGap: 7200 });
    // Move the last three points a day later: the gap sits before index 37.
    for (let i = 37; i < 40; i++) series.observations[i].observed_at = clock(START + i * HOUR + DAY);
    for (let i = 37; i < 40; i++) delete series.observations[i].available_at;
    const r = only(assessMarket(makeRequest([series])));
    expect(r.gap_indices).toEqual([37]);
    expect(r.warnings).toContain('calendar_gaps_preserved');
    expect(r.contiguous_points).toBe(2);
    expect(r.status).toBe('insufficient_visibility');
    expect(r.reasons).toContain('insufficient_contiguous_history');
  });

  it('gives a null placed after a gap nothing to analyse', () => {
    const series = makeSeries([...BASELINE, 10, 10, 10, null], { maxGap: 7200 });
    const last = series.observations.length - 1;
    series.observations[last].observed_at = clock(START + last * HOUR + DAY);
    delete series.observations[last].available_at;
    const r = only(assessMarket(makeRequest([series])));
    expect(r.contiguous_points).toBe(0);
    expect(r.reasons).toContain('latest_value_missing');
    expect(r.gap_indices).toEqual([last]);
  });

  it('warns when no calendar gap policy is supplied', () => {
    const series = makeSeries([...BASELINE, 10, 10, 10]);
    delete series.max_gap_seconds;
    const r = only(assessMarket(makeRequest([series])));
    expect(r.warnings).toContain('calendar_gap_policy_not_supplied');
    expect(r.gap_indices).toEqual([]);
  });
});

describe('market source gates', () => {
  for (const rights of ['unknown', 'restricted'] as const) {
    it(`does not assess a source whose rights are ${rights}`, () => {
      const r = assessOne([...BASELINE, 30, 31, 30], { rights });
      expect(r.status).toBe('insufficient_visibility');
      expect(r.reasons).toEqual(['source_use_not_permitted_or_unknown']);
      expect(r.diagnostics).toBeNull();
      expect(r).not.toHaveProperty('analyzed_points');
    });
  }

  it('measures staleness on the observation clock, not the availability clock', () => {
    const series = makeSeries([...BASELINE, 10, 10, 10], { maxAge: 86400 });
    const last = Date.parse(series.observations[32].observed_at);
    const asOf = last + 8 * DAY;
    // Published only an hour ago, but observed eight days ago: still stale.
    series.observations[32].available_at = clock(asOf - HOUR);
    const r = only(assessMarket({ series: [series], as_of: clock(asOf) }));
    expect(r.reasons).toContain('stale_observation');
    expect(r.age_seconds).toBe(8 * 86400);
    expect(r.status).toBe('insufficient_visibility');
  });

  it('refuses observations from the future and availability in the future', () => {
    const future = makeSeries([...BASELINE, 10, 10, 10]);
    const asOfFuture = makeRequest([future]).as_of;
    future.observations[32].observed_at = clock(Date.parse(asOfFuture) + HOUR);
    future.observations[32].available_at = clock(Date.parse(asOfFuture) + 2 * HOUR);
    const r1 = only(assessMarket({ series: [future], as_of: asOfFuture }));
    expect(r1.reasons).toContain('future_observation');
    expect(r1.reasons).toContain('not_yet_available');

    const late = makeSeries([...BASELINE, 10, 10, 10]);
    const request = makeRequest([late]);
    late.observations[32].available_at = clock(Date.parse(request.as_of) + 60_000);
    const r2 = only(assessMarket(request));
    expect(r2.reasons).toEqual(['not_yet_available']);
  });

  it('refuses availability that precedes the observation', () => {
    const series = makeSeries([...BASELINE, 10, 10, 10]);
    series.observations[5].available_at = clock(START);
    const r = only(assessMarket(makeRequest([series])));
    expect(r.reasons).toEqual(['availability_precedes_observation']);
  });

  it('does not claim complete availability history when a point lacks available_at', () => {
    const series = makeSeries([...BASELINE, 10, 10, 10]);
    delete series.observations[3].available_at;
    const r = only(assessMarket(makeRequest([series])));
    expect(r.availability_timestamps_complete).toBe(false);
    expect(r.as_published_history_verified).toBe(false);
    expect(r.warnings).toContain('availability_history_incomplete');

    const full = assessOne([...BASELINE, 10, 10, 10]);
    expect(full.availability_timestamps_complete).toBe(true);
    expect(full.as_published_history_verified).toBe(false);
  });

  it('reports an empty series as having no observations', () => {
    const r = assessOne([], { id: 'empty' });
    expect(r.reasons).toEqual(['no_observations', 'insufficient_contiguous_history']);
    expect(r.observed_at).toBeNull();
    expect(r.available_at).toBeNull();
    expect(r.age_seconds).toBeNull();
    expect(r.availability_timestamps_complete).toBe(false);
  });
});

describe('market measurement coverage', () => {
  it('reviews a sample-size drop from 100 to 20', () => {
    const sizes = [...Array(30).fill(100), 20, 20, 20];
    const r = assessOne([...BASELINE, 30, 31, 30], { sampleSizes: sizes });
    expect(r.diagnostics?.coverage).toEqual({ status: 'changed', relative_change: -0.8 });
    expect(r.reasons).toEqual(['persistent_departure', 'review_measurement_coverage']);
    expect(r.warnings).toContain('measurement_coverage_changed');
    expect(r.status).toBe('review');
  });

  it('treats a single stray sample_size as incomplete coverage worth a review', () => {
    const sizes: (number | undefined)[] = Array(33).fill(undefined);
    sizes[10] = 50;
    const r = assessOne([...BASELINE, 10, 10, 10], { sampleSizes: sizes });
    expect(r.diagnostics?.coverage).toEqual({ status: 'incomplete', relative_change: null });
    expect(r.warnings).toContain('measurement_coverage_incomplete');
    expect(r.reasons).toEqual(['review_measurement_coverage']);
    expect(r.status).toBe('review');
  });

  it('counts an explicit null sample_size as incomplete', () => {
    const sizes: (number | null)[] = Array(33).fill(100);
    sizes[32] = null;
    const r = assessOne([...BASELINE, 10, 10, 10], { sampleSizes: sizes });
    expect(r.diagnostics?.coverage.status).toBe('incomplete');
  });

  it('flags an increase in sample size as a change too', () => {
    const sizes = [...Array(30).fill(100), 150, 150, 150];
    const r = assessOne([...BASELINE, 10, 10, 10], { sampleSizes: sizes });
    expect(r.diagnostics?.coverage).toEqual({ status: 'changed', relative_change: 0.5 });
  });

  it('keeps stable coverage out of the reasons', () => {
    const sizes = [...Array(30).fill(100), 90, 95, 100];
    const r = assessOne([...BASELINE, 10, 10, 10], { sampleSizes: sizes });
    expect(r.diagnostics?.coverage).toEqual({ status: 'stable', relative_change: -0.05 });
    expect(r.status).toBe('no_supported_departure');
  });

  it('reads sample sizes only inside the window', () => {
    // An incomplete older history outside the window does not matter.
    const sizes: (number | undefined)[] = [undefined, undefined, ...Array(33).fill(100)];
    const r = assessOne([1, 2, ...BASELINE, 10, 10, 10], { sampleSizes: sizes });
    expect(r.diagnostics?.coverage).toEqual({ status: 'stable', relative_change: 0 });
    const none = assessOne([...BASELINE, 10, 10, 10]);
    expect(none.diagnostics?.coverage).toEqual({ status: 'not_supplied', relative_change: null });
  });
});

describe('market related movements', () => {
  it('relates two proportional series with a correlation of exactly 1', () => {
    const base = wiggle(33);
    const result = assessMarket(
      makeRequest([makeSeries(base, { id: 'x' }), makeSeries(base.map((v) => 2 * v), { id: 'y' })]),
    );
    expect(result.related_movements).toEqual([
      { series: ['x', 'y'], correlation: 1, aligned_points: 33, independent_confirmation: false },
    ]);
  });

  for (const magnitude of [1e200, 1e-200]) {
    for (const sign of [1, -1]) {
      it(`keeps the correlation exactly ${sign} at magnitude ${magnitude}`, () => {
        const base = wiggle(33, 11);
        const result = assessMarket(
          makeRequest([
            makeSeries(base.map((v) => v * magnitude), { id: 'big' }),
            makeSeries(base.map((v) => sign * v * magnitude * 3), { id: 'other' }),
          ]),
        );
        expect(result.related_movements).toHaveLength(1);
        expect(result.related_movements[0].correlation).toBe(sign);
        expect(result.related_movements[0].aligned_points).toBe(33);
      });
    }
  }

  for (const spelling of ['+00:00', '.000000Z']) {
    it(`aligns equivalent timestamp spellings (${spelling}) and echoes the original`, () => {
      const base = wiggle(33, 5);
      const other = makeSeries(base.map((v) => v + 1), { id: 'respelled' });
      for (const o of other.observations) {
        o.observed_at = o.observed_at.replace('Z', spelling === '+00:00' ? '.000000+00:00' : '.000000Z');
      }
      const result = assessMarket(makeRequest([makeSeries(base, { id: 'plain' }), other]));
      expect(result.related_movements).toHaveLength(1);
      expect(result.related_movements[0]).toMatchObject({ series: ['plain', 'respelled'], correlation: 1, aligned_points: 33 });
      const echoed = result.series[1];
      expect(echoed.observed_at).toBe(other.observations[32].observed_at);
      expect(echoed.diagnostics?.window_start).toBe(other.observations[0].observed_at);
    });
  }

  it('lists pairs in sorted id order and only at |r| >= 0.85 with at least 10 shared points', () => {
    const base = wiggle(33, 9);
    const unrelated = wiggle(33, 12345).map((v, i) => (i % 2 === 0 ? v : 200 - v));
    const offset = makeSeries(base.slice(0, 33), { id: 'late', start: START + 24 * HOUR });
    const result = assessMarket(
      makeRequest([
        makeSeries(base, { id: 'c' }),
        makeSeries(unrelated, { id: 'b' }),
        makeSeries(base.map((v) => -v + 500), { id: 'a' }),
        offset,
      ]),
    );
    const pairs = result.related_movements.map((m) => m.series.join('|'));
    expect(pairs).toContain('a|c');
    expect(pairs).not.toContain('b|c');
    // 'late' shares only 9 instants with the others: no correlation is reported.
    expect(pairs.some((p) => p.includes('late'))).toBe(false);
    expect([...pairs].sort()).toEqual(pairs);
    const ac = result.related_movements.find((m) => m.series.join('|') === 'a|c');
    expect(ac?.correlation).toBe(-1);
    for (const m of result.related_movements) expect(Math.abs(m.correlation)).toBeGreaterThanOrEqual(0.85);
  });
});

describe('related movements over aligned windows', () => {
  function window(id: string, instants: bigint[], values: number[]): AlignedWindow & { instants: readonly bigint[] } {
    return { id, instants, keys: Float64Array.from(instants, (t) => Number(t)), values: Float64Array.from(values) };
  }

  /** The rule as stated: shared instants via a map, then the robust correlation. */
  function expected(
    a: AlignedWindow & { instants: readonly bigint[] },
    b: AlignedWindow & { instants: readonly bigint[] },
  ): { r: number | null; n: number } {
    const byInstant = new Map<bigint, number>();
    a.instants.forEach((t, i) => byInstant.set(t, a.values[i]));
    const left: number[] = [];
    const right: number[] = [];
    b.instants.forEach((t, j) => {
      const v = byInstant.get(t);
      if (v !== undefined) {
        left.push(v);
        right.push(b.values[j]);
      }
    });
    return { r: robustCorrelation(left, right), n: left.length };
  }

  it('matches the stated rule on identical, shifted and far-future clocks', () => {
    const hour = 3_600_000_000n;
    const t0 = 1_791_000_000_000_000n;
    const base = wiggle(40, 21);
    // Beyond 2^53 µs neighbouring microseconds share one double key.
    const far = 10_400_000_000_000_000n;
    const windows = [
      window('a', base.map((_, i) => t0 + BigInt(i) * hour), base),
      window('b', base.map((_, i) => t0 + BigInt(i) * hour), base.map((v, i) => v * 3 + (i % 3) * 0.01)),
      window('c', base.map((_, i) => t0 + BigInt(i + 5) * hour), base.map((v) => -v)),
      window('d', base.map((_, i) => far + BigInt(i)), base),
      window('e', base.map((_, i) => far + BigInt(2 * i)), base.map((v, j) => (2 * j < 40 ? base[2 * j] : v) * 2 + 1)),
    ];
    const got = relatedMovements(windows);
    const want: { series: string[]; correlation: number; aligned_points: number }[] = [];
    for (let i = 0; i < windows.length; i++) {
      for (let j = i + 1; j < windows.length; j++) {
        const { r, n } = expected(windows[i], windows[j]);
        if (r !== null && Math.abs(r) >= 0.85) {
          want.push({ series: [windows[i].id, windows[j].id], correlation: round15(r), aligned_points: n });
        }
      }
    }
    expect(got.map(({ series, correlation, aligned_points }) => ({ series, correlation, aligned_points }))).toEqual(want);
    expect(got.some((m) => m.series.join() === 'd,e')).toBe(true);
    expect(got.find((m) => m.series.join() === 'd,e')?.aligned_points).toBe(20);
  });
});

describe('market assessment as a whole', () => {
  it('is partial when one series is assessed and another is empty', () => {
    const result = assessMarket(makeRequest([makeSeries([...BASELINE, 10, 10, 10], { id: 'a' }), makeSeries([], { id: 'b' })]));
    expect(result.status).toBe('partial');
    expect(result.visibility_gaps).toEqual(['b']);
    expect(result.coverage).toEqual({
      requested_series: 2,
      assessed_series: 1,
      complete_for_supplied_series: false,
      market_universe_complete: false,
    });
  });

  it('reports insufficient visibility for an empty request', () => {
    const result = assessMarket({ series: [], as_of: '2026-10-08T09:00:00Z' });
    expect(result.status).toBe('insufficient_visibility');
    expect(result.series).toEqual([]);
    expect(result.attention_queue).toEqual([]);
    expect(result.visibility_gaps).toEqual([]);
    expect(result.related_movements).toEqual([]);
    expect(result.coverage).toEqual({
      requested_series: 0,
      assessed_series: 0,
      complete_for_supplied_series: false,
      market_universe_complete: false,
    });
    expect(result.execution_authority).toBe(false);
    expect(result.limits).toHaveLength(6);
    expect(result.policy_sha256).toBe('2d73b416c5ae3bc1e42b47e77549a88a48f6a0a865f68a61fc9c8e8c5af594d1');
  });

  it('is insufficient when every series is a visibility gap', () => {
    const result = assessMarket(makeRequest([makeSeries([1, 2, 3], { id: 'short' })]));
    expect(result.status).toBe('insufficient_visibility');
    expect(result.visibility_gaps).toEqual(['short']);
  });

  it('sorts the attention queue by priority, then id by code point', () => {
    const watch = [...BASELINE, 10, 10, 100];
    const review = [...BASELINE, 30, 31, 30];
    const result = assessMarket(
      makeRequest([
        makeSeries(watch, { id: '\u{1F600}w', group: 'g' }),
        makeSeries(watch, { id: '\uFFFDw' }),
        makeSeries(review, { id: 'z-review' }),
        makeSeries([...BASELINE, 10, 10, 10], { id: 'quiet' }),
        makeSeries(review, { id: 'b-review' }),
      ]),
    );
    expect(result.attention_queue.map((q) => q.id)).toEqual(['b-review', 'z-review', '\uFFFDw', '\u{1F600}w']);
    expect(result.attention_queue[3]).toEqual({ id: '\u{1F600}w', status: 'watch', reasons: ['latest_departure'], group: 'g' });
    expect(result.attention_queue[2].group).toBe('\uFFFDw');
    expect(result.status).toBe('assessed');
  });

  it('keeps the published key order at every level', () => {
    const result = assessMarket(
      makeRequest([makeSeries([...BASELINE, 30, 31, 30], { id: 'a' }), makeSeries([], { id: 'b' })]),
    );
    expect(Object.keys(result)).toEqual([
      'schema', 'as_of', 'status', 'policy', 'series', 'attention_queue', 'visibility_gaps',
      'related_movements', 'coverage', 'method', 'limits', 'execution_authority', 'request_sha256', 'policy_sha256',
    ]);
    expect(Object.keys(result.policy)).toEqual([
      'baseline_points', 'recent_points', 'move_threshold', 'volatility_ratio', 'coverage_drop_fraction',
    ]);
    const common = [
      'id', 'kind', 'unit', 'source', 'group', 'status', 'reasons', 'warnings', 'observed_at', 'available_at',
      'age_seconds', 'observation_count', 'contiguous_points', 'required_points', 'missing_points', 'gap_indices',
      'transform', 'analyzed_unit', 'diagnostics', 'priority', 'is_e_value', 'validity', 'guarantee',
      'availability_timestamps_complete', 'as_published_history_verified',
    ];
    expect(Object.keys(result.series[0])).toEqual([...common, 'analyzed_points', 'reading']);
    expect(Object.keys(result.series[1])).toEqual([...common, 'reading']);
    expect(Object.keys(result.series[0].diagnostics ?? {})).toEqual([
      'baseline_median', 'recent_median', 'median_change', 'latest_change', 'baseline_robust_spread',
      'recent_robust_spread', 'robust_departure', 'latest_robust_departure', 'volatility_ratio', 'persistence_points',
      'representation_tolerance', 'representation_tolerance_basis', 'lag_one_correlation', 'coverage', 'monitor',
      'window_start', 'window_end',
    ]);
    expect(Object.keys(result.series[0].diagnostics?.monitor ?? {})).toEqual([
      'state', 'statistic', 'statistic_type', 'is_e_value', 'change_points', 'guarantee',
    ]);
    expect(Object.keys(result.coverage)).toEqual([
      'requested_series', 'assessed_series', 'complete_for_supplied_series', 'market_universe_complete',
    ]);
    expect(result.schema).toBe('noisefloor.market-assessment.v1');
  });

  it('prints reported statistics as Python floats', () => {
    const base = wiggle(33);
    const result = assessMarket(
      makeRequest([makeSeries([...BASELINE, 30, 31, 30], { id: 'a' }), makeSeries(base, { id: 'x' }), makeSeries(base.map((v) => 2 * v), { id: 'y' })]),
    );
    const body = encodePythonBody(result);
    expect(body).toContain('"move_threshold": 3.0');
    expect(body).toContain('"baseline_points": 30,');
    expect(body).toContain('"age_seconds": 3600.0');
    expect(body).toContain('"baseline_median": 10.0');
    expect(body).toContain('"representation_tolerance": 0.0');
    expect(body).toContain('"correlation": 1.0');
    expect(body).toContain('"persistence_points": 3,');
    expect(body).toContain('"observation_count": 33,');
  });

  it('uses the shared reading for each status and lists the issues when not assessed', () => {
    const review = assessOne([...BASELINE, 30, 31, 30]);
    const watch = assessOne([...BASELINE, 10, 10, 100]);
    const none = assessOne([...BASELINE, 10, 10, 10]);
    const gap = assessOne([...BASELINE, 10, 10, 10], { rights: 'unknown' });
    const readings = new Set([review.reading, watch.reading, none.reading, gap.reading]);
    expect(readings.size).toBe(4);
    expect(gap.reading.endsWith(': source_use_not_permitted_or_unknown')).toBe(true);
    expect(assessOne([...BASELINE, 30, 31, 29]).reading).toBe(review.reading);
  });

  it('is deterministic and never mutates its input', () => {
    const text = JSON.stringify(makeRequest([makeSeries([...BASELINE, 30, 31, 30]), makeSeries(wiggle(40), { id: 'b', kind: 'price' })]));
    const request = parseStrictJson(text) as MarketRequest;
    const before = encodeDigestJson(request);
    const snapshot = cloneJson(request);
    const first = assessMarket(request);
    const second = assessMarket(request);
    expect(encodePythonBody(second)).toBe(encodePythonBody(first));
    expect(request).toEqual(snapshot);
    expect(encodeDigestJson(request)).toBe(before);
    // The response does not alias the request's source objects.
    expect(first.series[0].source).not.toBe(request.series[0].source);
  });
});

describe('market digests', () => {
  const DEFAULT_POLICY_DIGEST = '2d73b416c5ae3bc1e42b47e77549a88a48f6a0a865f68a61fc9c8e8c5af594d1';

  function requestText(policy?: string): string {
    const request = makeRequest([makeSeries([...BASELINE, 30, 31, 30])]);
    const body = JSON.stringify(request).slice(0, -1);
    return policy === undefined ? `${body}}` : `${body},"policy":${policy}}`;
  }

  function assessText(text: string): MarketAssessment {
    return assessMarket(parseStrictJson(text) as MarketRequest);
  }

  it('publishes the default policy digest when no policy is sent', () => {
    const result = assessText(requestText());
    expect(result.policy_sha256).toBe(DEFAULT_POLICY_DIGEST);
    expect(result.request_sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('gives an integer move_threshold of 3 a different policy digest than the default 3.0', () => {
    const asInt = assessText(requestText('{"move_threshold": 3}'));
    const asFloat = assessText(requestText('{"move_threshold": 3.0}'));
    expect(asInt.policy_sha256).not.toBe(DEFAULT_POLICY_DIGEST);
    expect(asInt.policy_sha256.startsWith('c2ae5c47')).toBe(true);
    expect(asFloat.policy_sha256).toBe(DEFAULT_POLICY_DIGEST);
    // The echoed policy keeps the caller's number kind.
    expect(encodePythonBody(asInt.policy)).toContain('"move_threshold": 3,');
    expect(encodePythonBody(asFloat.policy)).toContain('"move_threshold": 3.0,');
  });

  it('changes both digests when move_threshold changes', () => {
    const a = assessText(requestText('{"move_threshold": 3.0}'));
    const b = assessText(requestText('{"move_threshold": 4.0}'));
    expect(b.request_sha256).not.toBe(a.request_sha256);
    expect(b.policy_sha256).not.toBe(a.policy_sha256);
    expect(b.policy.move_threshold).toBe(4);
  });

  it('digests an explicit empty policy into the request but not into the applied policy', () => {
    const absent = assessText(requestText());
    const empty = assessText(requestText('{}'));
    expect(empty.request_sha256).not.toBe(absent.request_sha256);
    expect(empty.policy_sha256).toBe(absent.policy_sha256);
  });

  it('digests exactly the canonical JSON of series, as_of and the policy as received', async () => {
    const { sha256Hex } = await import('../../src/core/hash.js');
    const request = parseStrictJson(requestText('{"recent_points": 4}')) as MarketRequest;
    const expected = sha256Hex(encodeDigestJson({ series: request.series, as_of: request.as_of, policy: request.policy }));
    expect(assessMarket(request).request_sha256).toBe(expected);
  });

  it('refuses a lone surrogate that cannot be digested', () => {
    const request = makeRequest([makeSeries([...BASELINE, 30, 31, 30], { unit: 'bad\uD800' })]);
    expectAppError(() => assessMarket(request), 'lone_surrogate', /surrogate/);
  });
});

describe('market domain errors', () => {
  it('rejects duplicate series ids', () => {
    const request = makeRequest([makeSeries([1], { id: 'dup' }), makeSeries([2], { id: 'dup' })]);
    expectAppError(() => assessMarket(request), 'duplicate_series_id', /ids.*unique|unique.*ids/);
  });

  it('rejects non-increasing clocks, including equal instants spelled differently', () => {
    const series = makeSeries([1, 2, 3]);
    series.observations[2].observed_at = series.observations[1].observed_at.replace('Z', '+00:00');
    expectAppError(() => assessMarket(makeRequest([series])), 'non_increasing_timestamps', /increasing/);
  });

  it('rejects a zero price and a negative count', () => {
    expectAppError(
      () => assessMarket(makeRequest([makeSeries([1, 0, 2], { kind: 'price' })])),
      'non_positive_price',
      /strictly positive/,
    );
    expectAppError(
      () => assessMarket(makeRequest([makeSeries([1, -1, 2], { kind: 'count' })])),
      'negative_count',
      /negative/,
    );
    // Zero is a valid count, and null prices are simply missing.
    expect(() => assessMarket(makeRequest([makeSeries([0, 1, 2], { kind: 'count' })]))).not.toThrow();
    expect(() => assessMarket(makeRequest([makeSeries([null, 1, 2], { kind: 'price' })]))).not.toThrow();
  });

  it('checks ids first, then each series in input order, clocks before values', () => {
    const badClock = makeSeries([1, 2, 3], { id: 'clock' });
    badClock.observations[1].observed_at = badClock.observations[0].observed_at;
    const badPrice = makeSeries([1, 0, 3], { id: 'price', kind: 'price' });
    expectAppError(
      () => assessMarket(makeRequest([badPrice, badClock, makeSeries([1], { id: 'price' })])),
      'duplicate_series_id',
      /unique/,
    );
    expectAppError(() => assessMarket(makeRequest([badPrice, badClock])), 'non_positive_price', /^price: /);
    expectAppError(() => assessMarket(makeRequest([badClock, badPrice])), 'non_increasing_timestamps', /^clock: /);
    const both = makeSeries([1, 0, 3], { id: 'both', kind: 'price' });
    both.observations[2].observed_at = both.observations[1].observed_at;
    expectAppError(() => assessMarket(makeRequest([both])), 'non_increasing_timestamps', /increasing/);
  });

  it('reports a derived statistic overflow instead of a non-finite number', () => {
    const huge = [...Array.from({ length: 30 }, (_, i) => (i % 2 === 0 ? 1.7e308 : -1.7e308)), 1, 2, 3];
    expectAppError(() => assessMarket(makeRequest([makeSeries(huge)])), 'derived_statistic_overflow', /overflow/);
  });
});

describe('market reference sample (§6.6, reconstructed)', () => {
  // The reference publishes only parts of its sample output. These series are built to
  // carry the stated baseline/recent structure; only the values the reference states,
  // and invariants, are asserted.
  const asOf = '2026-10-08T09:00:00Z';
  const first = Date.UTC(2026, 9, 6, 12);
  const rateBaseline = [
    3.97, 4.03, 4.0, 3.98, 4.02, 4.0, 3.97, 4.03, 4.01, 3.99,
    4.0, 3.96, 4.04, 4.0, 3.97, 4.03, 4.0, 4.05, 3.95, 4.0,
    3.97, 4.03, 4.0, 3.99, 4.01, 3.94, 4.06, 4.0, 3.97, 4.03,
  ];
  const rateValues = [...Array.from({ length: 12 }, (_, i) => 4 + ((i % 3) - 1) * 0.02), ...rateBaseline, 4.22, 4.24, 4.23];
  const countBaseline = [100, 103, 97, 100, 104, 96, 100, 103, 97, 101, 99, 100, 103, 97, 100, 95, 105, 100, 103, 97, 100, 102, 98, 100, 103, 97, 100, 106, 94, 100];
  const countValues = [...Array(12).fill(100), ...countBaseline, 56, 54, 55];
  const countSizes = [...Array(42).fill(40), 22, 22, 22];

  function sampleSeries(id: string, kind: MarketSeries['kind'], values: number[], extra: Partial<MarketSeries>, sizes?: number[]): MarketSeries {
    return {
      id,
      kind,
      unit: kind === 'rate' ? '%' : 'quotes',
      source: { id: 'synthetic-generator', url: 'https://example.invalid/synthetic-data', rights: 'permitted' },
      max_age_seconds: 7200,
      max_gap_seconds: 3600,
      group: 'SYNTHETIC-MARKET',
      observations: values.map((value, i) => {
        const obs: MarketObservation = {
          observed_at: clock(first + i * HOUR),
          value,
          available_at: clock(first + i * HOUR + 5 * 60_000),
        };
        if (sizes) obs.sample_size = sizes[i];
        return obs;
      }),
      ...extra,
    };
  }

  const request: MarketRequest = {
    series: [
      sampleSeries('synthetic-benchmark-rate', 'rate', rateValues, {}),
      sampleSeries('synthetic-observed-quote-count', 'count', countValues, {}, countSizes),
      (() => {
        const gated = sampleSeries('synthetic-unknown-rights', 'rate', rateValues, {
          source: { id: 'synthetic-gated-example', rights: 'unknown' },
        });
        delete gated.group;
        return gated;
      })(),
    ],
    as_of: asOf,
  };
  const result = assessMarket(request);
  const [rate, count, gated] = result.series;

  it('has the stated top-level shape', () => {
    expect(result.status).toBe('partial');
    expect(result.policy).toEqual({
      baseline_points: 30,
      recent_points: 3,
      move_threshold: 3,
      volatility_ratio: 3,
      coverage_drop_fraction: 0.2,
    });
    expect(result.visibility_gaps).toEqual(['synthetic-unknown-rights']);
    expect(result.coverage).toEqual({
      requested_series: 3,
      assessed_series: 2,
      complete_for_supplied_series: false,
      market_universe_complete: false,
    });
    expect(result.attention_queue).toEqual([
      { id: 'synthetic-benchmark-rate', status: 'review', reasons: ['persistent_departure'], group: 'SYNTHETIC-MARKET' },
      {
        id: 'synthetic-observed-quote-count',
        status: 'review',
        reasons: ['persistent_departure', 'review_measurement_coverage'],
        group: 'SYNTHETIC-MARKET',
      },
    ]);
    expect(result.policy_sha256).toBe('2d73b416c5ae3bc1e42b47e77549a88a48f6a0a865f68a61fc9c8e8c5af594d1');
  });

  it('reproduces the stated rate-series result', () => {
    expect(rate).toMatchObject({
      id: 'synthetic-benchmark-rate',
      kind: 'rate',
      unit: '%',
      group: 'SYNTHETIC-MARKET',
      status: 'review',
      reasons: ['persistent_departure'],
      warnings: [],
      observed_at: '2026-10-08T08:00:00Z',
      available_at: '2026-10-08T08:05:00Z',
      age_seconds: 3600,
      observation_count: 45,
      contiguous_points: 45,
      required_points: 33,
      missing_points: 0,
      gap_indices: [],
      transform: 'identity',
      analyzed_unit: '%',
      priority: 2,
      availability_timestamps_complete: true,
      analyzed_points: 33,
    });
    expect(Object.keys(rate.source)).toEqual(['id', 'url', 'rights']);
    const d = rate.diagnostics;
    expect(d).toMatchObject({
      baseline_median: 4.0,
      recent_median: 4.23,
      median_change: 0.23,
      latest_change: 0.23,
      baseline_robust_spread: 0.0444779999999997,
      recent_robust_spread: 0.0148259999999997,
      robust_departure: 5.17109582265394,
      latest_robust_departure: 5.17109582265394,
      volatility_ratio: 0.333333333333328,
      persistence_points: 3,
      representation_tolerance: 0,
      coverage: { status: 'not_supplied', relative_change: null },
      window_start: '2026-10-07T00:00:00Z',
      window_end: '2026-10-08T08:00:00Z',
    });
    expect(d?.monitor.state).toBe('steady');
    expect(d?.monitor.change_points).toEqual([]);
  });

  it('reproduces the stated count-series departure and coverage change', () => {
    expect(count.status).toBe('review');
    expect(count.reasons).toEqual(['persistent_departure', 'review_measurement_coverage']);
    expect(count.warnings).toEqual(['measurement_coverage_changed']);
    expect(count.diagnostics).toMatchObject({
      baseline_median: 100,
      recent_median: 55,
      median_change: -45,
      robust_departure: -10.1173613921489,
      coverage: { status: 'changed', relative_change: -0.45 },
    });
  });

  it('gates the unknown-rights series with the id as its group', () => {
    expect(gated).toMatchObject({
      id: 'synthetic-unknown-rights',
      group: 'synthetic-unknown-rights',
      status: 'insufficient_visibility',
      reasons: ['source_use_not_permitted_or_unknown'],
      warnings: [],
      diagnostics: null,
      priority: null,
    });
    expect(gated.source).toEqual({ id: 'synthetic-gated-example', rights: 'unknown' });
  });

  it('relates the two assessed series through their aligned window levels', () => {
    // The reference lists exactly this one pair (its r is about -0.86 on its own data).
    expect(result.related_movements).toHaveLength(1);
    for (const m of result.related_movements) {
      expect(m.series).toEqual(['synthetic-benchmark-rate', 'synthetic-observed-quote-count']);
      expect(m.aligned_points).toBe(33);
      expect(m.independent_confirmation).toBe(false);
      expect(Math.abs(m.correlation)).toBeGreaterThanOrEqual(0.85);
    }
  });
});
