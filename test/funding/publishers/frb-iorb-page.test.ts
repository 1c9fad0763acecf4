import { describe, expect, it } from 'vitest';

import { parseEffectiveDate, parseIorbPage } from '../../../src/funding/publishers/frb-iorb-page.js';
import { acceptedValues, documentFailure, entryOn, fixture, rejection, seriesOf } from './fixtures.js';

const asOf = { asOf: '2026-10-21' };
const iorbOf = (name: string, context = asOf) => seriesOf(parseIorbPage(fixture(`iorb/${name}.htm`), context), 'policy.iorb');

describe('Board IORB page', () => {
  it('gives every day the rate of the newest effective date on or before it, up to the day the page was read', () => {
    const iorb = iorbOf('board-page');
    expect(iorb.newestDate).toBe('2026-10-21');
    expect(iorb.observations[0]).toEqual({ date: '2026-10-21', state: 'accepted', exact: '3.9', value: 3.9 });
    expect(entryOn(iorb, '2026-10-18')).toMatchObject({ exact: '3.9' });
    expect(entryOn(iorb, '2026-09-18')).toMatchObject({ exact: '3.9' });
    expect(entryOn(iorb, '2026-09-17')).toMatchObject({ exact: '4.15' });
    expect(entryOn(iorb, '2026-06-18')).toMatchObject({ exact: '4.15' });
    expect(entryOn(iorb, '2026-06-17')).toMatchObject({ exact: '4.4' });
    expect(entryOn(iorb, '2021-07-29')).toMatchObject({ exact: '0.15' });
    expect(iorb.observations.some((o) => o.date === '2021-07-28')).toBe(false);
    // One entry per calendar day from 2021-07-29 to 2026-10-21.
    expect(iorb.observations).toHaveLength(1911);
  });

  it('agrees with the PRATES package on every day both cover', async () => {
    const { parsePratesArchive } = await import('../../../src/funding/publishers/frb-prates.js');
    const prates = seriesOf(parsePratesArchive(fixture('iorb/daily-frequency.zip')), 'policy.iorb');
    const page = new Map(acceptedValues(iorbOf('board-page')));
    for (const [date, value] of acceptedValues(prates)) expect([date, page.get(date)]).toEqual([date, value]);
  });

  it('says nothing about days after it was read, and ignores a change that is not yet in effect', () => {
    const early = iorbOf('board-page', { asOf: '2026-09-17' });
    expect(early.newestDate).toBe('2026-09-17');
    expect(early.observations[0]).toMatchObject({ exact: '4.15' });
  });

  it('reads tables split by year, abbreviated months, percent signs and a "Rate" column under an IORB caption', () => {
    expect(acceptedValues(iorbOf('board-page-split'))).toEqual(acceptedValues(iorbOf('board-page')));
  });

  it('never reads the retired IORR/IOER table', () => {
    const error = documentFailure(() => parseIorbPage(fixture('iorb/board-page-no-table.htm'), asOf), 'document_table_missing');
    expect(error.message).toContain('IOER');
  });

  it('refuses an unreadable effective date and a repeated one', () => {
    expect(documentFailure(() => parseIorbPage(fixture('iorb/board-page-bad-date.htm'), asOf), 'document_bad_date').message)
      .toContain('"Sept 18 2026"');
    documentFailure(() => parseIorbPage(fixture('iorb/board-page-duplicate-date.htm'), asOf), 'document_duplicate_date');
  });

  it('rejects exactly the days an unreadable rate governs', () => {
    const iorb = iorbOf('board-page-bad-rate');
    expect(rejection(iorb, '2026-06-18', 'document_not_a_number').message).toContain('"4.15 (see note)"');
    rejection(iorb, '2026-09-17', 'document_not_a_number');
    expect(entryOn(iorb, '2026-09-18')).toMatchObject({ state: 'accepted', exact: '3.9' });
    expect(entryOn(iorb, '2026-06-17')).toMatchObject({ state: 'accepted', exact: '4.4' });
  });

  it('refuses a rate in basis points or otherwise beyond 20 percent', () => {
    const html = new TextDecoder().decode(fixture('iorb/board-page.htm')).replace('<td>3.90</td>', '<td>390</td>');
    rejection(seriesOf(parseIorbPage(html, asOf), 'policy.iorb'), '2026-10-21', 'document_not_a_number');
  });

  it('needs the date it is read as of', () => {
    expect(() => parseIorbPage(fixture('iorb/board-page.htm'))).toThrow(RangeError);
  });

  it.each([
    ['December 11, 2025', '2025-12-11'], ['Dec. 11, 2025', '2025-12-11'], ['Sept. 18, 2024', '2024-09-18'], ['Sep 18, 2024', '2024-09-18'],
    ['2025-12-11', '2025-12-11'], ['12/11/2025', '2025-12-11'], ['February 30, 2025', null], ['Decem 11, 2025', null], ['13/01/2025', null], ['', null],
  ])('reads the effective date %j as %j', (text, date) => {
    expect(parseEffectiveDate(text)).toBe(date);
  });
});
