// Federal Reserve Board H.4.1 release page: reserve balances, weekly average.
//
// The page is read by table-cell ids. Ids are positional, so the row label and the
// column header are checked too: if the Board ever reorders table 2, the label or header
// will not match and the capture fails instead of publishing some other row's number.
// The body is decoded as UTF-8 without failing on stray bytes elsewhere on the page; the
// three cells we use are compared exactly, so a damaged byte in them still fails.

import { Parser } from 'htmlparser2';

import { parseIsoDate, weekdayOfDays } from '../../core/time.js';
import { divideByPowerOfTen, parseDecimalText } from '../decimal.js';
import { PublisherDocumentError } from '../errors.js';
import { acceptedObservation, buildSeries, describeValue, fail, rejectedObservation, requireSize } from './body.js';
import type { IsoDate, PublisherBody, PublisherDocument } from './types.js';

export const H41_LABEL_CELL = 't2r16c1';
export const H41_HEADER_CELL = 't2h2c1';
export const H41_VALUE_CELL = 't2r16c2';
export const H41_RESERVES_LABEL = 'Reserve balances with Federal Reserve Banks';

const DOCUMENT = 'reserves';
const WANTED = new Set([H41_LABEL_CELL, H41_HEADER_CELL, H41_VALUE_CELL]);
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const HEADER = /^Week ended ([A-Z][a-z]{2}) ([0-9]{1,2}), ([0-9]{4})$/;
const WEDNESDAY = 3;

export interface H41Document extends PublisherDocument {
  readonly document: 'reserves';
  /** The week-ended Wednesday from the table 2 header: the observation date. */
  readonly weekEnded: IsoDate;
}

/** Collapses every whitespace run (including no-break spaces) to one space and trims. */
function normalise(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Text of the three cells we read, by id; any id used twice on the page is refused. */
function readCells(html: string): Map<string, string> {
  const texts = new Map<string, string>();
  const seen = new Set<string>();
  const duplicates: string[] = [];
  const stack: { name: string; id: string | undefined }[] = [];
  // Tag boundaries inside a cell separate words (`Week ended<br>Sep 23, 2026`).
  const appendToOpenCells = (text: string) => {
    for (const element of stack) {
      if (element.id !== undefined && WANTED.has(element.id)) texts.set(element.id, (texts.get(element.id) ?? '') + text);
    }
  };
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        appendToOpenCells(' ');
        const id = attribs.id;
        if (id !== undefined) {
          if (seen.has(id)) duplicates.push(id);
          seen.add(id);
        }
        stack.push({ name, id });
        if (id !== undefined && WANTED.has(id)) texts.set(id, '');
      },
      ontext(text) {
        appendToOpenCells(text);
      },
      onclosetag(name) {
        while (stack.length > 0 && stack.pop()!.name !== name) {
          // htmlparser2 reports closes balanced; this only guards against a surprise.
        }
        appendToOpenCells(' ');
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
  if (duplicates.length > 0) {
    fail(DOCUMENT, 'duplicate_cell_id', `the element id ${JSON.stringify(duplicates[0])} is used more than once`, `#${duplicates[0]}`);
  }
  return new Map([...texts].map(([id, text]) => [id, normalise(text)]));
}

function cell(cells: Map<string, string>, id: string): string {
  const text = cells.get(id);
  if (text === undefined) fail(DOCUMENT, 'missing_cell', `the table cell ${id} is missing`, `#${id}`);
  return text;
}

function weekEndedDate(header: string): IsoDate {
  const m = HEADER.exec(header);
  if (!m) {
    fail(DOCUMENT, 'header_mismatch', `cell ${H41_HEADER_CELL} reads ${describeValue(header)}, not "Week ended" followed by a date like "Sep 23, 2026"`,
      `#${H41_HEADER_CELL}`);
  }
  const month = MONTHS.indexOf(m[1]) + 1;
  const date = `${m[3]}-${String(month).padStart(2, '0')}-${m[2].padStart(2, '0')}`;
  const days = month === 0 ? null : parseIsoDate(date);
  if (days === null) {
    fail(DOCUMENT, 'bad_date', `cell ${H41_HEADER_CELL} names ${JSON.stringify(`${m[1]} ${m[2]}, ${m[3]}`)}, which is not a calendar date`,
      `#${H41_HEADER_CELL}`);
  }
  if (weekdayOfDays(days) !== WEDNESDAY) {
    fail(DOCUMENT, 'not_wednesday', `the week in cell ${H41_HEADER_CELL} ends on ${date}, which is not a Wednesday`, `#${H41_HEADER_CELL}`);
  }
  return date;
}

/** H.4.1 page → liquidity.reserves: weekly average (millions, thousands separators) ÷ 1000, dated the week-ended Wednesday. */
export function parseH41Page(body: PublisherBody): H41Document {
  requireSize(DOCUMENT, body);
  const html = typeof body === 'string' ? body : new TextDecoder('utf-8').decode(body);
  const cells = readCells(html);

  const label = cell(cells, H41_LABEL_CELL);
  if (label !== H41_RESERVES_LABEL) {
    fail(DOCUMENT, 'label_mismatch', `row label cell ${H41_LABEL_CELL} reads ${describeValue(label)}, not ${JSON.stringify(H41_RESERVES_LABEL)}`,
      `#${H41_LABEL_CELL}`);
  }
  const weekEnded = weekEndedDate(cell(cells, H41_HEADER_CELL));
  const text = cell(cells, H41_VALUE_CELL);
  const millions = parseDecimalText(text, { thousandsSeparators: true });
  const observation = millions === null
    ? rejectedObservation(weekEnded, new PublisherDocumentError(DOCUMENT, 'not_a_number',
      `weekly average cell ${H41_VALUE_CELL} reads ${describeValue(text)}, not a number of millions`, { location: `#${H41_VALUE_CELL}` }))
    : acceptedObservation(weekEnded, divideByPowerOfTen(millions, 3));

  return Object.freeze({
    document: DOCUMENT,
    weekEnded,
    series: Object.freeze([buildSeries(DOCUMENT, 'liquidity.reserves', [observation])]),
  });
}
