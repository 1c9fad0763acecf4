import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  formatInstantCompact, formatInstantOffset, formatInstantZ, formatIsoDate, parseIsoDate, parseOffsetTimestamp,
  parseUtcTimestamp, secondsBetween, utcDayOf, weekdayOfDays,
} from '../../src/core/time.js';

const EPOCH_2026_10_08 = 1791417600n * 1_000_000n; // 2026-10-08T00:00:00Z

describe('strict UTC timestamps', () => {
  it.each([
    ['2026-10-08T00:00:00Z', 0n],
    ['2026-10-08T00:00:00+00:00', 0n],
    ['2026-10-08T00:00:00.000000Z', 0n],
    ['2026-10-08T00:00:00.1Z', 100_000n],
    ['2026-10-08T00:00:00.12Z', 120_000n],
    ['2026-10-08T00:00:00.123Z', 123_000n],
    ['2026-10-08T00:00:00.1234Z', 123_400n],
    ['2026-10-08T00:00:00.12345Z', 123_450n],
    ['2026-10-08T00:00:00.123456+00:00', 123_456n],
  ])('reads %s to the microsecond', (text, micros) => {
    expect(parseUtcTimestamp(text)).toBe(EPOCH_2026_10_08 + micros);
  });

  it.each([
    '2026-10-08', '2026-10-08T01:00:00', '2026-10-08T01:00:00+01:00', 'bad', '2026-10-08T01:00:00-00:00',
    '2026-10-08T01:00:00+0000', '2026-10-08t01:00:00Z', '2026-10-08T01:00:00z', '2026-10-08 01:00:00Z',
    '2026-10-08T01:00:00.1234567Z', '2026-10-08T01:00Z', '2026-02-29T00:00:00Z', '2026-13-01T00:00:00Z',
    '2026-10-08T24:00:00Z', '2026-10-08T23:60:00Z', '2026-12-31T23:59:60Z', '0000-01-01T00:00:00Z',
    '2026-10-08T01:00:00.Z', '٢٠٢٦-10-08T01:00:00Z',
  ])('refuses %s', (text) => {
    expect(parseUtcTimestamp(text)).toBeNull();
  });

  it('accepts exactly what the documented pattern accepts (property over near-miss spellings)', () => {
    const pattern = /^([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})(\.[0-9]{1,6})?(Z|\+00:00)$/;
    const base = '2026-10-08T12:34:56.123456+00:00';
    const alphabet = ['0', '9', '-', ':', 'T', 'Z', '+', '.', ' ', 'z', '٣', '1', '5', ''];
    fc.assert(fc.property(fc.array(fc.tuple(fc.nat(base.length), fc.constantFrom(...alphabet)), { maxLength: 3 }), (edits) => {
      let text = base;
      for (const [at, ch] of edits) text = text.slice(0, at) + ch + text.slice(at + 1);
      const m = pattern.exec(text);
      const parsed = parseUtcTimestamp(text);
      if (!m) {
        expect(parsed).toBeNull();
        return;
      }
      const d = new Date(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}Z`);
      const real = !Number.isNaN(d.getTime()) && d.getUTCDate() === Number(m[3]) && Number(m[4]) < 24 && Number(m[6]) < 60 && Number(m[1]) > 0;
      if (!real) {
        expect(parsed).toBeNull();
        return;
      }
      const micros = m[7] ? BigInt(m[7].slice(1).padEnd(6, '0')) : 0n;
      expect(parsed).toBe(BigInt(d.getTime()) * 1000n + micros);
    }), { numRuns: 3000 });
  });

  it('accepts leap days and the ends of the range', () => {
    expect(parseUtcTimestamp('2024-02-29T12:00:00Z')).not.toBeNull();
    expect(parseUtcTimestamp('0001-01-01T00:00:00Z')).not.toBeNull();
    expect(parseUtcTimestamp('9999-12-31T23:59:59.999999Z')).not.toBeNull();
  });

  it('formats back in the Z form, with microseconds only when non-zero', () => {
    expect(formatInstantZ(EPOCH_2026_10_08)).toBe('2026-10-08T00:00:00Z');
    expect(formatInstantZ(EPOCH_2026_10_08 + 5n)).toBe('2026-10-08T00:00:00.000005Z');
    expect(formatInstantOffset(EPOCH_2026_10_08 + 318_552n)).toBe('2026-10-08T00:00:00.318552+00:00');
    expect(formatInstantCompact(EPOCH_2026_10_08 + 123_456n)).toBe('20261008T000000.123456Z');
  });

  it('round-trips any instant between years 1 and 9999 (property)', () => {
    const min = parseUtcTimestamp('0001-01-01T00:00:00Z')!;
    const max = parseUtcTimestamp('9999-12-31T23:59:59.999999Z')!;
    fc.assert(fc.property(fc.bigInt({ min, max }), (i) => {
      expect(parseUtcTimestamp(formatInstantZ(i))).toBe(i);
      expect(parseUtcTimestamp(formatInstantOffset(i))).toBe(i);
    }), { numRuns: 1000 });
  });

  it('agrees with Date for millisecond instants (property)', () => {
    fc.assert(fc.property(fc.integer({ min: -62135596800000, max: 253402300799999 }), (ms) => {
      const iso = new Date(ms).toISOString(); // YYYY-MM-DDTHH:MM:SS.mmmZ
      expect(parseUtcTimestamp(iso)).toBe(BigInt(ms) * 1000n);
    }), { numRuns: 1000 });
  });
});

describe('durations', () => {
  it('divides exact microseconds by a million with one rounding', () => {
    expect(secondsBetween(EPOCH_2026_10_08 + 3_600_000_000n, EPOCH_2026_10_08)).toBe(3600);
    expect(secondsBetween(EPOCH_2026_10_08, EPOCH_2026_10_08 + 1n)).toBe(-0.000001);
    expect(secondsBetween(EPOCH_2026_10_08 + 691_200_000_000n, EPOCH_2026_10_08)).toBe(691200);
  });

  it('stays correctly rounded across millennia, beyond 2^53 microseconds', () => {
    const a = parseUtcTimestamp('9999-12-31T23:59:59.999999Z')!;
    const b = parseUtcTimestamp('0001-01-01T00:00:00.000001Z')!;
    const exact = a - b; // 315537897599999998 µs
    // Reference: the double nearest to exact / 1e6, computed with exact rationals.
    const seconds = secondsBetween(a, b);
    const back = BigInt(Math.round(seconds)) * 1_000_000n;
    expect(back - exact).toBeLessThanOrEqual(32_000_000n);
    expect(seconds).toBe(315537897599.99999);
  });
});

describe('other clock formats', () => {
  it('converts explicit offsets to UTC and refuses zone-less text', () => {
    expect(parseOffsetTimestamp('2026-10-08T02:00:00+02:00')).toBe(EPOCH_2026_10_08);
    expect(parseOffsetTimestamp('2026-10-07T20:00:00-04:00')).toBe(EPOCH_2026_10_08);
    expect(parseOffsetTimestamp('2026-10-08T00:00:00')).toBeNull();
  });

  it('reads and writes calendar dates, UTC days and weekdays', () => {
    const d = parseIsoDate('2026-09-23')!;
    expect(formatIsoDate(d)).toBe('2026-09-23');
    expect(weekdayOfDays(d)).toBe(3); // a Wednesday
    expect(parseIsoDate('2026-02-30')).toBeNull();
    expect(utcDayOf(EPOCH_2026_10_08 + 86_399_999_999n)).toBe(Number(EPOCH_2026_10_08 / 86_400_000_000n));
  });
});
