import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isAppError } from '../../src/core/errors.js';
import { parseUtcTimestamp } from '../../src/core/time.js';
import {
  type GateSeries,
  InstantParser,
  assertSeriesDomain,
  assertUniqueSeriesIds,
  gateSeries,
  idOrder,
} from '../../src/analysis/gates.js';

const asOf = parseUtcTimestamp('2026-01-10T00:00:00Z')!;

function hourly(values: (number | null)[], extra: Partial<GateSeries> = {}): GateSeries {
  return {
    id: 's',
    kind: 'rate',
    source: { rights: 'permitted' },
    max_age_seconds: 86400,
    max_gap_seconds: 3600,
    observations: values.map((value, i) => ({
      observed_at: `2026-01-09T${String(i).padStart(2, '0')}:00:00Z`,
      value,
      available_at: `2026-01-09T${String(i).padStart(2, '0')}:00:00Z`,
    })),
    ...extra,
  };
}

function codeOf(f: () => unknown): string | undefined {
  try {
    f();
  } catch (e) {
    return isAppError(e) ? e.code : 'other';
  }
  return undefined;
}

describe('gateSeries', () => {
  it('passes a clean series with its whole history as the tail', () => {
    const g = gateSeries(hourly([1, 2, 3]), asOf);
    expect(g.issues).toEqual([]);
    expect(g.warnings).toEqual([]);
    expect(g.tailStart).toBe(0);
    expect(g.tail).toHaveLength(3);
    expect(g.ageSeconds).toBe(22 * 3600);
    expect(g.observedAt).toBe('2026-01-09T02:00:00Z');
    expect(g.availableAt).toBe('2026-01-09T02:00:00Z');
    expect(g.availabilityComplete).toBe(true);
    expect(g.observedKeys).not.toBeNull();
  });

  it('gives the tail after the last missing value or gap, and tells whether all its values are finite (property)', () => {
    const value = fc.oneof(fc.double({ min: -10, max: 10, noNaN: true }), fc.constantFrom(null, NaN, Infinity, -Infinity));
    const step = fc.constantFrom(1, 1, 1, 2); // hours; 2 exceeds the one-hour gap policy
    fc.assert(
      fc.property(fc.array(fc.tuple(value, step), { maxLength: 12 }), (points) => {
        const s = hourly(points.map(([v]) => v));
        let hour = 0;
        s.observations.forEach((o, i) => {
          hour += points[i][1];
          const clock = new Date(Date.UTC(2026, 0, 8) + hour * 3_600_000).toISOString().replace('.000Z', 'Z');
          o.observed_at = clock;
          o.available_at = clock;
        });
        const g = gateSeries(s, asOf);
        expect(g.tail).toEqual(s.observations.slice(g.tailStart));
        expect(g.tailFinite).toBe(g.tail.every((o) => Number.isFinite(o.value)));
      }),
      { numRuns: 500 },
    );
  });

  it('reports every failing gate in the documented order', () => {
    const s = hourly([1, null], { source: { rights: 'restricted' }, max_age_seconds: 1 });
    s.observations[0].observed_at = '2026-01-09T00:00:00Z';
    s.observations[1].observed_at = '2026-01-11T00:00:00Z';
    s.observations[1].available_at = '2026-01-10T12:00:00Z';
    s.observations[0].available_at = '2026-01-08T00:00:00Z';
    const g = gateSeries(s, asOf);
    expect(g.issues).toEqual([
      'source_use_not_permitted_or_unknown',
      'future_observation',
      'not_yet_available',
      'availability_precedes_observation',
      'latest_value_missing',
    ]);
  });

  it('flags stale data by the age of the last observation, even a null one', () => {
    const g = gateSeries(hourly([1, null], { max_age_seconds: 100 }), asOf);
    expect(g.issues).toEqual(['stale_observation', 'latest_value_missing']);
  });

  it('reports an empty series as having no observations and incomplete availability', () => {
    const g = gateSeries(hourly([]), asOf);
    expect(g.issues).toEqual(['no_observations']);
    expect(g.ageSeconds).toBeNull();
    expect(g.observedAt).toBeNull();
    expect(g.availabilityComplete).toBe(false);
  });

  it('cuts the tail after the last null and at the last calendar gap', () => {
    const s = hourly([1, 2, null, 4, 5, 6, 7]);
    s.observations[5].observed_at = '2026-01-09T08:00:00Z';
    s.observations[6].observed_at = '2026-01-09T09:00:00Z';
    const g = gateSeries(s, asOf);
    expect(g.gapIndices).toEqual([5]);
    expect(g.tailStart).toBe(5);
    expect(g.missingPoints).toBe(1);
    expect(g.warnings).toEqual(['missing_observations_preserved', 'calendar_gaps_preserved']);
  });

  it('warns when no gap policy or availability history is supplied', () => {
    const s = hourly([1, 2], { max_gap_seconds: undefined });
    delete s.observations[0].available_at;
    const g = gateSeries(s, asOf);
    expect(g.warnings).toEqual(['availability_history_incomplete', 'calendar_gap_policy_not_supplied']);
    expect(g.availabilityComplete).toBe(false);
  });

  it('compares clocks as instants whatever their spelling', () => {
    const s = hourly([1, 2]);
    s.observations[1].observed_at = '2026-01-09T01:00:00.000000+00:00';
    const g = gateSeries(s, parseUtcTimestamp('2026-01-09T01:00:00.000000Z')!);
    expect(g.issues).toEqual([]);
    expect(g.ageSeconds).toBe(0);
  });
});

