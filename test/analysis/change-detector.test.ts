import { describe, expect, it } from 'vitest';
import {
  BET_GRID,
  type ChangeStep,
  mixtureBet,
  scanChanges,
  STATISTIC_CAP,
  TWO_SIDED_ALARM,
  TWO_SIDED_WATCH,
  WARMUP_POINTS,
} from '../../src/analysis/change-detector.js';

function trace(values: number[]): { steps: ChangeStep[]; result: ReturnType<typeof scanChanges> } {
  const steps: ChangeStep[] = [];
  const result = scanChanges(values, (s) => steps.push({ ...s }));
  return { steps, result };
}

// A deterministic, patternless noise sequence (no platform RNG, so the test is stable).
function noise(n: number, seed = 7): number[] {
  const out: number[] = [];
  let s = seed;
  for (let i = 0; i < n; i++) {
    s = (s * 1103515245 + 12345) % 2147483648;
    out.push(s / 2147483648 - 0.5);
  }
  return out;
}

describe('change detector constants', () => {
  it('uses warm-up 8, the 0.1..0.9 bet grid and doubled two-sided thresholds', () => {
    expect(WARMUP_POINTS).toBe(8);
    expect(BET_GRID).toEqual([0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9]);
    expect(TWO_SIDED_WATCH).toBe(200);
    expect(TWO_SIDED_ALARM).toBe(1000);
    expect(STATISTIC_CAP).toBe(1e12);
  });

  it('sums the bet grid left to right before dividing by its size', () => {
    // At p = 1 every power is 1, so the bet is the mean of the grid: 4.5 / 9.
    expect(mixtureBet(1)).toBe(0.5);
    // Elsewhere it is the left-to-right sum of e * p^(e - 1), divided by 9 at the end.
    for (const p of [0.5, 1 / 3, 1 / 289]) {
      let sum = 0;
      for (const e of BET_GRID) sum += e * Math.pow(p, e - 1);
      expect(mixtureBet(p)).toBe(sum / 9);
    }
  });

  it('clips the tail fraction into [1e-12, 1]', () => {
    expect(mixtureBet(0)).toBe(mixtureBet(1e-12));
    expect(mixtureBet(5)).toBe(mixtureBet(1));
  });
});

