import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EXP2_HI, EXP2_LO, LN2_128_HI } from '../../../src/analysis/numeric/log-table.generated.js';
import { expCorrectlyRounded, expSlow } from '../../../src/analysis/numeric/exp.js';
import { logSlow } from '../../../src/analysis/numeric/log.js';
import { loadFixture } from './fixture.js';

interface Deviation {
  x: string;
  glibc: number;
  correctly_rounded: number;
  midpoint_distance_ulp: number;
}

// scripts/gen-analysis-parity.py: (x, math.exp(x)) pairs from CPython 3.11 on glibc.
const meta = loadFixture<{ sections: { name: string; count: number }[]; glibc_not_correctly_rounded: Deviation[] }>('exp-reference.json');
const raw = readFileSync(fileURLToPath(new URL('../../fixtures/analysis/exp-reference.bin', import.meta.url)));
const pairs = new Float64Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength));
const total = pairs.length / 2;

function parseHex(hex: string): number {
  const m = /^(-?)0x([01])\.([0-9a-f]+)p([+-]\d+)$/.exec(hex);
  if (!m) throw new Error(hex);
  const value = (Number(m[2]) + parseInt(m[3].padEnd(13, '0'), 16) / 2 ** 52) * 2 ** Number(m[4]);
  return m[1] ? -value : value;
}

describe('correctly rounded exponential', () => {
  it(`equals CPython's math.exp on ${total} arguments except where glibc itself is not correctly rounded`, () => {
    expect(meta.sections.reduce((n, s) => n + s.count, 0)).toBe(total);
    const deviations = new Map(meta.glibc_not_correctly_rounded.map((d) => [parseHex(d.x), d]));
    let mismatches = 0;
    for (let k = 0; k < total; k++) {
      const x = pairs[2 * k];
      const ours = expCorrectlyRounded(x);
      if (Object.is(ours, pairs[2 * k + 1])) continue;
      mismatches++;
      const known = deviations.get(x);
      expect(known, `exp(${x}) = ${ours}, CPython ${pairs[2 * k + 1]}`).toBeDefined();
      expect(ours).toBe(known?.correctly_rounded);
    }
    expect(mismatches).toBe(deviations.size);
    // glibc departs only on near-ties (its exp is good to ~0.503 ulp).
    for (const d of meta.glibc_not_correctly_rounded) expect(d.midpoint_distance_ulp, d.x).toBeLessThan(0.01);
  });

  it('beats V8: Math.exp is off on the fixture many times more often', () => {
    let v8 = 0;
    for (let k = 0; k < total; k++) if (!Object.is(Math.exp(pairs[2 * k]), pairs[2 * k + 1])) v8++;
    expect(v8).toBeGreaterThan(10 * meta.glibc_not_correctly_rounded.length);
  });

  it('has an exact slow path that agrees with the fast one', () => {
    let disagreements = 0;
    for (let k = 0; k < total; k += 61) {
      const x = pairs[2 * k];
      if (!Object.is(expSlow(x), expCorrectlyRounded(x))) disagreements++;
    }
    expect(disagreements).toBe(0);
  });

  it('handles the special values and the range ends as C does', () => {
    expect(expCorrectlyRounded(0)).toBe(1);
    expect(expCorrectlyRounded(-0)).toBe(1);
    expect(expCorrectlyRounded(1)).toBe(Math.E);
    expect(expCorrectlyRounded(Infinity)).toBe(Infinity);
    expect(expCorrectlyRounded(-Infinity)).toBe(0);
    expect(expCorrectlyRounded(NaN)).toBeNaN();
    expect(expCorrectlyRounded(710)).toBe(Infinity);
    expect(expCorrectlyRounded(-746)).toBe(0);
    expect(expCorrectlyRounded(-745.1332191019411)).toBe(5e-324);
  });

  it('is monotonic and within an ulp of Math.exp on arbitrary arguments', () => {
    fc.assert(
      fc.property(fc.double({ min: -700, max: 700, noNaN: true }), (x) => {
        const y = expCorrectlyRounded(x);
        expect(Math.abs(y - Math.exp(x))).toBeLessThanOrEqual(y * 2 ** -51);
        expect(expCorrectlyRounded(x + Math.abs(x) * 2 ** -52 + 5e-324)).toBeGreaterThanOrEqual(y);
      }),
      { numRuns: 20_000, seed: 4 },
    );
  });

  it('uses a table that the exact evaluations reproduce', () => {
    expect(Number.isInteger(LN2_128_HI * 2 ** 41)).toBe(true);
    for (let j = 0; j < 128; j += 7) {
      // 2^(j/128) = exp(j/128 * ln 2); the slow path gives the double nearest to it.
      expect(Math.abs(EXP2_LO[j])).toBeLessThanOrEqual(EXP2_HI[j] * 2 ** -53);
      expect(Math.abs(logSlow(EXP2_HI[j]) - (j / 128) * Math.LN2)).toBeLessThan(2 ** -50);
    }
    expect(expSlow(Math.LN2)).toBe(2);
  });
});
