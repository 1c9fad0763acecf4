// Federal Reserve Board "Interest on Reserve Balances" page: the second IORB source, for
// when the Data Download Program (PRATES) is not available.
//
// The page states the IORB rate as a table of changes: each row an effective date and
// the rate that applies from that date until the next change. That is how the Board
// defines an administered rate, so the rate on day D is the row with the newest
// effective date on or before D. Days are produced from the first effective date up to
// the day the page was read (`asOf`): the page says nothing about later days, and a
// change it lists for a later day is not yet in effect. The lineage says the value was
// read this way.
//
// The table is found by its headers, not its position: a column headed like "Effective
// date" and a rate column headed "IORB" / "interest on reserve balances" (or headed
// "rate" in a table whose caption names IORB; columns about the retired IORR/IOER rates
// never qualify). Several qualifying tables (one per year, say) are read together. Every
// row must have a real date and no effective date may repeat: one unreadable date could
// be the change that applies today. A rate that is not a decimal percentage rejects only
// the days it governs.

import { formatIsoDate, parseIsoDate } from '../../core/time.js';
import { type Decimal, parseDecimalText } from '../decimal.js';
import { PublisherDocumentError } from '../errors.js';
import { acceptedObservation, buildSeries, describeValue, fail, rejectedObservation, requireSize } from './body.js';
import { type HtmlTable, columnCount, columnHeaders, readHtmlTables, rowCells } from './html-tables.js';
import type { DatedObservation, IsoDate, ParseContext, PublisherBody, PublisherDocument } from './types.js';

const DOCUMENT = 'iorb';
const MONTH_NAMES = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const IORB_HEADING = /\bIORB\b|interest (?:rate )?on reserve balances/i;
const RETIRED_RATES = /\bIOER\b|\bIORR\b|excess|required/i;
const EFFECTIVE_HEADING = /\beffective\b/i;
const RATE_HEADING = /\brate\b/i;
/** Rates above this many percent would be basis points or a misread cell, never an IORB rate. */
const MAX_RATE_PERCENT = 20n;

interface RateChange {
  readonly effective: IsoDate;
  readonly rate: Decimal | null;
  readonly text: string;
  readonly where: string;
}

function findColumn(table: HtmlTable, test: (headerText: string) => boolean): number[] {
  const out: number[] = [];
  for (let c = 0; c < columnCount(table); c++) {
    const text = columnHeaders(table, c).map((h) => h.text).join(' ');
    if (text !== '' && test(text)) out.push(c);
  }
  return out;
}

/** The (date column, rate column) of a table that lists IORB rate changes, or null. */
function rateTableColumns(table: HtmlTable): { date: number; rate: number } | null {
  const dates = findColumn(table, (t) => EFFECTIVE_HEADING.test(t));
  let rates = findColumn(table, (t) => IORB_HEADING.test(t) && !EFFECTIVE_HEADING.test(t));
  if (rates.length === 0 && IORB_HEADING.test(table.caption)) {
    rates = findColumn(table, (t) => RATE_HEADING.test(t) && !RETIRED_RATES.test(t) && !EFFECTIVE_HEADING.test(t));
  }
  if (dates.length !== 1 || rates.length !== 1 || dates[0] === rates[0]) return null;
  return { date: dates[0], rate: rates[0] };
}

/** "December 11, 2025", "Dec. 11, 2025", "Sept. 18, 2024", "2025-12-11" or "12/11/2025". */
export function parseEffectiveDate(text: string): IsoDate | null {
  let year: string;
  let month: number;
  let day: string;
  const worded = /^([A-Za-z]{3,9})\.? ([0-9]{1,2}), ([0-9]{4})$/.exec(text);
  const slashed = /^([0-9]{1,2})\/([0-9]{1,2})\/([0-9]{4})$/.exec(text);
  if (worded) {
    const token = worded[1].toLowerCase();
    month = token === 'sept' ? 9 : token.length === 3 ? MONTH_NAMES.findIndex((m) => m.startsWith(token)) + 1 : MONTH_NAMES.indexOf(token) + 1;
    [day, year] = [worded[2], worded[3]];
  } else if (slashed) {
    month = Number(slashed[1]);
    [day, year] = [slashed[2], slashed[3]];
  } else {
    return parseIsoDate(text) === null ? null : text;
  }
  if (month < 1 || month > 12) return null;
  const date = `${year}-${String(month).padStart(2, '0')}-${day.padStart(2, '0')}`;
  return parseIsoDate(date) === null ? null : date;
}

