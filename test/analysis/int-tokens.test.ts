// JSON int tokens are exact integers to the reference (Python ints): first differences,
// sample-size comparisons and medians of sizes are computed on the exact values, and the
// int token -0 is the int 0. Fixtures: scripts/gen-analysis-parity.py (CPython 3.11).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeDigestJson, encodePythonBody, parseStrictJson } from '../../src/core/json.js';
import { assessMarket } from '../../src/analysis/market.js';
import { measurementCoverage as marketCoverage } from '../../src/analysis/market/coverage.js';
import type { MarketRequest } from '../../src/analysis/market/types.js';
import { intTrueDivide, pyCompare } from '../../src/analysis/numeric/py-number.js';
import { round15 } from '../../src/analysis/numeric/round15.js';
import { assessSpectral, type SpectralRequest } from '../../src/analysis/spectral.js';
import { measurementCoverage as spectralCoverage } from '../../src/analysis/spectral/coverage.js';
import { deferredIntervals } from '../../src/analysis/spectral/transform.js';
import type { SpectralObservation } from '../../src/analysis/spectral/types.js';
import { loadFixture } from './numeric/fixture.js';

interface IntTokenFixture {
  differences: { before: string; after: string; first_difference: number | null; identity_return: number }[];
  spectral_coverage: { sizes: string; status: string; minimum: string; maximum: string }[];
  market_coverage: { baseline: number; recent: number; drop: string; sizes: string; coverage: { status: string; relative_change: number } | null }[];
  true_divide: { numerator: string; denominator: string; quotient: number | null }[];
}

const ref = loadFixture<IntTokenFixture>('int-tokens-reference.json');

const sameBits = (a: number, b: number) => Object.is(a, b);

/** Observations parsed from JSON text, so every number keeps its token kind. */
function observations(values: string[], sizes?: string[]): SpectralObservation[] {
  const items = values.map((v, i) => `{"observed_at": "2026-01-0${i + 1}T00:00:00Z", "value": ${v}${sizes ? `, "sample_size": ${sizes[i]}` : ''}}`);
  return parseStrictJson(`[${items.join(', ')}]`) as SpectralObservation[];
}

describe('spectral transforms of int tokens', () => {
  it(`match CPython on ${ref.differences.length} token pairs (first differences and identity returns)`, () => {
    expect(ref.differences.length).toBeGreaterThan(1500);
    for (const c of ref.differences) {
      const tail = observations([c.before, c.after]);
      if (c.first_difference === null) {
        expect(() => deferredIntervals('level', tail), `${c.before} -> ${c.after}`).toThrow();
      } else {
        const diff = round15(deferredIntervals('level', tail).values[0]);
        expect(sameBits(diff, c.first_difference), `${c.before} -> ${c.after}: ${diff}`).toBe(true);
      }
      const ret = round15(deferredIntervals('return', tail).values[0]);
      expect(sameBits(ret, c.identity_return), `${c.after}: ${ret}`).toBe(true);
    }
  });

  it('gives consecutive integers beyond 2^53 differences of exactly 1', () => {
    const tail = observations(['100000000000000000', '100000000000000001', '100000000000000002', '100000000000000004']);
    expect(Array.from(deferredIntervals('level', tail).values)).toEqual([1, 1, 2]);
    expect(Array.from(deferredIntervals('rate', observations(['9007199254740993', '9007199254740992'])).values)).toEqual([-1]);
    // A float token takes float arithmetic: 1e17 - 100000000000000001 is 1e17 - 1e17.
    expect(Array.from(deferredIntervals('level', observations(['100000000000000001', '1e17'])).values)).toEqual([0]);
  });

  it('gives the exact difference of any two int tokens, rounded once (property)', () => {
    const big = fc.oneof(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), fc.bigInt({ min: 2n ** 53n - 50n, max: 2n ** 53n + 50n }));
    fc.assert(
      fc.property(big, big, (a, b) => {
        const diff = deferredIntervals('level', observations([String(a), String(b)])).values[0];
        expect(diff).toBe(Number(b - a));
      }),
      { numRuns: 2000, seed: 11 },
    );
  });

  it('treats the int token -0 as 0 and keeps the float -0.0', () => {
    const diff = (a: string, b: string) => deferredIntervals('spread', observations([a, b])).values[0];
    expect(sameBits(diff('0', '-0'), 0)).toBe(true);
    expect(sameBits(diff('0.0', '-0'), 0)).toBe(true);
    expect(sameBits(diff('0', '-0.0'), -0)).toBe(true);
    expect(sameBits(deferredIntervals('return', observations(['1', '-0'])).values[0], 0)).toBe(true);
    expect(sameBits(deferredIntervals('return', observations(['1', '-0.0'])).values[0], -0)).toBe(true);
  });
});

