// US Treasury Fiscal Data, Daily Treasury Statement "operating cash balance" table:
// the Treasury General Account opening balance of each day.
//
// Fiscal Data sends amounts as text in the unit named by `meta.dataFormats`; we insist
// on millions (`$1,000,000`) so that a unit change cannot silently scale the value, and
// on a single page so that no matching row can be sitting on a page we did not fetch.

import { divideByPowerOfTen, parseDecimalText } from '../decimal.js';
import { PublisherDocumentError } from '../errors.js';
import {
  acceptedObservation,
  buildSeries,
  checkedDate,
  describeValue,
  fail,
  isPlainObject,
  pointer,
  readJsonDocument,
  rejectedObservation,
} from './body.js';
import type { DatedObservation, IsoDate, PublisherBody, PublisherDocument } from './types.js';

export const TGA_ACCOUNT_TYPE = 'Treasury General Account (TGA) Opening Balance';
export const DTS_MILLIONS_FORMAT = '$1,000,000';
export const DTS_PAGE_SIZE = 100;

const DOCUMENT = 'tga';

/**
 * Query parameters, in order, for the TGA rows dated on or after `since`:
 * filter, fields, sort (newest first) and page size.
 */
export function treasuryDtsQueryParameters(since: IsoDate): ReadonlyArray<readonly [string, string]> {
  if (checkedDate(since) === null) throw new RangeError(`since must be a YYYY-MM-DD date, got ${JSON.stringify(since)}`);
  return [
    ['filter', `record_date:gte:${since},account_type:eq:${TGA_ACCOUNT_TYPE}`],
    ['fields', 'record_date,account_type,open_today_bal'],
    ['sort', '-record_date'],
    ['page[size]', String(DTS_PAGE_SIZE)],
  ];
}

// Percent-encode what must be, but leave the filter's `:` and `,` readable (both are
// legal in a query component), and encode spaces as %20 rather than `+`.
function encodeQueryPart(text: string): string {
  return encodeURIComponent(text).replace(/%3A/g, ':').replace(/%2C/g, ',').replace(/%5B/g, '[').replace(/%5D/g, ']');
}

/** The query string (without `?`) for `treasuryDtsQueryParameters(since)`. */
export function treasuryDtsQuery(since: IsoDate): string {
  return treasuryDtsQueryParameters(since).map(([k, v]) => `${encodeQueryPart(k)}=${encodeQueryPart(v)}`).join('&');
}

/** DTS operating cash balance → liquidity.tga: opening balance (millions, text) ÷ 1000, by record_date. */
export function parseTreasuryDtsDocument(body: PublisherBody): PublisherDocument {
  const root = readJsonDocument(DOCUMENT, body);
  if (!isPlainObject(root) || !Array.isArray(root.data) || !isPlainObject(root.meta)) {
    fail(DOCUMENT, 'unexpected_shape', 'expected an object with a "data" array and a "meta" object');
  }
  const meta = root.meta;
  const formats = meta.dataFormats;
  const unit = isPlainObject(formats) ? formats.open_today_bal : undefined;
  if (unit !== DTS_MILLIONS_FORMAT) {
    fail(DOCUMENT, 'unit_mismatch', `open_today_bal is declared in ${describeValue(unit)}, not ${JSON.stringify(DTS_MILLIONS_FORMAT)}`,
      '/meta/dataFormats/open_today_bal');
  }
  if (meta['total-pages'] !== 1) {
    fail(DOCUMENT, 'pagination', `the result spans ${describeValue(meta['total-pages'])} pages; exactly 1 is required`, '/meta/total-pages');
  }

  const rows: unknown[] = root.data;
  const seen = new Set<IsoDate>();
  const entries: DatedObservation[] = [];
  rows.forEach((row, index) => {
    if (!isPlainObject(row)) fail(DOCUMENT, 'unexpected_shape', `data row ${index} is not an object`, pointer('data', index));
    if (typeof row.account_type !== 'string') {
      fail(DOCUMENT, 'unexpected_shape', `data row ${index} has account_type ${describeValue(row.account_type)}, not a text`, pointer('data', index, 'account_type'));
    }
    if (row.account_type !== TGA_ACCOUNT_TYPE) return;
    const date = checkedDate(row.record_date);
    if (date === null) {
      fail(DOCUMENT, 'bad_date', `TGA row ${index} has record_date ${describeValue(row.record_date)}, not a real YYYY-MM-DD date`,
        pointer('data', index, 'record_date'));
    }
    if (seen.has(date)) fail(DOCUMENT, 'duplicate_date', `two TGA opening balance rows for ${date}`, pointer('data', index, 'record_date'));
    seen.add(date);
    const raw = row.open_today_bal;
    const millions = typeof raw === 'string' ? parseDecimalText(raw) : null;
    entries.push(millions === null
      ? rejectedObservation(date, new PublisherDocumentError(DOCUMENT, 'not_a_number',
        `open_today_bal for ${date} is ${describeValue(raw)}, not a decimal amount in text`, { location: pointer('data', index, 'open_today_bal') }))
      : acceptedObservation(date, divideByPowerOfTen(millions, 3)));
  });
  return Object.freeze({ document: DOCUMENT, series: Object.freeze([buildSeries(DOCUMENT, 'liquidity.tga', entries)]) });
}