describe('scanChanges', () => {
  it('reports no_data with a zero statistic for an empty input', () => {
    expect(scanChanges([])).toEqual({ state: 'no_data', statistic: 0, changePoints: [] });
  });

  it('stays warming_up until eight reference values exist', () => {
    const { steps, result } = trace([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(steps.map((s) => s.state)).toEqual(Array(8).fill('warming_up'));
    expect(steps.every((s) => s.statistic === 0)).toBe(true);
    expect(result.state).toBe('warming_up');
  });

  it('never changes on a flat series and settles at a statistic of 1', () => {
    const { steps, result } = trace(Array(500).fill(42));
    expect(result.changePoints).toEqual([]);
    expect(result.state).toBe('steady');
    // p = 1 on both sides, so R follows (1 + R) * B(1) ≈ (1 + R) / 2 towards 1.
    expect(steps[8].statistic).toBe(0.5);
    expect(steps[9].statistic).toBe(0.75);
    expect(result.statistic).toBe(1);
    expect(steps.slice(8).every((s) => s.state === 'steady')).toBe(true);
  });

  it('scores the first post-warm-up value with the rank tail fraction on each side', () => {
    const values = [1, 2, 3, 4, 5, 6, 7, 8, 9];
    const { steps } = trace(values);
    const last = steps[8];
    // 9 exceeds all eight references: p_up = 1/9, p_down = 9/9.
    let expectedUp = 0;
    for (const e of BET_GRID) expectedUp += e * Math.pow(1 / 9, e - 1);
    expectedUp /= 9;
    expect(last.up).toBe(expectedUp);
    expect(last.down).toBe(mixtureBet(1));
    expect(last.statistic).toBeCloseTo(expectedUp, 4);
  });

  it('does not alarm on stationary noise', () => {
    const result = scanChanges(noise(300));
    expect(result.changePoints).toEqual([]);
    expect(['steady', 'watch']).toContain(result.state);
  });

  it('detects a clear level shift and resets after the alarm', () => {
    const values = [...noise(40), ...noise(40, 11).map((v) => v + 50)];
    const { steps, result } = trace(values);
    expect(result.changePoints.length).toBeGreaterThan(0);
    const first = result.changePoints[0];
    expect(first).toBeGreaterThanOrEqual(40);
    expect(first).toBeLessThan(52);
    // After the alarm the reference set restarts, so the next eight values warm up again
    // with both statistics back at zero.
    for (let k = 1; k <= WARMUP_POINTS; k++) {
      expect(steps[first + k].state).toBe('warming_up');
      expect(steps[first + k].statistic).toBe(0);
      expect(steps[first + k].referenceSize).toBe(k - 1);
    }
  });

  it('detects a downward shift as well as an upward one', () => {
    const result = scanChanges([...noise(40), ...noise(20, 3).map((v) => v - 50)]);
    expect(result.changePoints[0]).toBeGreaterThanOrEqual(40);
  });

  it('maps the peak onto watch at 200 and changed at 1000', () => {
    // A steadily rising series keeps landing in the upper tail, so the up statistic climbs
    // through both thresholds.
    const values = Array.from({ length: 200 }, (_, i) => i);
    const { steps } = trace(values);
    let sawWatch = false;
    for (const s of steps) {
      if (s.state === 'warming_up') continue;
      const peak = Math.max(s.up, s.down);
      const expected = peak >= 1000 ? 'changed' : peak >= 200 ? 'watch' : 'steady';
      expect(s.state).toBe(expected);
      if (s.state === 'watch') sawWatch = true;
    }
    expect(sawWatch).toBe(true);
    expect(steps.some((s) => s.state === 'changed')).toBe(true);
  });

  it('reports the peak rounded to four decimals with Python semantics', () => {
    const { steps } = trace([...noise(30), ...noise(10, 5).map((v) => v + 3)]);
    for (const s of steps) {
      const peak = Math.max(s.up, s.down);
      expect(Math.abs(s.statistic - peak)).toBeLessThanOrEqual(0.00005 + 1e-12);
      expect(Number(s.statistic.toFixed(4))).toBe(s.statistic);
    }
  });

  it('matches a direct transcription of the rule, ties and resets included', () => {
    // Linear rank counts and a fresh bet per step: the literal reading of the detector.
    function direct(values: number[]): { states: string[]; stats: number[]; changePoints: number[] } {
      let reference: number[] = [];
      let up = 0;
      let down = 0;
      const states: string[] = [];
      const stats: number[] = [];
      const changePoints: number[] = [];
      values.forEach((x, i) => {
        if (reference.length >= 8) {
          const n = reference.length;
          const pUp = (1 + reference.filter((r) => r >= x).length) / (n + 1);
          const pDown = (1 + reference.filter((r) => r <= x).length) / (n + 1);
          up = Math.min((1 + up) * mixtureBet(pUp), 1e12);
          down = Math.min((1 + down) * mixtureBet(pDown), 1e12);
        }
        const peak = Math.max(up, down);
        const state = reference.length < 8 ? 'warming_up' : peak >= 1000 ? 'changed' : peak >= 200 ? 'watch' : 'steady';
        states.push(state);
        stats.push(peak);
        reference.push(x);
        if (state === 'changed') {
          changePoints.push(i);
          up = 0;
          down = 0;
          reference = [];
        }
      });
      return { states, stats, changePoints };
    }
    const cases = [
      [...noise(60).map((v) => Math.round(v * 4) / 4), ...noise(30, 9).map((v) => Math.round(v * 4) / 4 + 2)],
      Array.from({ length: 300 }, (_, i) => i),
      [...noise(100, 4), ...Array(40).fill(0), -0, 0, ...noise(50, 8).map((v) => v - 5)],
      Array.from({ length: 1200 }, (_, i) => (i % 17) - (i % 5)),
    ];
    for (const values of cases) {
      const expected = direct(values);
      const { steps, result } = trace(values);
      expect(steps.map((s) => s.state)).toEqual(expected.states);
      expect(steps.map((s) => Math.max(s.up, s.down))).toEqual(expected.stats);
      expect(result.changePoints).toEqual(expected.changePoints);
    }
  });

  it('is deterministic and leaves its input untouched', () => {
    const values = [...noise(50), 9, 9, 9];
    const copy = [...values];
    expect(scanChanges(values)).toEqual(scanChanges(values));
    expect(values).toEqual(copy);
  });
});