/** "3.65", "3.65%" or "3.65 percent" → 3.65; anything else → null. */
function parseRate(text: string): Decimal | null {
  const m = /^(.*?)\s*(?:%|percent)?$/i.exec(text);
  const value = m ? parseDecimalText(m[1]) : null;
  if (value === null) return null;
  const units = value.units < 0n ? -value.units : value.units;
  return units > MAX_RATE_PERCENT * 10n ** BigInt(value.scale) ? null : value;
}

function readChanges(html: string): RateChange[] {
  const page = readHtmlTables(html);
  const changes: RateChange[] = [];
  let qualifying = 0;
  for (const table of page.tables) {
    const columns = rateTableColumns(table);
    if (columns === null) continue;
    qualifying += 1;
    for (let r = table.headRows; r < table.grid.length; r++) {
      const dateCell = table.grid[r][columns.date];
      const rateCell = table.grid[r][columns.rate];
      const cells = rowCells(table, r);
      if (cells.every((c) => c.text === '')) continue;
      const where = `table ${table.index + 1}, row ${r + 1}`;
      const dateText = dateCell?.text ?? '';
      const effective = parseEffectiveDate(dateText);
      if (effective === null) {
        fail(DOCUMENT, 'document_bad_date', `the effective date ${describeValue(dateText)} is not a date such as "December 11, 2025"`, where);
      }
      const text = rateCell?.text ?? '';
      changes.push({ effective, rate: parseRate(text), text, where });
    }
  }
  if (qualifying === 0) {
    const seen = page.tables.slice(0, 4).map((t) => columnHeadersText(t)).filter((h) => h !== '');
    fail(DOCUMENT, 'document_table_missing',
      `no table has an "Effective date" column and an IORB rate column (${page.tables.length} tables${seen.length > 0 ? `; headers: ${seen.join(' | ')}` : ''})`);
  }
  if (changes.length === 0) fail(DOCUMENT, 'document_table_missing', 'the IORB rate table has no rows');
  return changes;
}

function columnHeadersText(table: HtmlTable): string {
  const texts = new Set<string>();
  for (let c = 0; c < columnCount(table); c++) for (const h of columnHeaders(table, c)) texts.add(h.text);
  const joined = [...texts].join(' / ');
  return joined.length > 80 ? `${joined.slice(0, 80)}…` : joined;
}

/** The IORB page (bytes or text), read as of `context.asOf` → policy.iorb, one entry per day. */
export function parseIorbPage(body: PublisherBody, context?: ParseContext): PublisherDocument {
  if (context === undefined || parseIsoDate(context.asOf) === null) {
    throw new RangeError('the IORB page is read as of a date: pass { asOf: "YYYY-MM-DD" }');
  }
  requireSize(DOCUMENT, body);
  const html = typeof body === 'string' ? body : new TextDecoder('utf-8').decode(body);
  const changes = readChanges(html).sort((a, b) => (a.effective < b.effective ? -1 : a.effective > b.effective ? 1 : 0));
  for (let i = 1; i < changes.length; i++) {
    if (changes[i].effective === changes[i - 1].effective) {
      fail(DOCUMENT, 'document_duplicate_date', `two rows take effect on ${changes[i].effective}`, changes[i].where);
    }
  }

  const entries: DatedObservation[] = [];
  const last = parseIsoDate(context.asOf)!;
  changes.forEach((change, i) => {
    const from = parseIsoDate(change.effective)!;
    const until = i + 1 < changes.length ? Math.min(parseIsoDate(changes[i + 1].effective)! - 1, last) : last;
    for (let day = from; day <= until; day++) {
      const date = formatIsoDate(day);
      entries.push(change.rate === null
        ? rejectedObservation(date, new PublisherDocumentError(DOCUMENT, 'document_not_a_number',
          `the rate in effect since ${change.effective} reads ${describeValue(change.text)}, not a percentage between -20 and 20`, { location: change.where }))
        : acceptedObservation(date, change.rate));
    }
  });
  return Object.freeze({ document: DOCUMENT, series: Object.freeze([buildSeries(DOCUMENT, 'policy.iorb', entries)]) });
}