describe('domain checks', () => {
  it('rejects duplicate ids', () => {
    expect(codeOf(() => assertUniqueSeriesIds([{ id: 'a' }, { id: 'b' }, { id: 'a' }]))).toBe('duplicate_series_id');
    expect(codeOf(() => assertUniqueSeriesIds([{ id: 'a' }, { id: 'b' }]))).toBeUndefined();
  });

  it('rejects repeated or decreasing clocks, including equal instants spelled differently', () => {
    const s = hourly([1, 2]);
    s.observations[1].observed_at = '2026-01-09T00:00:00+00:00';
    expect(codeOf(() => assertSeriesDomain(s, 0, new InstantParser()))).toBe('non_increasing_timestamps');
  });

  it('rejects non-positive prices and negative counts, ignoring nulls', () => {
    expect(codeOf(() => assertSeriesDomain(hourly([1, 0], { kind: 'price' }), 0, new InstantParser()))).toBe('non_positive_price');
    expect(codeOf(() => assertSeriesDomain(hourly([1, null], { kind: 'price' }), 0, new InstantParser()))).toBeUndefined();
    expect(codeOf(() => assertSeriesDomain(hourly([0, -1], { kind: 'count' }), 0, new InstantParser()))).toBe('negative_count');
    expect(codeOf(() => assertSeriesDomain(hourly([-1, 0], { kind: 'rate' }), 0, new InstantParser()))).toBeUndefined();
  });

  it('orders ids by code point, astral characters after the BMP', () => {
    expect(idOrder([{ id: 'b' }, { id: '\u{1F600}' }, { id: '\uFFFD' }, { id: 'a' }])).toEqual([3, 0, 2, 1]);
  });
});

describe('gateSeries far from the epoch', () => {
  it('gives the same verdicts when clocks are beyond ±2^53 microseconds', () => {
    const shift = (s: GateSeries, from: string, to: string): GateSeries => ({
      ...s,
      observations: s.observations.map((o) => ({
        ...o,
        observed_at: o.observed_at.replace(from, to),
        available_at: o.available_at?.replace(from, to),
      })),
    });
    const near = hourly([1, null, 3, 4]);
    near.observations[3].available_at = '2026-01-09T02:00:00Z';
    const far = shift(near, '2026-01-09', '1500-01-09');
    const nearGate = gateSeries(near, asOf);
    const farGate = gateSeries(far, parseUtcTimestamp('1500-01-10T00:00:00Z')!);
    expect(farGate.observedKeys).toBeNull();
    expect(farGate.issues).toEqual(nearGate.issues);
    expect(farGate.warnings).toEqual(nearGate.warnings);
    expect(farGate.tailStart).toBe(nearGate.tailStart);
    expect(farGate.ageSeconds).toBe(nearGate.ageSeconds);
  });
});

describe('InstantParser', () => {
  it('reuses parsed clocks across series and reports exact keys', () => {
    const parser = new InstantParser();
    const a = hourly([1, 2]).observations;
    const b = hourly([3, 4]).observations;
    const ca = parser.readClocks(a, 'observed_at');
    const cb = parser.readClocks(b, 'observed_at');
    const ia = ca.instants();
    expect(cb.instants()).toEqual(ia);
    expect(cb.exact).toBe(true);
    expect(Array.from(cb.keys)).toEqual(ia.map((t) => Number(t)));
    const missing = parser.readClocks([{ observed_at: 'x' }, {}], 'available_at');
    expect(missing.instants()).toEqual([undefined, undefined]);
    expect(Number.isNaN(missing.keys[0])).toBe(true);
  });

  it('reports an unparsable clock as invalid input with its path', () => {
    const parser = new InstantParser();
    let error: unknown;
    try {
      parser.readClocks([{ observed_at: '2026-13-01T00:00:00Z' }], 'observed_at', '/series/0/observations');
    } catch (e) {
      error = e;
    }
    expect(isAppError(error) && error.code).toBe('invalid_input');
    expect(isAppError(error) && error.path).toBe('/series/0/observations/0/observed_at');
  });
});
