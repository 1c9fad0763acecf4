// HTML tables of the Board's pages as a grid of cells, for parsers that find a value by
// its row label and its column header instead of by positional cell ids.
//
// Cells are placed the way a browser lays them out (colspan and rowspan occupy the slots
// to their right and below), so a column header that spans several body columns, or a
// row header that spans several rows, lines up with the body cells it labels. Text is
// whitespace-normalised; footnote markers (`<sup>`) are left out, and tags inside a cell
// separate words (`Week ended<br>Sep 23, 2026` reads "Week ended Sep 23, 2026").

import { DomUtils, parseDocument } from 'htmlparser2';

type Node = ReturnType<typeof DomUtils.getChildren>[number];
type Element = NonNullable<ReturnType<typeof DomUtils.findOne>>;

export interface TableCell {
  /** Normalised text, footnote markers left out. */
  readonly text: string;
  /** The element id, if the cell has one. */
  readonly id: string | undefined;
  readonly header: boolean;
  /** First grid column and row this cell occupies (0-based), and how many. */
  readonly column: number;
  readonly row: number;
  readonly columnSpan: number;
  readonly rowSpan: number;
}

export interface HtmlTable {
  /** 0-based position among the page's tables, in document order. */
  readonly index: number;
  /** The table's caption text ('' when it has none). */
  readonly caption: string;
  /**
   * Rows of the table's head section: the `thead` rows if there is a `thead`, otherwise the
   * leading rows whose non-empty cells are all `th` (an empty `td` corner cell is common).
   */
  readonly headRows: number;
  /** Grid rows; each slot points at the cell covering it (undefined for an empty slot). */
  readonly grid: readonly (readonly (TableCell | undefined)[])[];
}

export interface HtmlPage {
  readonly tables: readonly HtmlTable[];
  /** How often each element id occurs anywhere in the page. */
  readonly idCounts: ReadonlyMap<string, number>;
}

const MAX_SPAN = 100;

/** Collapses every whitespace run (including no-break spaces) to one space and trims. */
export function normaliseText(text: string): string {
  return text.replace(/[\s\u00a0]+/g, ' ').trim();
}

function cellText(node: Node): string {
  const parts: string[] = [];
  const walk = (n: Node) => {
    if (n.type === 'text') {
      parts.push((n as { data: string }).data);
      return;
    }
    if (!DomUtils.isTag(n)) return;
    const name = n.name.toLowerCase();
    if (name === 'sup' || name === 'script' || name === 'style') return;
    parts.push(' ');
    for (const child of n.children) walk(child);
    parts.push(' ');
  };
  walk(node);
  return normaliseText(parts.join(''));
}

function span(element: Element, name: string): number {
  const raw = element.attribs[name];
  if (raw === undefined || !/^\s*[0-9]+\s*$/.test(raw)) return 1;
  const n = Number(raw);
  return n < 1 ? 1 : Math.min(n, MAX_SPAN);
}

/** The rows of one table, without descending into tables nested inside it. */
function rowsOf(table: Element): { row: Element; inHead: boolean }[] {
  const out: { row: Element; inHead: boolean }[] = [];
  const walk = (parent: Element, inHead: boolean) => {
    for (const child of parent.children) {
      if (!DomUtils.isTag(child)) continue;
      const name = child.name.toLowerCase();
      if (name === 'table') continue;
      if (name === 'tr') out.push({ row: child, inHead });
      else walk(child, inHead || name === 'thead');
    }
  };
  walk(table, false);
  return out;
}

function buildTable(table: Element, index: number): HtmlTable {
  const grid: (TableCell | undefined)[][] = [];
  const rows = rowsOf(table);
  const hasHead = rows.some((r) => r.inHead);
  let headRows = 0;
  let leadingHeaderRows = true;
  rows.forEach(({ row, inHead }, r) => {
    grid[r] ??= [];
    const cells = row.children.filter((c): c is Element => DomUtils.isTag(c) && /^(td|th)$/i.test(c.name));
    let column = 0;
    for (const element of cells) {
      while (grid[r][column] !== undefined) column += 1;
      const cell: TableCell = Object.freeze({
        text: cellText(element),
        id: element.attribs.id,
        header: element.name.toLowerCase() === 'th',
        column,
        row: r,
        columnSpan: span(element, 'colspan'),
        rowSpan: span(element, 'rowspan'),
      });
      for (let dr = 0; dr < cell.rowSpan && r + dr < rows.length; dr++) {
        grid[r + dr] ??= [];
        for (let dc = 0; dc < cell.columnSpan; dc++) grid[r + dr][column + dc] = cell;
      }
      column += cell.columnSpan;
    }
    const isHeader = (c: Element) => c.name.toLowerCase() === 'th';
    const allHeaders = cells.some(isHeader) && cells.every((c) => isHeader(c) || cellText(c) === '');
    if (leadingHeaderRows && (hasHead ? inHead : allHeaders)) headRows = r + 1;
    else leadingHeaderRows = false;
  });
  const caption = DomUtils.findOne((e) => e.name.toLowerCase() === 'caption', table.children, false);
  return Object.freeze({
    index,
    caption: caption ? cellText(caption) : '',
    headRows,
    grid: Object.freeze(grid.map((row) => Object.freeze(row))),
  });
}

/** Every table of the page, and how often each id occurs. */
export function readHtmlTables(html: string): HtmlPage {
  const document = parseDocument(html, { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true });
  const idCounts = new Map<string, number>();
  const tables: Element[] = [];
  for (const element of DomUtils.findAll(() => true, document.children)) {
    const id = element.attribs.id;
    if (id !== undefined) idCounts.set(id, (idCounts.get(id) ?? 0) + 1);
    if (element.name.toLowerCase() === 'table') tables.push(element);
  }
  return Object.freeze({ tables: Object.freeze(tables.map(buildTable)), idCounts });
}

/** The distinct cells of a grid row, left to right. */
export function rowCells(table: HtmlTable, row: number): TableCell[] {
  const out: TableCell[] = [];
  for (const cell of table.grid[row] ?? []) if (cell !== undefined && !out.includes(cell)) out.push(cell);
  return out;
}

/** The header texts above a column, top to bottom (each spanning cell once). */
export function columnHeaders(table: HtmlTable, column: number): TableCell[] {
  const out: TableCell[] = [];
  for (let r = 0; r < table.headRows; r++) {
    const cell = table.grid[r]?.[column];
    if (cell !== undefined && !out.includes(cell)) out.push(cell);
  }
  return out;
}

/** Number of grid columns (the widest row). */
export function columnCount(table: HtmlTable): number {
  return table.grid.reduce((n, row) => Math.max(n, row.length), 0);
}
