// Federal Reserve Board H.4.1 release page: reserve balances, weekly average.
//
// The value is found the way a reader finds it: in the table that has a row labelled
// "Reserve balances with Federal Reserve Banks" and a column headed "Week ended <date>"
// (not "Change from week ended …"), at their crossing. Cell ids on the page are
// positional (`t2r16c2`), so a row added above ours renumbers them; the label and the
// header do not move. Exactly one table may qualify, with exactly one such row and one
// such column — anything else is refused rather than guessed. Element ids are checked for
// uniqueness only on the cells actually read: the site's header and footer may repeat
// ids of their own, which says nothing about the table.
// The body is decoded as UTF-8 without failing on stray bytes elsewhere on the page; the
// cells we use are compared exactly, so a damaged byte in them still fails.

import { parseIsoDate, weekdayOfDays } from '../../core/time.js';
import { divideByPowerOfTen, parseDecimalText } from '../decimal.js';
import { PublisherDocumentError } from '../errors.js';
import { amountProblem, RESERVES_RULE } from './amounts.js';
import { acceptedObservation, buildSeries, describeValue, fail, rejectedObservation, requireSize } from './body.js';
import { type HtmlPage, type HtmlTable, type TableCell, columnCount, columnHeaders, readHtmlTables, rowCells } from './html-tables.js';
import type { IsoDate, PublisherBody, PublisherDocument } from './types.js';

export const H41_RESERVES_LABEL = 'Reserve balances with Federal Reserve Banks';

const DOCUMENT = 'reserves';
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH_NAMES = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
/** "Week ended Sep 23, 2026" at the end of a header cell (a group heading may precede it). */
const WEEK_ENDED = /(?:^|\s)Week ended ([A-Za-z]{3,9}\.?) ([0-9]{1,2}), ([0-9]{4})$/;
const CHANGE = /\bchange\b/i;
const WEDNESDAY = 3;

export interface H41Document extends PublisherDocument {
  readonly document: 'reserves';
  /** The week-ended Wednesday from the column header: the observation date. */
  readonly weekEnded: IsoDate;
}

interface Located {
  readonly table: HtmlTable;
  readonly labelCell: TableCell;
  readonly row: number;
  readonly header: TableCell;
  readonly column: number;
}

/** Cell text for a message: quoted, cut at 40 characters. */
function quoted(text: string): string {
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
}

function cellName(cell: TableCell): string {
  return cell.id === undefined ? `table row ${cell.row + 1}, column ${cell.column + 1}` : `#${cell.id}`;
}

/** Body rows of a table whose label (first non-empty cell) is the reserves label. */
function labelRows(table: HtmlTable): { row: number; cell: TableCell }[] {
  const wanted = H41_RESERVES_LABEL.toLowerCase();
  const out: { row: number; cell: TableCell }[] = [];
  for (let r = table.headRows; r < table.grid.length; r++) {
    const label = rowCells(table, r).find((c) => c.text !== '');
    // A cell spanning several rows labels only the row it starts in.
    if (label !== undefined && label.row === r && label.text.toLowerCase() === wanted) out.push({ row: r, cell: label });
  }
  return out;
}

/** Columns headed "Week ended <date>" with no "Change from …" heading over them. */
function weekColumns(table: HtmlTable): { column: number; header: TableCell }[] {
  const out: { column: number; header: TableCell }[] = [];
  for (let c = 0; c < columnCount(table); c++) {
    const headers = columnHeaders(table, c);
    if (headers.some((h) => CHANGE.test(h.text))) continue;
    const matching = headers.filter((h) => WEEK_ENDED.test(h.text));
    if (matching.length > 0) out.push({ column: c, header: matching[matching.length - 1] });
  }
  return out;
}