describe('spectral measurement coverage of int tokens', () => {
  it(`matches CPython's set, min and max on ${ref.spectral_coverage.length} lists of sizes`, () => {
    for (const c of ref.spectral_coverage) {
      const tokens = splitTokens(c.sizes);
      const coverage = spectralCoverage(observations(tokens.map(() => '1'), tokens));
      expect(coverage.status, c.sizes).toBe(c.status);
      // Encoded from the coverage object, whose side table keeps the echoed token's kind.
      const encoded = encodeDigestJson(coverage);
      expect(encoded, c.sizes).toContain(`"minimum":${c.minimum},`);
      expect(encoded, c.sizes).toContain(`"maximum":${c.maximum},`);
    }
  });

  it('calls 100000000000000000 and 100000000000000001 variable (the issue example, end to end)', () => {
    const body = `{"as_of": "2026-01-03T00:00:00Z", "series": [{"id": "a", "kind": "level", "unit": "u",
      "source": {"id": "s", "rights": "permitted"}, "max_age_seconds": 86400, "observations": [
      {"observed_at": "2026-01-02T00:00:00Z", "value": 1, "sample_size": 100000000000000000},
      {"observed_at": "2026-01-03T00:00:00Z", "value": 2, "sample_size": 100000000000000001}]}]}`;
    const parsed = parseStrictJson(body) as SpectralRequest;
    const result = assessSpectral(parsed, parsed);
    const coverage = result.series[0].measurement_coverage;
    expect(coverage.status).toBe('variable');
    expect(encodePythonBody(coverage)).toBe(
      '{"status": "variable", "declared_points": 2, "tail_points": 2, "minimum": 100000000000000000, "maximum": 100000000000000001, "sampling_adjustment_applied": false}',
    );
    expect(result.series[0].warnings).toContain('review_measurement_coverage');
  });
});

describe('spectral panel of integer levels beyond 2^53', () => {
  it('assesses levels 10^17 + k exactly as levels k (first differences are exact)', () => {
    const steps = (seed: number) => Array.from({ length: 41 }, (_, i) => ((i * 7919 + seed * 104729) % 23) - 11);
    const body = (offset: bigint) => {
      const series = ['a', 'b', 'c'].map((id, s) => {
        let level = 0n;
        const obs = steps(s + 1).map((k, i) => {
          level += BigInt(k);
          return `{"observed_at": "2026-01-${String(1 + Math.floor(i / 24)).padStart(2, '0')}T${String(i % 24).padStart(2, '0')}:00:00Z", "value": ${offset + level}}`;
        });
        return `{"id": "${id}", "kind": "level", "unit": "u", "source": {"id": "s", "rights": "permitted"}, "max_age_seconds": 86400, "observations": [${obs.join(', ')}]}`;
      });
      return `{"as_of": "2026-01-02T16:00:00Z", "policy": {"window_points": 40, "step_points": 20, "max_windows": 1}, "series": [${series.join(', ')}]}`;
    };
    const run = (offset: bigint) => {
      const parsed = parseStrictJson(body(offset)) as SpectralRequest;
      return assessSpectral(parsed, parsed);
    };
    const small = run(0n);
    const large = run(10n ** 17n);
    expect(small.status).toBe('assessed');
    expect(encodePythonBody(large.windows)).toBe(encodePythonBody(small.windows));
  });
});

/** The number tokens of a JSON array text, as written. */
function splitTokens(text: string): string[] {
  return text.slice(1, -1).split(',').map((t) => t.trim());
}

describe('market measurement coverage of int tokens', () => {
  it(`matches CPython's statistics.median and exact int arithmetic on ${ref.market_coverage.length} windows`, () => {
    for (const c of ref.market_coverage) {
      const tokens = splitTokens(c.sizes);
      const obs = observations(tokens.map(() => '1'), tokens);
      const drop = parseStrictJson(c.drop) as number;
      const outcome = marketCoverage(obs, 0, c.baseline, c.recent, drop);
      expect(c.coverage).not.toBeNull();
      const expected = c.coverage as { status: string; relative_change: number };
      expect(outcome.coverage.status, c.sizes).toBe(expected.status);
      expect(sameBits(outcome.coverage.relative_change as number, expected.relative_change), `${c.sizes}: ${outcome.coverage.relative_change}`).toBe(true);
    }
    expect(ref.market_coverage.filter((c) => c.coverage?.status === 'changed').length).toBeGreaterThan(50);
  });

  it('sees sizes one apart beyond 2^53 as a change when the drop fraction is 0 and both medians are ints', () => {
    const run = (baseline: number) => {
      const tokens = [...Array.from({ length: baseline }, () => '100000000000000000'), '100000000000000001', '100000000000000001', '100000000000000001'];
      return marketCoverage(observations(tokens.map(() => '1'), tokens), 0, baseline, 3, 0).coverage;
    };
    // 31 sizes: the median is the middle int, and int - int is exact.
    expect(run(31)).toEqual({ status: 'changed', relative_change: 1e-17 });
    // 30 sizes: the median (a + b) / 2 is a float, and so is everything after it (as in Python).
    expect(run(30)).toEqual({ status: 'stable', relative_change: 0 });
  });
});

