// The publishers' business days: the Federal Reserve's holidays by their statutory rules,
// SIFMA's known full closes for SOFR, and federal offices' weekend moves for the DTS.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatIsoDate, parseIsoDate } from '../../../src/core/time.js';
import { nonBusinessDay, type PublisherCalendar } from '../../../src/funding/publishers/calendar.js';

const CALENDARS: PublisherCalendar[] = ['nyfed', 'sofr', 'federal'];

function weekdaysOf(year: number, calendar: PublisherCalendar): string[] {
  const out: string[] = [];
  for (let day = parseIsoDate(`${year}-01-01`)!; day <= parseIsoDate(`${year}-12-31`)!; day++) {
    const date = formatIsoDate(day);
    const why = nonBusinessDay(date, calendar);
    if (why !== undefined && !/^a (Saturday|Sunday)$/.test(why)) out.push(date);
  }
  return out;
}

describe('publisher calendars', () => {
  it('the NY Fed holidays of 2026 are exactly the spec\'s list (§2.5), and 2027 opens with one', () => {
    // Jul 4 2026 is a Saturday: a holiday, but not a weekday one.
    expect(weekdaysOf(2026, 'nyfed')).toEqual([
      '2026-01-01', '2026-01-19', '2026-02-16', '2026-05-25', '2026-06-19', '2026-09-07', '2026-10-12', '2026-11-11', '2026-11-26', '2026-12-25',
    ]);
    expect(nonBusinessDay('2026-07-04', 'nyfed')).toBe('a Saturday');
    expect(nonBusinessDay('2027-01-01', 'nyfed')).toMatch(/New Year's Day/);
  });

  it('SOFR also closes on the bond market\'s 2026 full closes (Good Friday and July 3), EFFR does not', () => {
    expect(weekdaysOf(2026, 'sofr')).toEqual([...weekdaysOf(2026, 'nyfed'), '2026-04-03', '2026-07-03'].sort());
    expect(nonBusinessDay('2026-04-03', 'nyfed')).toBeUndefined();
    expect(nonBusinessDay('2026-04-03', 'sofr')).toMatch(/Good Friday/);
  });

  it('moves a Sunday holiday to Monday for every calendar, and a Saturday one to Friday only for federal offices', () => {
    // Christmas 2022 was a Sunday; Independence Day 2026 and New Year's Day 2022 are Saturdays.
    for (const calendar of CALENDARS) expect(nonBusinessDay('2022-12-26', calendar)).toMatch(/Christmas Day \(kept on Monday 2022-12-26\)/);
    expect(nonBusinessDay('2026-07-03', 'federal')).toMatch(/Independence Day/);
    expect(nonBusinessDay('2021-12-31', 'federal')).toMatch(/New Year's Day/);
    expect(nonBusinessDay('2021-12-31', 'nyfed')).toBeUndefined();
  });

  it('finds the floating holidays on their weekdays in any year', () => {
    expect(nonBusinessDay('2026-11-26', 'nyfed')).toMatch(/^Thanksgiving Day, a Federal Reserve holiday$/);
    expect(nonBusinessDay('2030-11-28', 'nyfed')).toMatch(/Thanksgiving/); // fourth Thursday
    expect(nonBusinessDay('2030-05-27', 'nyfed')).toMatch(/Memorial Day/); // last Monday
    expect(nonBusinessDay('2030-01-21', 'nyfed')).toMatch(/King/); // third Monday
    expect(nonBusinessDay('2030-10-14', 'federal')).toMatch(/Columbus/); // second Monday
  });

  it('every weekend day is no business day, and no year has more than 13 weekday holidays', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2022, max: 2100 }), fc.integer({ min: 0, max: 364 }), fc.constantFrom(...CALENDARS), (year, offset, calendar) => {
        const day = parseIsoDate(`${year}-01-01`)! + offset;
        const date = formatIsoDate(day);
        const wd = new Date(day * 86_400_000).getUTCDay();
        if (wd === 0 || wd === 6) expect(nonBusinessDay(date, calendar)).toMatch(/^a (Saturday|Sunday)$/);
      }),
    );
    for (let year = 2022; year <= 2040; year++) {
      for (const calendar of CALENDARS) expect(weekdaysOf(year, calendar).length, `${year} ${calendar}`).toBeLessThanOrEqual(13);
    }
  });
});
