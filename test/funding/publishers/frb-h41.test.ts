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

  it('finds the row by its label and the column by its header when a row added above shifts every cell id', () => {
    const html = fixtureText('reserves/shifted-rows.htm');
    expect(html).toContain('id="t2r17c2" headers="t2r17c1 t2h2 t2h2c1" class="data">2,930,193');
    expect(html).not.toContain('>Reserve balances with Federal Reserve Banks</th><td id="t2r16c2"');
    const reserves = seriesOf(parseH41Page(html), 'liquidity.reserves');
    expect(reserves.observations).toEqual([{ date: '2026-10-14', state: 'accepted', exact: '2930.193', value: 2930.193 }]);
  });

  it('reads the "Week ended" column under the "Averages of daily figures" group, not the changes or the Wednesday level', () => {
    // The Wednesday level (2,912,437) and the changes sit in the same row; only the average is taken.
    expect(seriesOf(parseH41Page(fixture('reserves/valid.htm')), 'liquidity.reserves').observations[0]).toMatchObject({ exact: '2930.193' });
  });

  it('ignores ids the site chrome repeats, and refuses a repeated id on a cell it reads', () => {
    expect(fixtureText('reserves/valid.htm').match(/id="nav-item"/g)).toHaveLength(4);
    const error = documentFailure(() => parseH41Page(fixture('reserves/duplicate-cell-id.htm')), 'document_duplicate_id');
    expect(error.message).toContain('t2r16c2');
    expect(error.location).toBe('#t2r16c2');
  });

  it('normalises whitespace, line breaks and entities inside the cells', () => {
    const doc = parseH41Page(fixtureText('reserves/entities-and-spacing.htm'));
    expect(entryOn(seriesOf(doc, 'liquidity.reserves'), '2026-10-14')).toMatchObject({ value: 2930.193 });
  });

  it('refuses a page without a row labelled reserve balances', () => {
    const error = documentFailure(() => parseH41Page(fixture('reserves/label-missing.htm')), 'document_row_missing');
    expect(error.message).toContain('Reserve balances with Federal Reserve Banks');
    expect(error.message).toMatch(/^Board H\.4\.1 page \(reserves, document_row_missing\): /);
  });

  it('refuses a page where two tables carry the row and a week column', () => {
    documentFailure(() => parseH41Page(fixture('reserves/two-tables.htm')), 'document_table_ambiguous');
  });

  it('refuses a table without a "Week ended" column, naming the headers it found', () => {
    const error = documentFailure(() => parseH41Page(fixture('reserves/header-not-week-ended.htm')), 'document_header_mismatch');
    expect(error.message).toContain('Wednesday Oct 14, 2026');
  });

  it('refuses a week that does not end on a Wednesday, or on no real date', () => {
    expect(documentFailure(() => parseH41Page(fixture('reserves/header-not-wednesday.htm')), 'document_not_wednesday').message)
      .toContain('2026-10-15');
    documentFailure(() => parseH41Page(fixture('reserves/header-impossible-date.htm')), 'document_bad_date');
  });

  it('accepts the month written as an abbreviation with a period or in full', () => {
    for (const month of ['Oct.', 'October']) {
      const html = fixtureText('reserves/valid.htm').replaceAll('Oct 14, 2026', `${month} 14, 2026`);
      expect(parseH41Page(html).weekEnded).toBe('2026-10-14');
    }
    const bad = fixtureText('reserves/valid.htm').replaceAll('Oct 14, 2026', 'Octo 14, 2026');
    documentFailure(() => parseH41Page(bad), 'document_bad_date');
  });

  it('refuses a reserves row without a cell under the week column', () => {
    documentFailure(() => parseH41Page(fixture('reserves/value-cell-missing.htm')), 'document_cell_missing');
  });

  it.each([['value-not-a-number', 'n.a.'], ['value-bad-separators', '2,93,0193']])('rejects the week when the value cell reads %s', (name, text) => {
    const reserves = seriesOf(parseH41Page(fixture(`reserves/${name}.htm`)), 'liquidity.reserves');
    expect(rejection(reserves, '2026-10-14', 'document_not_a_number').message).toContain(JSON.stringify(text));
    expect(reserves.newestDate).toBeNull();
  });

  it('refuses a page over 2,000,000 bytes', () => {
    documentFailure(() => parseH41Page(`<p>${'x'.repeat(2_000_000)}</p>`), 'document_too_large');
  });
});

describe('H.4.1 amounts that no reserve balance in millions can be', () => {
  it.each([
    ['2,930.193', 'document_not_whole_units'],
    ['-2,930,193', 'document_negative_amount'],
    ['200,000,000,000', 'document_implausible_amount'],
    // Whole billions where millions belong: $2.5 billion of reserves has not been seen since 2008.
    ['2,536', 'document_implausible_amount'],
    ['0', 'document_implausible_amount'],
  ] as const)('rejects the week when the average reads %s (%s)', (cell, reason) => {
    const html = fixtureText('reserves/valid.htm').replace('class="data">2,930,193<', `class="data">${cell}<`);
    const reserves = seriesOf(parseH41Page(html), 'liquidity.reserves');
    const error = rejection(reserves, '2026-10-14', reason);
    expect(error.message).toContain(cell);
    expect(reserves.newestDate).toBeNull();
  });
});
