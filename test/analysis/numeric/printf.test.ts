import { describe, expect, it } from 'vitest';
import { formatFixed, formatGeneral } from '../../../src/analysis/numeric/printf.js';
import { loadToolFixture, type SpecialFunctions } from '../tools/fixtures.js';

const ref = loadToolFixture<SpecialFunctions>('tool-special-functions.json');

describe("Python's %g and %.Nf", () => {
  it('match CPython on every fixture value', () => {
    for (const [x, g, g4, f2, f1] of ref.format) {
      expect(formatGeneral(x), String(x)).toBe(g);
      expect(formatGeneral(x, 4), String(x)).toBe(g4);
      expect(formatFixed(x, 2), String(x)).toBe(f2);
      expect(formatFixed(x, 1), String(x)).toBe(f1);
    }
  });

  it('round exact ties to even where toPrecision rounds away from zero', () => {
    expect(formatGeneral(0.0009765625)).toBe('0.000976562');
    expect((0.0009765625).toPrecision(6)).toBe('0.000976563');
    expect(formatFixed(0.125, 2)).toBe('0.12');
    expect(formatGeneral(1e-6)).toBe('1e-06');
    expect(formatGeneral(-0)).toBe('-0');
  });
});
