import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { INV, LN2_HI, LN2_LO, NEG_LOG_HI, NEG_LOG_LO } from '../../../src/analysis/numeric/log-table.generated.js';
import { logCorrectlyRounded, logSlow } from '../../../src/analysis/numeric/log.js';
import { loadFixture } from './fixture.js';

interface Deviation {
  x: string;
  glibc: number;
  correctly_rounded: number;
  midpoint_distance_ulp: number;
}

interface LogMeta {
  sections: { name: string; count: number }[];
  glibc_not_correctly_rounded: Deviation[];
  hard_cases: Deviation[];
}

// scripts/gen-analysis-parity.py: (x, math.log(x)) pairs from CPython 3.11 on glibc.
const meta = loadFixture<LogMeta>('log-reference.json');
const raw = readFileSync(fileURLToPath(new URL('../../fixtures/analysis/log-reference.bin', import.meta.url)));
const pairs = new Float64Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength));
const total = pairs.length / 2;

function parseHex(hex: string): number {
  // Python's float.hex(): [-]0x1.<13 hex digits>p<exp> (or 0x0.… for subnormals).
  const m = /^(-?)0x([01])\.([0-9a-f]+)p([+-]\d+)$/.exec(hex);
  if (!m) throw new Error(hex);
  const fraction = parseInt(m[3].padEnd(13, '0'), 16) / 2 ** 52;
  const value = (Number(m[2]) + fraction) * 2 ** Number(m[4]);
  return m[1] ? -value : value;
}

describe('correctly rounded natural logarithm', () => {
  it(`equals CPython's math.log on ${total} inputs except where glibc itself is not correctly rounded`, () => {
    expect(meta.sections.reduce((n, s) => n + s.count, 0)).toBe(total);
    expect(total).toBeGreaterThan(250_000);
    const deviations = new Map(meta.glibc_not_correctly_rounded.map((d) => [parseHex(d.x), d]));
    let mismatches = 0;
    for (let k = 0; k < total; k++) {
      const x = pairs[2 * k];
      const expected = pairs[2 * k + 1];
      const ours = logCorrectlyRounded(x);
      if (Object.is(ours, expected)) continue;
      mismatches++;
      const known = deviations.get(x);
      // Every difference is one of glibc's, and there we give the correctly rounded value.
      expect(known, `log(${x}) = ${ours}, CPython ${expected}`).toBeDefined();
      expect(ours).toBe(known?.correctly_rounded);
    }
    expect(mismatches).toBe(deviations.size);
  });

  it('differs from glibc only on near-ties: its departures all lie within 1e-3 ulp of a midpoint', () => {
    expect(meta.glibc_not_correctly_rounded.length).toBeGreaterThan(0);
    for (const d of meta.glibc_not_correctly_rounded) {
      expect(d.midpoint_distance_ulp, d.x).toBeLessThan(1e-3);
      expect(Math.abs(d.glibc - d.correctly_rounded)).toBeLessThanOrEqual(Math.abs(d.correctly_rounded) * 2 ** -52);
    }
  });

  it('decides the recorded hard cases (logarithms within ~2^-22 ulp of a rounding boundary)', () => {
    expect(meta.hard_cases.length).toBeGreaterThan(0);
    for (const h of meta.hard_cases) {
      const x = parseHex(h.x);
      expect(logCorrectlyRounded(x), h.x).toBe(h.correctly_rounded);
      expect(logSlow(x), h.x).toBe(h.correctly_rounded);
    }
  });

  it('beats V8: Math.log is off on the fixture many times more often', () => {
    let v8 = 0;
    for (let k = 0; k < total; k++) if (!Object.is(Math.log(pairs[2 * k]), pairs[2 * k + 1])) v8++;
    // If V8 ever became correctly rounded this fixture would stop proving anything.
    expect(v8).toBeGreaterThan(10 * meta.glibc_not_correctly_rounded.length);
  });

  it('has an exact slow path that agrees with the fast one', () => {
    let disagreements = 0;
    for (let k = 0; k < total; k += 97) {
      const x = pairs[2 * k];
      if (!Object.is(logSlow(x), logCorrectlyRounded(x))) disagreements++;
    }
    expect(disagreements).toBe(0);
  });

  it('handles the special values as C does', () => {
    expect(logCorrectlyRounded(1)).toBe(0);
    expect(Object.is(logCorrectlyRounded(1), 0)).toBe(true);
    expect(logCorrectlyRounded(0)).toBe(-Infinity);
    expect(logCorrectlyRounded(-0)).toBe(-Infinity);
    expect(logCorrectlyRounded(Infinity)).toBe(Infinity);
    expect(logCorrectlyRounded(-1)).toBeNaN();
    expect(logCorrectlyRounded(-Infinity)).toBeNaN();
    expect(logCorrectlyRounded(NaN)).toBeNaN();
    expect(logCorrectlyRounded(Math.E)).toBe(1);
  });

  it('is monotonic and within half an ulp of Math.log’s neighbourhood on arbitrary doubles', () => {
    fc.assert(
      fc.property(fc.double({ min: 5e-324, max: 1.7976931348623157e308, noNaN: true }), (x) => {
        const y = logCorrectlyRounded(x);
        expect(Math.abs(y - Math.log(x))).toBeLessThanOrEqual(Math.abs(y) * 2 ** -51 + 5e-324);
        const next = x * (1 + 2 ** -52);
        if (next < Infinity) expect(logCorrectlyRounded(next)).toBeGreaterThanOrEqual(y);
      }),
      { numRuns: 20_000, seed: 3 },
    );
  });

  it('uses a reduction table that the exact evaluation reproduces entry by entry', () => {
    // 21-bit reciprocals keep the fast path's products exact.
    for (const c of INV) expect(Number.isInteger(c * 2 ** 21)).toBe(true);
    expect(Number.isInteger(LN2_HI * 2 ** 42)).toBe(true);
    for (let i = 0; i < 128; i += 9) {
      // -ln c = ln(1/c); the slow path gives the double nearest to it.
      expect(-logSlow(INV[i]), String(i)).toBe(NEG_LOG_HI[i]);
      expect(Math.abs(NEG_LOG_LO[i])).toBeLessThanOrEqual(Math.abs(NEG_LOG_HI[i]) * 2 ** -53);
    }
    expect(logSlow(2)).toBe(LN2_HI + LN2_LO);
  });
});
