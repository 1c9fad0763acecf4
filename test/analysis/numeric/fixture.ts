// Loads the CPython reference values produced by
// test/fixtures/analysis/generate_numeric_fixtures.py.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('../../fixtures/analysis/', import.meta.url));

export function loadFixture<T>(name: string): T {
  return JSON.parse(readFileSync(dir + name, 'utf8')) as T;
}

export interface NumericReference {
  hypot: [number, number][];
  round15: [number, number][];
  round4: [number, number][];
  ulp: [number, number][];
  fsum: [number[], number | null][];
}

export interface MtReference {
  random: Record<string, number[]>;
  uint32: Record<string, number[]>;
  gauss: Record<string, number[]>;
}
