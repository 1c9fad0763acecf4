// NY Fed Markets API reference-rate documents (SOFR and EFFR, `…/last/10.json`).
//
// Values arrive as JSON numbers, so their exact decimal is the double's shortest text
// (3.9 → "3.9"). Percentiles the NY Fed cannot compute are sent as the text "NA"; that,
// like null, booleans or any other text, rejects the value for that date — it is never
// read as zero and never skipped in favour of an older day.
//
// Without the upstream's reference desk to cross-check against (docs/funding.md), what no
// real print can be is refused for its date too: a date the NY Fed publishes no rate for
// (calendar.ts), a rate outside -5 to 20 percent, a SOFR volume that is no whole number of
// billions within its bounds (amounts.ts), a 99th percentile below the rate (the
// volume-weighted median of the same trades).

import { compareDecimals, decimalFromJsonValue, type Decimal } from '../decimal.js';
import { PublisherDocumentError, type PublisherDocumentFailure } from '../errors.js';
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
import { amountProblem, rateProblem, SOFR_VOLUME_RULE } from './amounts.js';
import { nonBusinessDay, type PublisherCalendar } from './calendar.js';
import type { DatedObservation, IsoDate, MetricId, PublisherBody, PublisherDocument } from './types.js';

interface RateField {
  readonly metric: MetricId;
  readonly field: string;
}

const SOFR_FIELDS: readonly RateField[] = [
  { metric: 'policy.sofr', field: 'percentRate' },
  { metric: 'distribution.sofr.p99', field: 'percentPercentile99' },
  { metric: 'distribution.sofr.volume', field: 'volumeInBillions' },
];

const EFFR_FIELDS: readonly RateField[] = [{ metric: 'policy.effr', field: 'percentRate' }];

/** Why a parsed value cannot be what the field claims, or undefined (amounts.ts). */
function implausible(field: string, value: Decimal, row: Record<string, unknown>): { reason: PublisherDocumentFailure; why: string } | undefined {
  if (field === 'volumeInBillions') return amountProblem(value, SOFR_VOLUME_RULE);
  const rate = rateProblem(value);
  if (rate !== undefined) return { reason: 'document_implausible_rate', why: rate };
  if (field === 'percentPercentile99') {
    const median = decimalFromJsonValue(row.percentRate);
    if (median !== null && compareDecimals(value, median) < 0) return { reason: 'document_percentile_below_rate', why: `below the day's rate ${describeValue(row.percentRate)}` };
  }
  return undefined;
}

function parseRefRates(
  document: 'sofr' | 'effr',
  type: 'SOFR' | 'EFFR',
  fields: readonly RateField[],
  calendar: PublisherCalendar,
  body: PublisherBody,
): PublisherDocument {
  const root = readJsonDocument(document, body);
  if (!isPlainObject(root) || !Array.isArray(root.refRates)) {
    fail(document, 'document_unexpected_shape', 'expected an object with a "refRates" array', '/refRates');
  }
  const rows: unknown[] = root.refRates;
  const entries = new Map<MetricId, DatedObservation[]>(fields.map((f) => [f.metric, []]));
  const seen = new Set<IsoDate>();

  rows.forEach((row, index) => {
    if (!isPlainObject(row)) fail(document, 'document_unexpected_shape', `rate row ${index} is not an object`, pointer('refRates', index));
    if (typeof row.type !== 'string') {
      fail(document, 'document_unexpected_shape', `rate row ${index} has no text "type"`, pointer('refRates', index, 'type'));
    }
    if (row.type !== type) return;
    const date = checkedDate(row.effectiveDate);
    if (date === null) {
      fail(document, 'document_bad_date', `${type} row ${index} has effectiveDate ${describeValue(row.effectiveDate)}, not a real YYYY-MM-DD date`,
        pointer('refRates', index, 'effectiveDate'));
    }
    if (seen.has(date)) fail(document, 'document_duplicate_date', `${type} is listed twice for ${date}`, pointer('refRates', index, 'effectiveDate'));
    seen.add(date);
    const closed = nonBusinessDay(date, calendar);

    for (const { metric, field } of fields) {
      const raw = row[field];
      const value = decimalFromJsonValue(raw);
      const list = entries.get(metric)!;
      const location = pointer('refRates', index, field);
      if (closed !== undefined) {
        list.push(rejectedObservation(date, new PublisherDocumentError(document, 'document_not_business_day',
          `${type} is dated ${date}, ${closed}, when the NY Fed publishes no ${type}`, { location: pointer('refRates', index, 'effectiveDate') })));
        continue;
      }
      if (value === null) {
        list.push(rejectedObservation(date, new PublisherDocumentError(document, 'document_not_a_number',
          `${type} ${field} for ${date} is ${describeValue(raw)}, not a finite number`, { location })));
        continue;
      }
      const wrong = implausible(field, value, row);
      if (wrong !== undefined) {
        list.push(rejectedObservation(date, new PublisherDocumentError(document, wrong.reason,
          `${type} ${field} for ${date} is ${describeValue(raw)}, ${wrong.why}`, { location })));
      } else {
        list.push(acceptedObservation(date, value));
      }
    }
  });

  return Object.freeze({
    document,
    series: Object.freeze(fields.map(({ metric }) => buildSeries(document, metric, entries.get(metric)!))),
  });
}

/** SOFR document → policy.sofr (percentRate), distribution.sofr.p99, distribution.sofr.volume ($B as published). */
export function parseSofrDocument(body: PublisherBody): PublisherDocument {
  return parseRefRates('sofr', 'SOFR', SOFR_FIELDS, 'sofr', body);
}

/** EFFR document → policy.effr (percentRate). */
export function parseEffrDocument(body: PublisherBody): PublisherDocument {
  return parseRefRates('effr', 'EFFR', EFFR_FIELDS, 'nyfed', body);
}