function locate(page: HtmlPage): Located {
  const withLabel = page.tables.filter((t) => labelRows(t).length > 0);
  if (withLabel.length === 0) {
    fail(DOCUMENT, 'document_row_missing', `none of the page's ${page.tables.length} tables has a row labelled ${JSON.stringify(H41_RESERVES_LABEL)}`);
  }
  const candidates: Located[] = [];
  const problems: string[] = [];
  let ambiguous = false;
  for (const table of withLabel) {
    const rows = labelRows(table);
    const columns = weekColumns(table);
    if (rows.length > 1) {
      ambiguous = true;
      problems.push(`table ${table.index + 1} has ${rows.length} rows labelled ${JSON.stringify(H41_RESERVES_LABEL)}`);
      continue;
    }
    if (columns.length !== 1) {
      if (columns.length > 1) ambiguous = true;
      const headers = table.grid.slice(0, table.headRows).flat().filter((c): c is TableCell => c !== undefined).map((c) => c.text);
      problems.push(`table ${table.index + 1} has ${columns.length} columns headed "Week ended <date>" (headers: ${[...new Set(headers)].map(quoted).join(', ') || 'none'})`);
      continue;
    }
    candidates.push({ table, labelCell: rows[0].cell, row: rows[0].row, header: columns[0].header, column: columns[0].column });
  }
  if (candidates.length > 1) {
    fail(DOCUMENT, 'document_table_ambiguous',
      `${candidates.length} tables (${candidates.map((c) => c.table.index + 1).join(', ')}) have both the reserve balances row and a "Week ended" column`);
  }
  if (candidates.length === 0) {
    fail(DOCUMENT, ambiguous ? 'document_table_ambiguous' : 'document_header_mismatch', problems.join('; '));
  }
  return candidates[0];
}

function requireUniqueIds(page: HtmlPage, cells: readonly TableCell[]): void {
  for (const cell of cells) {
    if (cell.id !== undefined && (page.idCounts.get(cell.id) ?? 0) > 1) {
      fail(DOCUMENT, 'document_duplicate_id', `the element id ${JSON.stringify(cell.id)} of a cell that is read is used ${page.idCounts.get(cell.id)} times on the page`,
        `#${cell.id}`);
    }
  }
}

function monthNumber(token: string): number {
  const t = token.toLowerCase().replace(/\.$/, '');
  if (t.length === 3) return MONTHS.indexOf(t) + 1;
  if (t === 'sept') return 9;
  return MONTH_NAMES.indexOf(t) + 1;
}

function weekEndedDate(header: TableCell): IsoDate {
  const m = WEEK_ENDED.exec(header.text)!;
  const month = monthNumber(m[1]);
  const date = `${m[3]}-${String(month).padStart(2, '0')}-${m[2].padStart(2, '0')}`;
  const days = month === 0 ? null : parseIsoDate(date);
  if (days === null) {
    fail(DOCUMENT, 'document_bad_date', `the column header ${quoted(header.text)} names ${JSON.stringify(`${m[1]} ${m[2]}, ${m[3]}`)}, which is not a calendar date`,
      cellName(header));
  }
  if (weekdayOfDays(days) !== WEDNESDAY) {
    fail(DOCUMENT, 'document_not_wednesday', `the week in the column header ${quoted(header.text)} ends on ${date}, which is not a Wednesday`, cellName(header));
  }
  return date;
}

/** H.4.1 page → liquidity.reserves: weekly average (millions, thousands separators) ÷ 1000, dated the week-ended Wednesday. */
export function parseH41Page(body: PublisherBody): H41Document {
  requireSize(DOCUMENT, body);
  const html = typeof body === 'string' ? body : new TextDecoder('utf-8').decode(body);
  const page = readHtmlTables(html);
  const found = locate(page);
  const valueCell = found.table.grid[found.row][found.column];
  if (valueCell === undefined || valueCell === found.labelCell || valueCell.row !== found.row) {
    fail(DOCUMENT, 'document_cell_missing', `the reserve balances row has no cell under the column headed ${quoted(found.header.text)}`, cellName(found.labelCell));
  }
  requireUniqueIds(page, [found.labelCell, found.header, valueCell]);

  const weekEnded = weekEndedDate(found.header);
  const millions = parseDecimalText(valueCell.text, { thousandsSeparators: true });
  const problem = millions === null ? undefined : amountProblem(millions, RESERVES_RULE);
  const observation = millions === null
    ? rejectedObservation(weekEnded, new PublisherDocumentError(DOCUMENT, 'document_not_a_number',
      `the weekly average cell reads ${describeValue(valueCell.text)}, not a number of millions`, { location: cellName(valueCell) }))
    : problem !== undefined
      ? rejectedObservation(weekEnded, new PublisherDocumentError(DOCUMENT, problem.reason,
        `the weekly average cell reads ${describeValue(valueCell.text)}, ${problem.why}`, { location: cellName(valueCell) }))
      : acceptedObservation(weekEnded, divideByPowerOfTen(millions, 3));

  return Object.freeze({
    document: DOCUMENT,
    weekEnded,
    series: Object.freeze([buildSeries(DOCUMENT, 'liquidity.reserves', [observation])]),
  });
}
