// The analysis view's CSV panel reader: text in, times and series out. No page or network
// here, so it is tested in Node (test/web/analysis-panel.test.ts).

// ISO 8601 date, optionally with a time (T or a space) and a zone (Z or ±HH:MM).
const ISO_TIME = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?)(Z|[+-]\d{2}:?\d{2})?)?$/i;

/**
 * Reads one CSV time as an instant. A date alone and a date-time without a zone are both
 * UTC (never the browser's zone, which would shift the panel silently); a zone, when given,
 * is honoured. Returns milliseconds since the epoch, or NaN when the text is not such a time.
 */
export function parseTime(text) {
  const m = ISO_TIME.exec(text);
  if (!m) return Number.NaN;
  const [, date, time, zone] = m;
  // A date that does not exist (2026-02-30) is not a time, whatever Date.parse makes of it.
  const day = Date.parse(`${date}T00:00:00Z`);
  if (Number.isNaN(day) || new Date(day).toISOString().slice(0, 10) !== date) return Number.NaN;
  if (!time) return day;
  let offset = 'Z';
  if (zone && zone.toUpperCase() !== 'Z') offset = zone.includes(':') ? zone : `${zone.slice(0, 3)}:${zone.slice(3)}`;
  return Date.parse(`${date}T${time}${offset}`);
}

/**
 * The cells of one CSV line, with RFC 4180 quoting: `"a, b"` is one cell and `""` inside
 * quotes is a quote (a quoted cell cannot span lines here). Cells are trimmed.
 */
export function splitCsvLine(line, lineNumber) {
  const cells = [];
  let i = 0;
  for (;;) {
    while (line[i] === ' ' || line[i] === '\t') i++;
    if (line[i] !== '"') {
      const comma = line.indexOf(',', i);
      cells.push(line.slice(i, comma === -1 ? line.length : comma).trim());
      if (comma === -1) return cells;
      i = comma + 1;
      continue;
    }
    let value = '';
    for (i++; ; i++) {
      if (i >= line.length) throw new Error(`line ${lineNumber}: a quoted cell is not closed`);
      if (line[i] !== '"') value += line[i];
      else if (line[i + 1] === '"') value += line[++i];
      else break;
    }
    i++;
    while (line[i] === ' ' || line[i] === '\t') i++;
    cells.push(value);
    if (i >= line.length) return cells;
    if (line[i] !== ',') throw new Error(`line ${lineNumber}: text follows a quoted cell; separate cells with commas`);
    i++;
  }
}

// A decimal number as a CSV writes one: Number() also takes `0x10`, `0b11`, `0o7` and
// `Infinity`, which no data file means.
const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * Parses "time,a,b\n2026-01-01T00:00:00Z,1,2" into {times, columns: [{id, values}]}. A blank
 * cell, quoted or not, is a missing value; messages name lines as the text numbers them.
 */
export function parsePanel(text) {
  const lines = text.split(/\r?\n/).map((line, index) => ({ text: line.trim(), number: index + 1 })).filter((line) => line.text !== '');
  if (lines.length < 2) throw new Error('the panel needs a header line and at least one row');
  const header = splitCsvLine(lines[0].text, lines[0].number);
  if (header.length < 2) throw new Error('the header needs a time column and at least one series');
  const columns = header.slice(1).map((id) => ({ id, values: [] }));
  const times = [];
  for (const { text: line, number } of lines.slice(1)) {
    const cells = splitCsvLine(line, number).map((cell) => cell.trim());
    if (cells.length !== header.length) throw new Error(`line ${number} has ${cells.length} cells, the header has ${header.length}`);
    const instant = parseTime(cells[0]);
    if (Number.isNaN(instant)) throw new Error(`line ${number}: "${cells[0]}" is not a time (use YYYY-MM-DD, optionally with THH:MM[:SS] and Z or an offset)`);
    times.push(new Date(instant).toISOString().replace('.000Z', 'Z'));
    columns.forEach((column, j) => {
      const cell = cells[j + 1];
      const value = cell === '' ? null : DECIMAL.test(cell) ? Number(cell) : Number.NaN;
      if (value !== null && !Number.isFinite(value)) throw new Error(`line ${number}: "${cell}" is not a number`);
      column.values.push(value);
    });
  }
  return { times, columns };
}
