// Loads the CPython values written by scripts/gen-analysis-tool-fixtures.py.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('../../fixtures/analysis/', import.meta.url));

export function loadToolFixture<T>(name: string): T {
  return JSON.parse(readFileSync(dir + name, 'utf8')) as T;
}

export function fixtureText(name: string): string {
  return readFileSync(dir + name, 'utf8');
}

export interface SpecialFunctions {
  /** [x, glibc log(x), correctly rounded ln x] */
  log: [number, number, number][];
  log1p: [number, number][];
  /** [base, exponent, glibc pow] */
  pow: [number, number, number][];
  /** [k, (1 + 0.01 k) ** 0.5] */
  step_root: [number, number][];
  /** [x, math.lgamma(x), whether glibc's logs inside were correctly rounded] */
  lgamma: [number, number, boolean][];
  pyround: [number, number, number][];
  /** [x, '%g', '%.4g', '%.2f', '%.1f'] */
  format: [number, string, string, string, string][];
}

/** Acceptance-case series drawn from random.Random(seed) in CPython. */
export interface ToolSeries {
  did_it_change_seed4: number[];
  score_forecasts_seed3: number[];
  score_forecasts_seed17: number[];
  score_forecasts_seed193_walk: number[];
  score_forecasts_seed7: number[];
  did_it_change_iid_seed11_plus_t: number[][];
  did_it_change_seed3_up: number[];
  did_it_change_seed3_down: number[];
}

export interface OracleCase {
  tool: string;
  /** The request exactly as written (int and float tokens as Python printed them). */
  request: string;
  /** JSON text: {"result": …} with prose as "«p»", or {"error": kind, "detail": …}. */
  expected: string;
}

export const PROSE = '\u00abp\u00bb';

/** Relative difference with an absolute floor near zero (the spec's 1e-9 / 1e-12 rule). */
export function relativeDifference(a: number, b: number): number {
  if (Object.is(a, b) || a === b) return 0;
  return Math.abs(a - b) / Math.max(Math.abs(a), Math.abs(b), 1e-3);
}
