// US Treasury Fiscal Data, Daily Treasury Statement "operating cash balance" table:
// the Treasury General Account opening balance of each day.
//
// Fiscal Data sends amounts as decimal text. Their unit is not in the response: the
// dataset's field dictionary defines `open_today_bal` as millions of dollars, and
// `meta.dataFormats` only holds a display pattern (such as "$10.20") that says nothing
// about scale. So the unit is the documented one, and what the response can confirm is
// checked instead: the field's data type is `CURRENCY`, and every balance is what a
// balance in millions can be (amounts.ts): whole millions, not negative, and not so large
// that it could only be in a smaller unit (a switch to dollars or thousands would multiply
// every balance by 10^6 or 10^3; one to billions would bring a fraction). A row dated on a
// day no statement is published (calendar.ts) is rejected. A single page is required so
// that no matching row can be sitting on a page we did not fetch.

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
import { amountProblem, TGA_RULE } from './amounts.js';
import { nonBusinessDay } from './calendar.js';
import type { DatedObservation, IsoDate, PublisherBody, PublisherDocument } from './types.js';

export const TGA_ACCOUNT_TYPE = 'Treasury General Account (TGA) Opening Balance';
/**
 * Fiscal Data's data type for amounts; the field dictionary gives their unit (millions).
 * Fiscal Data also writes it with a digit (`CURRENCY0`, `CURRENCY3`): the number of
 * decimals it displays, which changes neither the meaning nor the unit.
 */
export const DTS_AMOUNT_DATA_TYPE = 'CURRENCY';
const CURRENCY_TYPE = /^CURRENCY[0-9]?$/;
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

/** |value| > limit, exactly (value is units × 10^-scale). */
/** DTS operating cash balance → liquidity.tga: opening balance (millions, text) ÷ 1000, by record_date. */
export function parseTreasuryDtsDocument(body: PublisherBody): PublisherDocument {
  const root = readJsonDocument(DOCUMENT, body);
  if (!isPlainObject(root) || !Array.isArray(root.data) || !isPlainObject(root.meta)) {
    fail(DOCUMENT, 'document_unexpected_shape', 'expected an object with a "data" array and a "meta" object');
  }
  const meta = root.meta;
  const types = meta.dataTypes;
  const dataType = isPlainObject(types) ? types.open_today_bal : undefined;
  if (typeof dataType !== 'string' || !CURRENCY_TYPE.test(dataType)) {
    fail(DOCUMENT, 'document_data_type_mismatch', `open_today_bal has the data type ${describeValue(dataType)}, not ${JSON.stringify(DTS_AMOUNT_DATA_TYPE)}`,
      '/meta/dataTypes/open_today_bal');
  }
  if (meta['total-pages'] !== 1) {
    fail(DOCUMENT, 'document_pagination', `the result spans ${describeValue(meta['total-pages'])} pages; exactly 1 is required`, '/meta/total-pages');
  }

  const rows: unknown[] = root.data;
  const seen = new Set<IsoDate>();
  const entries: DatedObservation[] = [];
  rows.forEach((row, index) => {
    if (!isPlainObject(row)) fail(DOCUMENT, 'document_unexpected_shape', `data row ${index} is not an object`, pointer('data', index));
    if (typeof row.account_type !== 'string') {
      fail(DOCUMENT, 'document_unexpected_shape', `data row ${index} has account_type ${describeValue(row.account_type)}, not a text`, pointer('data', index, 'account_type'));
    }
    if (row.account_type !== TGA_ACCOUNT_TYPE) return;
    const date = checkedDate(row.record_date);
    if (date === null) {
      fail(DOCUMENT, 'document_bad_date', `TGA row ${index} has record_date ${describeValue(row.record_date)}, not a real YYYY-MM-DD date`,
        pointer('data', index, 'record_date'));
    }
    if (seen.has(date)) fail(DOCUMENT, 'document_duplicate_date', `two TGA opening balance rows for ${date}`, pointer('data', index, 'record_date'));
    seen.add(date);
    const raw = row.open_today_bal;
    const location = pointer('data', index, 'open_today_bal');
    const closed = nonBusinessDay(date, 'federal');
    if (closed !== undefined) {
      entries.push(rejectedObservation(date, new PublisherDocumentError(DOCUMENT, 'document_not_business_day',
        `a TGA opening balance is dated ${date}, ${closed}, when no Daily Treasury Statement is published`, { location: pointer('data', index, 'record_date') })));
      return;
    }
    const millions = typeof raw === 'string' ? parseDecimalText(raw) : null;
    if (millions === null) {
      entries.push(rejectedObservation(date, new PublisherDocumentError(DOCUMENT, 'document_not_a_number',
        `open_today_bal for ${date} is ${describeValue(raw)}, not a decimal amount in text`, { location })));
      return;
    }
    const problem = amountProblem(millions, TGA_RULE);
    if (problem !== undefined) {
      entries.push(rejectedObservation(date, new PublisherDocumentError(DOCUMENT, problem.reason,
        `open_today_bal for ${date} is ${describeValue(raw)}, ${problem.why}`, { location })));
    } else {
      entries.push(acceptedObservation(date, divideByPowerOfTen(millions, 3)));
    }
  });
  return Object.freeze({ document: DOCUMENT, series: Object.freeze([buildSeries(DOCUMENT, 'liquidity.tga', entries)]) });
}
