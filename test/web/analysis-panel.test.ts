// The analysis view's CSV reader (src/web/assets/panel.js), run in Node.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
// @ts-expect-error: a browser module without type declarations
import { parsePanel, splitCsvLine } from '../../src/web/assets/panel.js';

const quote = (cell: string) => `"${cell.replaceAll('"', '""')}"`;

describe('the analysis panel CSV reader', () => {
  it('reads quoted cells as RFC 4180 does: commas and doubled quotes inside quotes are text', () => {
    expect(splitCsvLine('time,"b</li>","a, b",c', 1)).toEqual(['time', 'b</li>', 'a, b', 'c']);
    expect(splitCsvLine(' "say ""hi""" , x ,', 1)).toEqual(['say "hi"', 'x', '']);
    expect(() => splitCsvLine('time,"open', 3)).toThrow(/line 3: a quoted cell is not closed/);
    expect(() => splitCsvLine('time,"a"b', 2)).toThrow(/line 2: text follows a quoted cell/);
  });

  it('gives back any list of cells written with quotes', () => {
    fc.assert(fc.property(fc.array(fc.string().filter((c) => !/[\r\n]/.test(c) && c.trim() === c), { minLength: 1, maxLength: 6 }), (cells) => {
      expect(splitCsvLine(cells.map(quote).join(','), 1)).toEqual(cells);
    }));
  });

  it('reads a blank cell, quoted or not, as missing, takes decimal numbers only, and names lines as the text numbers them', () => {
    const panel = parsePanel('time,a,b\n2026-01-01," ",\n2026-01-02,"\t",1e2\n2026-01-03,-.5,+3.');
    expect(panel.columns[0].values).toEqual([null, null, -0.5]);
    expect(panel.columns[1].values).toEqual([null, 100, 3]);
    for (const cell of ['0x10', '0b11', '0o7', 'Infinity', '1_0', '1e', '.']) {
      expect(() => parsePanel(`time,a\n2026-01-01,${cell}`), cell).toThrow(/line 2: ".*" is not a number/);
    }
    expect(() => parsePanel('time,a\n\n\n2026-01-01,zz')).toThrow(/^line 4: "zz" is not a number/);
    expect(() => parsePanel('time,a\n\n2026-01-01,1,2')).toThrow(/^line 3 has 3 cells/);
  });

  it('takes series names from a quoted header', () => {
    const panel = parsePanel('time,"rate, 3m","say ""x"""\n2026-01-01,1,2\n2026-01-02,"3",4');
    expect(panel.columns.map((c: { id: string }) => c.id)).toEqual(['rate, 3m', 'say "x"']);
    expect(panel.columns[0].values).toEqual([1, 3]);
    expect(panel.times).toEqual(['2026-01-01T00:00:00Z', '2026-01-02T00:00:00Z']);
  });
});
