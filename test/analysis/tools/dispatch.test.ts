// The single tool entry point: the four REST operations give exactly the bytes and errors
// their routes give today, every tool refuses bad arguments with a registry code, and an
// unknown name is a 404 code of its own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError, lookupError } from '../../../src/core/errors.js';
import { parseStrictJson } from '../../../src/core/json.js';
import { ANALYSIS_TOOL_NAMES } from '../../../src/analysis/tools/catalogue.js';
import { outcomeBytes, runAnalysisTool } from '../../../src/analysis/tools/dispatch.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { narrativeRequest, seriesRequest } from '../../helpers/analysis-requests.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp({ maxEventLoopDelay: 0 });
});
afterAll(async () => t.close());

const CLOCK = '2026-10-08T09:00:00Z';
const ROUTES: Record<string, string> = {
  market_assessment: '/v1/market/assess',
  narrative_triage: '/v1/narrative/triage',
  spectral_assessment: '/v1/spectral/assess',
  dyson_reference: '/v1/research/dyson',
};

function outcomeOf(tool: string, text: string): { status: number; body: unknown } {
  try {
    return { status: 200, body: runAnalysisTool(tool, parseStrictJson(text)).body };
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const body: Record<string, unknown> = { error: error.message, code: error.code };
    if (error.path !== undefined) body.path = error.path;
    return { status: error.status, body };
  }
}

const SERIES = JSON.stringify(seriesRequest({ series: 4, points: 90, allFields: true }));
const duplicateIds = JSON.stringify({ series: [seriesRequest({ series: 1, points: 5 }).series[0], seriesRequest({ series: 1, points: 5 }).series[0]], as_of: CLOCK });

describe('the four REST operations through the dispatcher', () => {
  it.each([
    ['market_assessment', `{"series": [], "as_of": "${CLOCK}"}`],
    ['market_assessment', SERIES],
    ['market_assessment', duplicateIds],
    ['market_assessment', `{"series": [], "as_of": "${CLOCK}", "policy": {"move_threshold": 3}}`],
    ['market_assessment', `{"series": [], "as_of": "2026-13-01T00:00:00Z"}`],
    ['narrative_triage', JSON.stringify(narrativeRequest({ events: 40, titleLength: 60 }))],
    ['narrative_triage', `{"events": [], "as_of": "${CLOCK}", "focus": ["\\ud800"]}`],
    ['spectral_assessment', JSON.stringify({ ...seriesRequest({ series: 5, points: 130 }), policy: { window_points: 60, step_points: 60, max_windows: 2 } })],
    ['spectral_assessment', `{"series": [], "as_of": "${CLOCK}", "policy": {"window_points": 10}}`],
    ['dyson_reference', '{"dimension": 3, "steps": 5, "seed": 6116}'],
    ['dyson_reference', '{"dimension": 3.0}'],
    ['dyson_reference', '[]'],
  ])('%s gives the route\'s status, bytes and error body for %#', async (tool, text) => {
    const res = await t.app.inject({ method: 'POST', url: ROUTES[tool], payload: text, headers: { 'content-type': 'application/json' } });
    const ours = outcomeOf(tool, text);
    expect(ours.status).toBe(res.statusCode);
    if (res.statusCode === 200) expect(ours.body).toBe(res.body);
    else expect(ours.body).toEqual(res.json());
  });
});

describe('runAnalysisTool', () => {
  it('answers an unknown tool with a 404 code, before looking at the arguments', () => {
    for (const name of ['nope', 'capabilities', '__proto__', 'toString', '']) {
      expect(() => runAnalysisTool(name, {}), name).toThrowError(expect.objectContaining({ status: 404, code: 'unknown_tool' }));
    }
  });

  it.each(ANALYSIS_TOOL_NAMES)('%s refuses a non-object and names its first required member for {}', (tool) => {
    for (const args of [null, [], 'x', 3]) {
      expect(() => runAnalysisTool(tool, args)).toThrowError(expect.objectContaining({ status: 422, code: 'invalid_input', path: '' }));
    }
    let error: AppError | undefined;
    try {
      runAnalysisTool(tool, {});
    } catch (e) {
      error = e as AppError;
    }
    if (tool === 'dyson_reference') expect(error).toBeUndefined(); // every member is optional
    else expect(error).toMatchObject({ status: 422, code: 'invalid_input', message: expect.stringMatching(/^input\.\w+: /) });
  });

  it('returns the result, its Python encoding and the bytes of that encoding', () => {
    const outcome = runAnalysisTool('which_metrics_matter', parseStrictJson('{"evidence": {"x": 3}}'));
    expect(outcome.status).toBe(200);
    expect((outcome.result as { descriptive_mean: number }).descriptive_mean).toBe(3);
    expect(outcome.body).toContain('"descriptive_mean": 3.0');
    expect(outcomeBytes(outcome).equals(Buffer.from(outcome.body, 'utf8'))).toBe(true);
  });

  it('reports unpaired surrogates in labels or names as lone_surrogate', () => {
    expect(() => runAnalysisTool('ab_test', parseStrictJson('{"a_successes": 1, "a_total": 2, "b_successes": 1, "b_total": 2, "a_label": "\\udc00"}'))).toThrowError(
      expect.objectContaining({ status: 422, code: 'lone_surrogate', path: '/a_label' }),
    );
    expect(() => runAnalysisTool('which_metrics_matter', parseStrictJson('{"evidence": {"\\ud800x": 1}}'))).toThrowError(
      expect.objectContaining({ status: 422, code: 'lone_surrogate', path: '/evidence/\ud800x' }),
    );
  });

  it('every code it can raise is in the error registry with a 4xx status', () => {
    for (const code of ['unknown_tool', 'successes_exceed_total', 'invalid_arm_labels', 'alpha_too_small', 'length_mismatch', 'empty_metric_name', 'derived_statistic_overflow', 'invalid_input', 'lone_surrogate']) {
      const def = lookupError(code);
      expect(def, code).toBeDefined();
      expect(def!.status).toBeGreaterThanOrEqual(400);
      expect(def!.status).toBeLessThan(500);
    }
  });
});