describe('market compares a float statistic with an int policy member exactly', () => {
  it('volatility_ratio 9007199254740993 is not reached by a ratio of 9007199254740992.0', () => {
    // Baseline spread 1.4826 * 1 (alternating 0/2 around 1) and recent spread 1.4826 * 2^53
    // (both exact), so the ratio is exactly 2^53 as a double.
    const base = Array.from({ length: 30 }, (_, i) => (i % 2 === 0 ? 0 : 2));
    const recent = [-9007199254740992, 0, 9007199254740992];
    const series = (ratio: string) =>
      parseStrictJson(
        JSON.stringify({
          as_of: '2026-10-08T00:00:00Z',
          policy: { volatility_ratio: '@' },
          series: [
            {
              id: 'x', kind: 'level', unit: 'u', source: { id: 's', rights: 'permitted' }, max_age_seconds: 1e9,
              observations: [...base, ...recent].map((value, i) => ({ observed_at: new Date(Date.UTC(2026, 8, 1) + i * 3600_000).toISOString(), value })),
            },
          ],
        }).replace('"@"', ratio),
      ) as MarketRequest;
    expect(assessMarket(series('9007199254740992')).series[0].reasons).toContain('volatility_expansion');
    expect(assessMarket(series('9007199254740992.0')).series[0].reasons).toContain('volatility_expansion');
    // The same double, but the int token is one more: Python's 2^53 >= 2^53 + 1 is false.
    expect(assessMarket(series('9007199254740993')).series[0].reasons).not.toContain('volatility_expansion');
  });
});

describe('market identity values of int tokens', () => {
  it('reports the int token -0 as 0.0, the float -0.0 as -0.0', () => {
    const run = (token: string) => {
      const obs = Array.from({ length: 33 }, (_, i) => `{"observed_at": "${new Date(Date.UTC(2026, 8, 1) + i * 3600_000).toISOString()}", "value": ${token}}`);
      const body = `{"as_of": "2026-09-03T00:00:00Z", "series": [{"id": "x", "kind": "level", "unit": "u", "source": {"id": "s", "rights": "permitted"}, "max_age_seconds": 1e9, "observations": [${obs.join(', ')}]}]}`;
      return encodePythonBody(assessMarket(parseStrictJson(body) as MarketRequest).series[0].diagnostics);
    };
    expect(run('-0')).toContain('"baseline_median": 0.0,');
    expect(run('-0.0')).toContain('"baseline_median": -0.0,');
  });
});

describe('int / int true division', () => {
  it(`is correctly rounded like CPython on ${ref.true_divide.length} quotients (subnormal, overflowing, ties)`, () => {
    for (const c of ref.true_divide) {
      const q = intTrueDivide(BigInt(c.numerator), BigInt(c.denominator));
      if (c.quotient === null) expect(Math.abs(q), `${c.numerator}/${c.denominator}`).toBe(Infinity);
      else expect(sameBits(q, c.quotient), `${c.numerator}/${c.denominator}: ${q} vs ${c.quotient}`).toBe(true);
    }
  });

  it('agrees with double division wherever both operands and the quotient are exact doubles', () => {
    fc.assert(
      fc.property(fc.integer({ min: -(2 ** 31), max: 2 ** 31 }), fc.integer({ min: 1, max: 2 ** 31 }), (a, b) => {
        expect(sameBits(intTrueDivide(BigInt(a), BigInt(b)), a / b)).toBe(true);
      }),
      { numRuns: 2000, seed: 10 },
    );
  });

  it('compares ints with floats exactly', () => {
    expect(pyCompare(9007199254740993n, 9007199254740992)).toBe(1);
    expect(pyCompare(9007199254740992, 9007199254740993n)).toBe(-1);
    expect(pyCompare(100000000000000000n, 1e17)).toBe(0);
    expect(pyCompare(2n, 2.5)).toBe(-1);
    expect(pyCompare(-3n, -2.5)).toBe(-1);
    expect(pyCompare(-2n, -2.5)).toBe(1);
    expect(pyCompare(10n ** 400n, Infinity)).toBe(-1);
  });
});
