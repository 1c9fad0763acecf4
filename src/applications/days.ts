// UTC calendar days for keys and usage. Everything is counted in whole UTC dates, so the
// clock's time of day matters only for "seconds until the next date begins".

import { formatIsoDate, parseIsoDate, utcDayOf, type Instant } from '../core/time.js';

/** `YYYY-MM-DD` of the UTC date an instant falls on. */
export function utcDate(now: Instant): string {
  return formatIsoDate(utcDayOf(now));
}

/** The date `days` after (or before, when negative) a `YYYY-MM-DD` date. */
export function shiftDate(date: string, days: number): string {
  const n = parseIsoDate(date);
  if (n === null) throw new RangeError(`not a calendar date: ${date}`);
  return formatIsoDate(n + days);
}

/** Whole seconds from `now` until the next UTC midnight (1 … 86400). */
export function secondsToNextUtcMidnight(now: Instant): number {
  const nextMidnightMicros = BigInt(utcDayOf(now) + 1) * 86_400_000_000n;
  const micros = nextMidnightMicros - now;
  return Math.max(1, Number((micros + 999_999n) / 1_000_000n));
}
