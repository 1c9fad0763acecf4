// An allocation-free test for the analysis clock syntax. It accepts exactly what
// `parseUtcTimestamp` (src/core/time.ts) accepts — `YYYY-MM-DDTHH:MM:SS[.f{1,6}](Z|+00:00)`
// naming a real calendar instant — without building the instant, so the 131 072 clocks
// of a maximal request are checked in a few milliseconds rather than with BigInt
// arithmetic. test/analysis/utc-clock.test.ts checks that the two agree.
import { daysInMonth } from '../core/time.js';

// Field ranges are in the pattern; only days 29–31 need the month's length. A single
// regular-expression test is also the fastest scan of the sliced strings the JSON reader
// produces.
const CLOCK =
  /^(?!0000)\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d{1,6})?(?:Z|\+00:00)$/;

function digitsAt(s: string, from: number, count: number): number {
  let n = 0;
  for (let i = from; i < from + count; i++) n = n * 10 + (s.charCodeAt(i) - 48);
  return n;
}

export function isUtcClock(s: string): boolean {
  if (!CLOCK.test(s)) return false;
  const tens = s.charCodeAt(8);
  if (tens === 51 || (tens === 50 && s.charCodeAt(9) === 57)) {
    return digitsAt(s, 8, 2) <= daysInMonth(digitsAt(s, 0, 4), digitsAt(s, 5, 2));
  }
  return true;
}
