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

  it('refuses amounts declared in any unit other than millions', () => {
    const error = documentFailure(() => parseTreasuryDtsDocument(fixture('tga/unit-dollars.json')), 'unit_mismatch');
    expect(error.message).toContain('"$1"');
  });

  it('refuses a result spread over more than one page', () => {
    documentFailure(() => parseTreasuryDtsDocument(fixture('tga/two-pages.json')), 'pagination');
  });

  it('refuses two TGA rows for one record date', () => {
    documentFailure(() => parseTreasuryDtsDocument(fixture('tga/duplicate-row.json')), 'duplicate_date');
  });

  it('reads only the TGA opening balance rows', () => {
    const tga = seriesOf(parseTreasuryDtsDocument(fixture('tga/other-accounts-ignored.json')), 'liquidity.tga');
    expect(acceptedValues(tga)).toEqual([['2026-10-20', 924.627], ['2026-10-19', 911.804]]);
  });

  it('rejects null, the text "null" and thousands separators for their dates; trims whitespace; keeps zero', () => {
    const tga = seriesOf(parseTreasuryDtsDocument(fixture('tga/invalid-values.json')), 'liquidity.tga');
    expect(rejection(tga, '2026-10-20', 'not_a_number').message).toContain('null');
    expect(rejection(tga, '2026-10-19', 'not_a_number').message).toContain('"null"');
    rejection(tga, '2026-10-16', 'not_a_number');
    expect(entryOn(tga, '2026-10-15')).toMatchObject({ state: 'accepted', exact: '902.145' });
    expect(entryOn(tga, '2026-10-14')).toMatchObject({ state: 'accepted', exact: '0', value: 0 });
    expect(tga.newestDate).toBe('2026-10-15');
  });

  it('rejects an amount sent as a JSON number instead of text', () => {
    const tga = seriesOf(parseTreasuryDtsDocument(fixture('tga/amount-as-number.json')), 'liquidity.tga');
    rejection(tga, '2026-10-20', 'not_a_number');
  });

  it('refuses impossible record dates and documents without data and meta', () => {
    documentFailure(() => parseTreasuryDtsDocument(fixture('tga/impossible-date.json')), 'bad_date');
    documentFailure(() => parseTreasuryDtsDocument(fixture('tga/missing-meta.json')), 'unexpected_shape');
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
