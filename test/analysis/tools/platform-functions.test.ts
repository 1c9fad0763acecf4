// Where the tools rely on JS built-ins for what CPython gets from glibc, these tests say
// how close the two are, so a Node upgrade that changes them is noticed.
import { describe, expect, it } from 'vitest';
import { pyround } from '../../../src/analysis/numeric/pyround.js';
import { stepRoot } from '../../../src/analysis/tools/replay.js';
import { loadToolFixture, type SpecialFunctions } from './fixtures.js';

const ref = loadToolFixture<SpecialFunctions>('tool-special-functions.json');

describe('Python round(x, d) for the digits the tools use (1 to 6)', () => {
  it('matches CPython on every fixture value, exact ties included', () => {
    for (const [x, d, expected] of ref.pyround) expect(Object.is(pyround(x, d), expected) || pyround(x, d) === expected, `${x} ${d}`).toBe(true);
  });

  it('rounds the reachable tool ties to even', () => {
    expect(pyround(1 / 64, 5)).toBe(0.01562);
    expect(pyround(5 / 64, 5)).toBe(0.07812);
    expect(pyround(100.0 * (2 / 64), 2)).toBe(3.12);
    expect(pyround(100.0 / 16, 1)).toBe(6.2);
    expect(Object.is(pyround(-0.00001, 2), -0)).toBe(true);
  });
});

describe("the forecast engine's step root (1 + 0.01 k) ** 0.5", () => {
  it('equals the reference for every step a 2048-value series can take', () => {
    for (const [k, expected] of ref.step_root) expect(stepRoot(k), String(k)).toBe(expected);
  });

  it('needs its three substitutions: elsewhere the correctly rounded root is what glibc gives', () => {
    const differing = ref.step_root.filter(([k, v]) => Math.sqrt(1.0 + 0.01 * k) !== v).map(([k]) => k);
    expect(differing).toEqual([826, 885, 1377]);
  });
});

describe('log1p: V8 against glibc', () => {
  it('log1p agrees bit for bit on nearly every argument and within one ulp on all', () => {
    let differ = 0;
    for (const [y, expected] of ref.log1p) {
      const v = Math.log1p(y);
      if (v !== expected) differ++;
      expect(Math.abs(v - expected)).toBeLessThanOrEqual(Math.abs(expected) * 2.3e-16);
    }
    expect(differ / ref.log1p.length).toBeLessThan(0.01);
  });

});
