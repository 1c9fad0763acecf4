// The upstream calibration checks of ab_test, on seeded simulations (CPython's generator):
// peeking often must not inflate false verdicts, and a real difference must be found.
import { describe, expect, it } from 'vitest';
import { PyRandom } from '../../../src/analysis/mt19937.js';
import { abTest } from '../../../src/analysis/tools/ab-test.js';

interface Trial {
  rateA: number;
  rateB: number;
  allocations: number;
  peekEvery: number;
}

/** Runs one simulated experiment; returns the winner of the first decided peek, or null. */
function simulate(seed: number, { rateA, rateB, allocations, peekEvery }: Trial): string | null {
  const rng = new PyRandom(seed);
  const counts = { a_successes: 0, a_total: 0, b_successes: 0, b_total: 0 };
  for (let i = 1; i <= allocations; i++) {
    if (rng.random() < 0.5) {
      counts.a_total++;
      if (rng.random() < rateA) counts.a_successes++;
    } else {
      counts.b_total++;
      if (rng.random() < rateB) counts.b_successes++;
    }
    if (i % peekEvery === 0 && counts.a_total > 5 && counts.b_total > 5) {
      const result = abTest({ ...counts });
      if (result.decided === true) return result.winner as string;
    }
  }
  return null;
}

describe('ab_test calibration under continuous peeking', () => {
  it('A/A: at most 5 % of 200 experiments are ever decided, peeking every 20 allocations', { timeout: 120_000 }, () => {
    let decided = 0;
    for (let t = 0; t < 200; t++) if (simulate(9000 + t, { rateA: 0.1, rateB: 0.1, allocations: 1500, peekEvery: 20 }) !== null) decided++;
    expect(decided).toBeLessThanOrEqual(10);
  });

  it('10 % against 15 %: at least 27 of 30 experiments find B, and none finds A', { timeout: 120_000 }, () => {
    const winners: (string | null)[] = [];
    for (let t = 0; t < 30; t++) winners.push(simulate(700 + t, { rateA: 0.1, rateB: 0.15, allocations: 30_000, peekEvery: 100 }));
    expect(winners.filter((w) => w === 'B').length).toBeGreaterThanOrEqual(27);
    expect(winners).not.toContain('A');
  });
});
