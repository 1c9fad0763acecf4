import { describe, expect, it } from 'vitest';

import {
  parseTreasuryDtsDocument,
  treasuryDtsQuery,
  treasuryDtsQueryParameters,
} from '../../../src/funding/publishers/treasury-dts.js';
import { acceptedValues, documentFailure, entryOn, fixture, rejection, seriesOf } from './fixtures.js';

describe('DTS operating cash balance', () => {
  it('reads the TGA opening balance of each record date in billions, exactly', () => {
    const doc = parseTreasuryDtsDocument(fixture('tga/valid.json'));
    expect(doc.document).toBe('tga');
    const tga = seriesOf(doc, 'liquidity.tga');
    expect(entryOn(tga, '2026-10-20')).toEqual({ date: '2026-10-20', state: 'accepted', exact: '924.627', value: 924.627 });
    expect(acceptedValues(tga).map(([d]) => d)).toEqual(['2026-10-20', '2026-10-19', '2026-10-16', '2026-10-15', '2026-10-14', '2026-10-13']);
    expect(tga.newestDate).toBe('2026-10-20');
  });

  it('reads Fiscal Data\'s real metadata: data type CURRENCY with a display pattern that says nothing about the unit', () => {
    const meta = JSON.parse(new TextDecoder().decode(fixture('tga/valid.json'))).meta;
    expect(meta.dataTypes.open_today_bal).toBe('CURRENCY');
    expect(meta.dataFormats.open_today_bal).toBe('$10.20');
    expect(entryOn(seriesOf(parseTreasuryDtsDocument(fixture('tga/valid.json')), 'liquidity.tga'), '2026-10-20')).toMatchObject({ exact: '924.627' });
  });

  it('reads the same values whatever display pattern or decimal count the metadata names', () => {
    const legacy = seriesOf(parseTreasuryDtsDocument(fixture('tga/legacy-meta.json')), 'liquidity.tga');
    expect(JSON.parse(new TextDecoder().decode(fixture('tga/legacy-meta.json'))).meta.dataTypes.open_today_bal).toBe('CURRENCY0');
    expect(acceptedValues(legacy)).toEqual(acceptedValues(seriesOf(parseTreasuryDtsDocument(fixture('tga/valid.json')), 'liquidity.tga')));
  });

  it('refuses an amount field whose data type is not a currency', () => {
    const error = documentFailure(() => parseTreasuryDtsDocument(fixture('tga/data-type-string.json')), 'document_data_type_mismatch');
    expect(error.message).toContain('"STRING"');
    expect(error.location).toBe('/meta/dataTypes/open_today_bal');
    const noTypes = JSON.parse(new TextDecoder().decode(fixture('tga/valid.json')));
    delete noTypes.meta.dataTypes;
    documentFailure(() => parseTreasuryDtsDocument(JSON.stringify(noTypes)), 'document_data_type_mismatch');
  });

  it('rejects balances outside $1 billion to $10 trillion (amounts sent in dollars, thousands or billions), and accepts both bounds', () => {
    const tga = seriesOf(parseTreasuryDtsDocument(fixture('tga/amount-in-dollars.json')), 'liquidity.tga');
    expect(rejection(tga, '2026-10-20', 'document_implausible_amount').message).toContain('"924627000000"');
    expect(tga.newestDate).toBeNull();
    const doc = JSON.parse(new TextDecoder().decode(fixture('tga/valid.json')));
    doc.data[0].open_today_bal = '10000000';
    doc.data[1].open_today_bal = '10000001';
    doc.data[2].open_today_bal = '1000';
    doc.data[3].open_today_bal = '999'; // $0.999 trillion written in billions
    doc.data[4].open_today_bal = '57123000'; // $57.1 billion written in thousands
    const bounded = seriesOf(parseTreasuryDtsDocument(JSON.stringify(doc)), 'liquidity.tga');
    expect(entryOn(bounded, '2026-10-20')).toMatchObject({ state: 'accepted', exact: '10000' });
    rejection(bounded, '2026-10-19', 'document_implausible_amount');
    expect(entryOn(bounded, '2026-10-16')).toMatchObject({ state: 'accepted', exact: '1' });
    rejection(bounded, '2026-10-15', 'document_implausible_amount');
    rejection(bounded, '2026-10-14', 'document_implausible_amount');
  });

  it('rejects a balance with a fraction of a million (a unit of billions) or below zero, for its date', () => {
    const doc = JSON.parse(new TextDecoder().decode(fixture('tga/valid.json')));
    doc.data[0].open_today_bal = '924.627';
    doc.data[1].open_today_bal = '-5';
    doc.data[2].open_today_bal = '887312.000';
    const tga = seriesOf(parseTreasuryDtsDocument(JSON.stringify(doc)), 'liquidity.tga');
    const fraction = rejection(tga, '2026-10-20', 'document_not_whole_units');
    expect(fraction.message).toContain('"924.627"');
    expect(fraction.location).toBe('/data/0/open_today_bal');
    rejection(tga, '2026-10-19', 'document_negative_amount');
    // Trailing zeros after the point change nothing: still whole millions.
    expect(entryOn(tga, '2026-10-16')).toMatchObject({ state: 'accepted', exact: '887.312' });
    expect(tga.newestDate).toBe('2026-10-16');
  });

  it('rejects a row dated on a weekend or a federal holiday, when no statement is published', () => {
    const doc = JSON.parse(new TextDecoder().decode(fixture('tga/valid.json')));
    doc.data[0].record_date = '2026-10-18'; // a Sunday
    doc.data[1].record_date = '2026-10-12'; // Columbus Day
    const tga = seriesOf(parseTreasuryDtsDocument(JSON.stringify(doc)), 'liquidity.tga');
    expect(rejection(tga, '2026-10-18', 'document_not_business_day').message).toMatch(/2026-10-18, a Sunday/);
    expect(rejection(tga, '2026-10-12', 'document_not_business_day').location).toBe('/data/1/record_date');
  });

  it('refuses a result spread over more than one page', () => {
    documentFailure(() => parseTreasuryDtsDocument(fixture('tga/two-pages.json')), 'document_pagination');
  });

  it('refuses two TGA rows for one record date', () => {
    documentFailure(() => parseTreasuryDtsDocument(fixture('tga/duplicate-row.json')), 'document_duplicate_date');
  });

  it('reads only the TGA opening balance rows', () => {
    const tga = seriesOf(parseTreasuryDtsDocument(fixture('tga/other-accounts-ignored.json')), 'liquidity.tga');
    expect(acceptedValues(tga)).toEqual([['2026-10-20', 924.627], ['2026-10-19', 911.804]]);
  });

  it('rejects null, the text "null", thousands separators and a zero balance (the account is never empty) for their dates; trims whitespace', () => {
    const tga = seriesOf(parseTreasuryDtsDocument(fixture('tga/invalid-values.json')), 'liquidity.tga');
    expect(rejection(tga, '2026-10-20', 'document_not_a_number').message).toContain('null');
    expect(rejection(tga, '2026-10-19', 'document_not_a_number').message).toContain('"null"');
    rejection(tga, '2026-10-16', 'document_not_a_number');
    expect(entryOn(tga, '2026-10-15')).toMatchObject({ state: 'accepted', exact: '902.145' });
    rejection(tga, '2026-10-14', 'document_implausible_amount');
    expect(tga.newestDate).toBe('2026-10-15');
  });

  it('rejects an amount sent as a JSON number instead of text', () => {
    const tga = seriesOf(parseTreasuryDtsDocument(fixture('tga/amount-as-number.json')), 'liquidity.tga');
    rejection(tga, '2026-10-20', 'document_not_a_number');
  });

  it('refuses impossible record dates and documents without data and meta', () => {
    documentFailure(() => parseTreasuryDtsDocument(fixture('tga/impossible-date.json')), 'document_bad_date');
    documentFailure(() => parseTreasuryDtsDocument(fixture('tga/missing-meta.json')), 'document_unexpected_shape');
  });
});

describe('DTS request query', () => {
  it('filters by date and account, names the fields, sorts newest first and asks for 100 rows', () => {
    expect(treasuryDtsQueryParameters('2026-10-13')).toEqual([
      ['filter', 'record_date:gte:2026-10-13,account_type:eq:Treasury General Account (TGA) Opening Balance'],
      ['fields', 'record_date,account_type,open_today_bal'],
      ['sort', '-record_date'],
      ['page[size]', '100'],
    ]);
  });

  it('encodes the query so a server decodes exactly those parameters', () => {
    const query = treasuryDtsQuery('2026-10-13');
    expect(query).toBe(
      'filter=record_date:gte:2026-10-13,account_type:eq:Treasury%20General%20Account%20(TGA)%20Opening%20Balance'
      + '&fields=record_date,account_type,open_today_bal&sort=-record_date&page[size]=100',
    );
    expect([...new URLSearchParams(query)]).toEqual(treasuryDtsQueryParameters('2026-10-13'));
  });

  it('needs a real date', () => {
    expect(() => treasuryDtsQuery('2026-13-01')).toThrow(RangeError);
  });
});
