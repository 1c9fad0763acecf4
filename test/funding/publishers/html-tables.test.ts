import { describe, expect, it } from 'vitest';

import { columnHeaders, readHtmlTables, rowCells } from '../../../src/funding/publishers/html-tables.js';

describe('HTML tables as a grid', () => {
  it('lays out colspan and rowspan the way a browser does, so grouped headers sit over their columns', () => {
    const { tables } = readHtmlTables(`<table><thead>
      <tr><th rowspan="2">Item</th><th colspan="2">Averages</th><th rowspan="2">Wednesday<br>Oct 14</th></tr>
      <tr><th>Week ended<br>Oct 14</th><th>Change <sup>1</sup></th></tr></thead>
      <tbody><tr><th>Reserves<sup><a href="#n">2</a></sup></th><td>1</td><td>2</td><td>3</td></tr></tbody></table>`);
    const [t] = tables;
    expect(t.headRows).toBe(2);
    expect(columnHeaders(t, 1).map((c) => c.text)).toEqual(['Averages', 'Week ended Oct 14']);
    expect(columnHeaders(t, 2).map((c) => c.text)).toEqual(['Averages', 'Change']);
    expect(columnHeaders(t, 3).map((c) => c.text)).toEqual(['Wednesday Oct 14']);
    expect(rowCells(t, 2).map((c) => c.text)).toEqual(['Reserves', '1', '2', '3']);
  });

  it('takes the thead as the head when there is one, else leading rows of th (empty td corners allowed)', () => {
    const { tables } = readHtmlTables(`
      <table><thead><tr><th>a</th></tr></thead><tbody><tr><th>section</th></tr><tr><td>1</td></tr></tbody></table>
      <table><tr><td></td><th>Rate</th></tr><tr><th>x</th><td>1</td></tr></table>`);
    expect(tables.map((t) => t.headRows)).toEqual([1, 1]);
  });

  it('counts every id on the page and keeps nested tables apart', () => {
    const page = readHtmlTables('<p id="a"></p><p id="a"></p><table><tr><td id="c"><table><tr><td id="d">in</td></tr></table></td></tr></table>');
    expect(page.idCounts.get('a')).toBe(2);
    expect(page.tables).toHaveLength(2);
    expect(page.tables[0].grid).toHaveLength(1);
  });
});
