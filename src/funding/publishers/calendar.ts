// The publishers' business days: a publisher document that dates an observation on a day
// its publisher publishes none (a weekend, a holiday) is not what it claims to be, so that
// date is rejected (spec §2.5: "Business days exclude weekends and the 2026 NY Fed holidays";
// acceptance case 65).
//
// - `nyfed` (EFFR, ON RRP, standing repo): the Federal Reserve's holidays, the eleven of
//   5 U.S.C. 6103 by their statutory rules; one falling on a Sunday is kept the Monday after,
//   one falling on a Saturday is not moved (the Reserve Banks open on the Friday before).
//   For 2026 these are exactly the spec's list (test/funding/publishers/calendar.test.ts).
// - `sofr` (SOFR and its percentile and volume): `nyfed` plus the days the bond market
//   closes fully on SIFMA's recommendation, which it decides year by year. Only the ones
//   the spec names are known here (Good Friday 2026-04-03 and 2026-07-03); add each year's
//   as SIFMA announces them. Outside that list SOFR's calendar is the Reserve Banks'.
// - `federal` (the Daily Treasury Statement): the same holidays as federal offices keep
//   them: a Saturday holiday moves to the Friday before, a Sunday one to the Monday after.
import { civilFromDays, daysFromCivil, formatIsoDate, parseIsoDate, weekdayOfDays as weekday } from '../../core/time.js';
import type { IsoDate } from './types.js';

export type PublisherCalendar = 'nyfed' | 'sofr' | 'federal';

const SIFMA_FULL_CLOSES: ReadonlyMap<IsoDate, string> = new Map([
  ['2026-04-03', 'Good Friday, a full close of the bond market'],
  ['2026-07-03', 'the Friday before Independence Day, a full close of the bond market'],
]);

const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** The `n`th (1-based; -1 = last) `wd` of a month, as a day number. */
function nthWeekday(year: number, month: number, wd: number, n: number): number {
  if (n > 0) {
    const first = daysFromCivil(year, month, 1);
    return first + ((wd - weekday(first) + 7) % 7) + 7 * (n - 1);
  }
  const last = month === 12 ? daysFromCivil(year + 1, 1, 1) - 1 : daysFromCivil(year, month + 1, 1) - 1;
  return last - ((weekday(last) - wd + 7) % 7);
}

/** The statutory holidays of `year`, on their own dates (before any weekend moves). */
function statutoryHolidays(year: number): [number, string, boolean][] {
  // [day, name, fixed date (moves off a weekend)]
  const list: [number, string, boolean][] = [
    [daysFromCivil(year, 1, 1), "New Year's Day", true],
    [nthWeekday(year, 1, 1, 3), 'Birthday of Martin Luther King, Jr.', false],
    [nthWeekday(year, 2, 1, 3), "Washington's Birthday", false],
    [nthWeekday(year, 5, 1, -1), 'Memorial Day', false],
    [daysFromCivil(year, 7, 4), 'Independence Day', true],
    [nthWeekday(year, 9, 1, 1), 'Labor Day', false],
    [nthWeekday(year, 10, 1, 2), 'Columbus Day', false],
    [daysFromCivil(year, 11, 11), 'Veterans Day', true],
    [nthWeekday(year, 11, 4, 4), 'Thanksgiving Day', false],
    [daysFromCivil(year, 12, 25), 'Christmas Day', true],
  ];
  // A federal holiday since 2021; the Reserve Banks first closed for it in 2022.
  if (year >= 2022) list.push([daysFromCivil(year, 6, 19), 'Juneteenth National Independence Day', true]);
  return list;
}

/** The holiday observed on `day` under `calendar`'s weekend rule, if any. */
function holidayOn(day: number, calendar: 'nyfed' | 'federal'): string | undefined {
  const { year } = civilFromDays(day);
  // New Year's Day of the next year can be kept on this year's December 31.
  for (const y of [year, year + 1]) {
    for (const [date, name, fixed] of statutoryHolidays(y)) {
      let kept = date;
      if (fixed && weekday(date) === 0) kept = date + 1;
      else if (fixed && weekday(date) === 6) kept = calendar === 'federal' ? date - 1 : Number.NaN;
      if (kept === day) return kept === date ? name : `${name} (kept on ${DAY_NAMES[weekday(day)]} ${formatIsoDate(day)})`;
    }
  }
  return undefined;
}

/**
 * Why `date` is no business day of `calendar` ("a Saturday", "Thanksgiving Day, a holiday"),
 * or undefined when it is one. `date` is a valid `YYYY-MM-DD`.
 */
export function nonBusinessDay(date: IsoDate, calendar: PublisherCalendar): string | undefined {
  const day = parseIsoDate(date);
  if (day === null) return undefined;
  const wd = weekday(day);
  if (wd === 0 || wd === 6) return `a ${DAY_NAMES[wd]}`;
  const holiday = holidayOn(day, calendar === 'federal' ? 'federal' : 'nyfed');
  if (holiday !== undefined) return `${holiday}, a ${calendar === 'federal' ? 'federal' : 'Federal Reserve'} holiday`;
  if (calendar === 'sofr') return SIFMA_FULL_CLOSES.get(date);
  return undefined;
}
