import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isAppError } from '../../src/core/errors.js';
import { parseUtcTimestamp } from '../../src/core/time.js';
import { type ClockColumn, InstantParser, type ObservationClocks } from '../../src/analysis/clock-parser.js';

// Spellings of a few instants, near and beyond ±2^53 µs, so memo hits, misses and both
// key kinds all come up; undefined stands for an absent member.
const TEXTS = [
  '2026-01-01T00:00:00Z',
  '2026-01-01T00:00:00+00:00',
  '2026-01-01T00:00:00.0Z',
  '2026-01-01T01:00:00Z',
  '2026-01-01T01:00:00.000001Z',
  '2255-06-05T23:47:34.740992Z',
  '2255-06-05T23:47:34.740993Z',
  '1500-01-01T00:00:00Z',
  undefined,
];

describe('InstantParser.readClocks', () => {
  it('gives every series the clocks a fresh parse gives, whatever the previous series held (property)', () => {
    // Past 16 observations the parser stops comparing with earlier series that matched
    // none of the first 16: lengths up to 40 cover both sides of that decision.
    const series = fc.array(fc.constantFrom(...TEXTS), { maxLength: 40 });
    fc.assert(
      fc.property(fc.array(series, { minLength: 1, maxLength: 5 }), (panel) => {
        const parser = new InstantParser();
        for (const texts of panel) {
          const observations = texts.map((t) => (t === undefined ? {} : { observed_at: t }));
          const column = parser.readClocks(observations, 'observed_at');
          const instants = texts.map((t) => (t === undefined ? undefined : parseUtcTimestamp(t)!));
          const far = instants.some((t) => t !== undefined && (t > 2n ** 53n || t < -(2n ** 53n)));
          expect(column.exact).toBe(!far);
          expect(column.instants()).toEqual(instants);
          texts.forEach((t, i) => {
            expect(column.instant(i)).toBe(instants[i]);
            const key = column.keys[i];
            if (t === undefined || (instants[i]! > 2n ** 53n || instants[i]! < -(2n ** 53n))) expect(key).toBeNaN();
            else expect(key).toBe(Number(instants[i]));
          });
        }
      }),
      { numRuns: 500 },
    );
  });

  it('reports the first invalid clock even where the previous series had a valid one at that place', () => {
    const parser = new InstantParser();
    parser.readClocks([{ observed_at: TEXTS[0] }, { observed_at: TEXTS[3] }], 'observed_at');
    let error: unknown;
    try {
      parser.readClocks([{ observed_at: TEXTS[0] }, { observed_at: '2026-01-01T01:00:00' }], 'observed_at', '/series/1/observations');
    } catch (e) {
      error = e;
    }
    expect(isAppError(error) && error.path).toBe('/series/1/observations/1/observed_at');
  });
});

describe('InstantParser.readObservationClocks', () => {
  const withInvalid = [...TEXTS, 'not a clock'];
  const member = fc.constantFrom(...withInvalid);

  function outcome(f: () => unknown): unknown {
    try {
      return { value: f() };
    } catch (e) {
      return { error: isAppError(e) ? [e.code, e.path, e.message] : String(e) };
    }
  }

  it('reads both clock members as two readClocks calls do, invalid and repeated ones included (property)', () => {
    const observation = fc.record({ observed_at: member, available_at: member }, { requiredKeys: [] });
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.array(observation, { maxLength: 40 }), fc.boolean()), { minLength: 1, maxLength: 5 }), (drawn) => {
        const fused = new InstantParser();
        const separate = new InstantParser();
        // A repeated series has the clocks of the one before it (an aligned panel).
        const panel = drawn.flatMap(([raw, repeat]) => (repeat ? [raw, raw] : [raw]));
        panel.forEach((raw, s) => {
          const observations = raw.map((o) => {
            const copy: { observed_at?: string; available_at?: string } = {};
            if (o.observed_at !== undefined) copy.observed_at = o.observed_at;
            if (o.available_at !== undefined) copy.available_at = o.available_at;
            return copy;
          });
          const prefix = `/series/${s}/observations`;
          const expectedObserved = outcome(() => separate.readClocks(observations, 'observed_at', prefix));
          const pair = outcome(() => fused.readObservationClocks(observations, prefix));
          const shape = (c: unknown) => {
            const column = c as ClockColumn;
            return { exact: column.exact, keys: Array.from(column.keys), instants: column.instants() };
          };
          if ('error' in (expectedObserved as object)) {
            expect(pair).toEqual(expectedObserved);
            return;
          }
          const clocks = (pair as { value: ObservationClocks }).value;
          expect(shape(clocks.observed)).toEqual(shape((expectedObserved as { value: unknown }).value));
          const expectedAvailable = outcome(() => shape(separate.readClocks(observations, 'available_at')));
          expect(outcome(() => shape(clocks.availability()))).toEqual(expectedAvailable);
        });
      }),
      { numRuns: 500 },
    );
  });

  it('reports an invalid available_at only when the availability is asked for, and again for a later series repeating it', () => {
    const parser = new InstantParser();
    const observations = [{ observed_at: TEXTS[0], available_at: 'bad' }];
    const clocks = parser.readObservationClocks(observations, '/series/0/observations');
    expect(clocks.observed.keys[0]).toBe(Number(parseUtcTimestamp(TEXTS[0]!)!));
    expect(() => clocks.availability()).toThrow();
    expect(() => parser.readObservationClocks(observations).availability()).toThrow();
  });
});
