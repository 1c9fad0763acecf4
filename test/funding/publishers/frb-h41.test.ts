import { describe, expect, it } from 'vitest';

import { parseH41Page } from '../../../src/funding/publishers/frb-h41.js';
import { documentFailure, entryOn, fixture, fixtureText, rejection, seriesOf } from './fixtures.js';

describe('H.4.1 page', () => {
  it('reads the weekly average of reserve balances in billions, dated the week-ended Wednesday', () => {
    const doc = parseH41Page(fixture('reserves/valid.htm'));
    expect(doc.document).toBe('reserves');
    expect(doc.weekEnded).toBe('2026-10-14');
    const reserves = seriesOf(doc, 'liquidity.reserves');
    expect(reserves.observations).toEqual([{ date: '2026-10-14', state: 'accepted', exact: '2930.193', value: 2930.193 }]);
    expect(reserves.newestDate).toBe('2026-10-14');
  });

  it('normalises whitespace, line breaks and entities inside the cells', () => {
    const doc = parseH41Page(fixtureText('reserves/entities-and-spacing.htm'));
    expect(entryOn(seriesOf(doc, 'liquidity.reserves'), '2026-10-14')).toMatchObject({ value: 2930.193 });
  });

  it('refuses a page whose row 16 is not reserve balances', () => {
    const error = documentFailure(() => parseH41Page(fixture('reserves/label-mismatch.htm')), 'label_mismatch');
    expect(error.location).toBe('#t2r16c1');
  });

  it('refuses a header that does not start with "Week ended" and a date', () => {
    const error = documentFailure(() => parseH41Page(fixture('reserves/header-not-week-ended.htm')), 'header_mismatch');
    expect(error.message).toContain('Wednesday Oct 14, 2026');
  });

  it('refuses a week that does not end on a Wednesday, or on no real date', () => {
    expect(documentFailure(() => parseH41Page(fixture('reserves/header-not-wednesday.htm')), 'not_wednesday').message)
      .toContain('2026-10-15');
    documentFailure(() => parseH41Page(fixture('reserves/header-impossible-date.htm')), 'bad_date');
  });

  it('refuses a page that uses a cell id twice', () => {
    const error = documentFailure(() => parseH41Page(fixture('reserves/duplicate-cell-id.htm')), 'duplicate_cell_id');
    expect(error.message).toContain('t2r16c2');
  });

  it('refuses a page without the value cell', () => {
    documentFailure(() => parseH41Page(fixture('reserves/value-cell-missing.htm')), 'missing_cell');
  });

  it.each([['value-not-a-number', 'n.a.'], ['value-bad-separators', '2,93,0193']])('rejects the week when the value cell reads %s', (name, text) => {
    const reserves = seriesOf(parseH41Page(fixture(`reserves/${name}.htm`)), 'liquidity.reserves');
    expect(rejection(reserves, '2026-10-14', 'not_a_number').message).toContain(JSON.stringify(text));
    expect(reserves.newestDate).toBeNull();
  });

  it('refuses a page over 2,000,000 bytes', () => {
    documentFailure(() => parseH41Page(`<p>${'x'.repeat(2_000_000)}</p>`), 'too_large');
  });
});
