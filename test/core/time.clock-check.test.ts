import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isUtcTimestamp, parseUtcTimestamp } from '../../src/core/time.js';

const digits = (n: number) => fc.array(fc.constantFrom(...'0123456789'), { minLength: n, maxLength: n }).map((d) => d.join(''));

// Clock-shaped text with every field free, so calendar edge cases (day 31 of April, 29
// February, hour 24, second 60) and the zone/fraction variants all come up.
const clockLike = fc
  .tuple(
    digits(4), digits(2), digits(2), digits(2), digits(2), digits(2),
    fc.option(fc.integer({ min: 0, max: 8 }).chain((n) => digits(n)), { nil: undefined }),
    fc.constantFrom('Z', '+00:00', 'z', '-00:00', '+01:00', '', '+0000', 'ZZ'),
    fc.constantFrom('T', 't', ' '),
  )
  .map(([y, mo, d, h, mi, s, frac, zone, sep]) => `${y}-${mo}-${d}${sep}${h}:${mi}:${s}${frac === undefined ? '' : '.' + frac}${zone}`);

const plausible = fc
  .record({
    y: fc.integer({ min: 0, max: 9999 }),
    mo: fc.integer({ min: 0, max: 13 }),
    d: fc.integer({ min: 0, max: 32 }),
    h: fc.integer({ min: 0, max: 24 }),
    mi: fc.integer({ min: 0, max: 60 }),
    s: fc.integer({ min: 0, max: 60 }),
    frac: fc.option(fc.integer({ min: 1, max: 7 }).chain((n) => digits(n)), { nil: undefined }),
    zone: fc.constantFrom('Z', '+00:00'),
  })
  .map(({ y, mo, d, h, mi, s, frac, zone }) => {
    const p = (n: number, w = 2) => String(n).padStart(w, '0');
    return `${p(y, 4)}-${p(mo)}-${p(d)}T${p(h)}:${p(mi)}:${p(s)}${frac === undefined ? '' : '.' + frac}${zone}`;
  });

describe('isUtcTimestamp (the validator\'s clock check)', () => {
  it('accepts exactly what parseUtcTimestamp accepts (clock-shaped text)', () => {
    fc.assert(fc.property(fc.oneof(clockLike, plausible), (text) => {
      expect(isUtcTimestamp(text)).toBe(parseUtcTimestamp(text) !== null);
    }), { numRuns: 5000 });
  });

  it('accepts exactly what parseUtcTimestamp accepts (arbitrary text)', () => {
    fc.assert(fc.property(fc.string({ maxLength: 40 }), (text) => {
      expect(isUtcTimestamp(text)).toBe(parseUtcTimestamp(text) !== null);
    }), { numRuns: 2000 });
  });

  it.each([
    ['2024-02-29T00:00:00Z', true], ['2023-02-29T00:00:00Z', false], ['2000-02-29T00:00:00Z', true], ['1900-02-29T00:00:00Z', false],
    ['2026-04-30T00:00:00Z', true], ['2026-04-31T00:00:00Z', false], ['2026-12-31T23:59:59.999999+00:00', true],
  ])('%s → %s', (text, ok) => {
    expect(isUtcTimestamp(text)).toBe(ok);
    expect(parseUtcTimestamp(text) !== null).toBe(ok);
  });

  it('maps 1 to 6 fractional digits onto microseconds and treats Z and +00:00 alike', () => {
    const base = parseUtcTimestamp('2026-10-08T09:00:00Z')!;
    expect(parseUtcTimestamp('2026-10-08T09:00:00+00:00')).toBe(base);
    expect(parseUtcTimestamp('2026-10-08T09:00:00.000000Z')).toBe(base);
    const cases: [string, bigint][] = [['1', 100000n], ['12', 120000n], ['123', 123000n], ['1234', 123400n], ['12345', 123450n], ['123456', 123456n]];
    for (const [frac, micros] of cases) {
      expect(parseUtcTimestamp(`2026-10-08T09:00:00.${frac}Z`)! - base).toBe(micros);
      expect(parseUtcTimestamp(`2026-10-08T09:00:00.${frac}+00:00`)! - base).toBe(micros);
    }
    expect(isUtcTimestamp('2026-10-08T09:00:00.1234567Z')).toBe(false);
  });
});
