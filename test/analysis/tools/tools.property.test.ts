// Property tests over the tool dispatcher: schema-valid arguments never fail unexpectedly
// (a result, or a 422 with a registry code and a JSON pointer), give byte-identical bodies
// twice, and encode to strict JSON that re-encodes to the same bytes; arbitrary JSON never
// escapes as anything but a coded 4xx.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isAppError } from '../../../src/core/errors.js';
import { encodePythonBody, parseStrictJson } from '../../../src/core/json.js';
import { ANALYSIS_TOOL_NAMES } from '../../../src/analysis/tools/catalogue.js';
import { runAnalysisTool } from '../../../src/analysis/tools/dispatch.js';
import { ARGUMENTS, write } from './arbitraries.js';

const RUNS = 150;

const DOMAIN_CODES = new Set(['successes_exceed_total', 'invalid_arm_labels', 'alpha_too_small', 'length_mismatch', 'empty_metric_name', 'derived_statistic_overflow', 'lone_surrogate']);

describe('the tool dispatcher under random valid arguments', () => {
  it.each(Object.keys(ARGUMENTS))('%s: a result or a coded 422 with a pointer, the same bytes twice', (tool) => {
    fc.assert(
      fc.property(ARGUMENTS[tool], (args) => {
        const text = write(args);
        let first: string;
        try {
          first = runAnalysisTool(tool, parseStrictJson(text)).body;
        } catch (error) {
          if (!isAppError(error)) throw error;
          expect(error.status, `${error.code}: ${error.message}`).toBe(422);
          expect(DOMAIN_CODES.has(error.code), `${error.code}: ${error.message}`).toBe(true);
          expect(error.path, error.code).toMatch(/^(\/.*)?$/);
          if (error.code !== 'lone_surrogate' && tool !== 'dyson_reference') expect(error.path, error.code).toBeDefined();
          return;
        }
        expect(runAnalysisTool(tool, parseStrictJson(text)).body).toBe(first);
        expect(encodePythonBody(parseStrictJson(first))).toBe(first);
      }),
      { numRuns: RUNS },
    );
  });
});

describe('the tool dispatcher under arbitrary JSON', () => {
  it('answers every tool name and value with a result or a coded 4xx, never anything else', () => {
    const name = fc.oneof(fc.constantFrom(...ANALYSIS_TOOL_NAMES), fc.string({ maxLength: 8 }));
    fc.assert(
      fc.property(name, fc.jsonValue({ maxDepth: 3 }), (tool, value) => {
        try {
          runAnalysisTool(tool, parseStrictJson(JSON.stringify(value ?? null)));
        } catch (error) {
          if (!isAppError(error)) throw error;
          expect(error.status).toBeGreaterThanOrEqual(400);
          expect(error.status).toBeLessThan(500);
        }
      }),
      { numRuns: 400 },
    );
  });
});
