import { describe, expect, it } from 'vitest';
import { encodePythonBody } from '../../../src/core/json.js';
import { capabilitiesBody } from '../../../src/http/plugins/analysis.js';
import {
  ANALYSIS_TOOL_NAMES, analysisToolSpec, analysisToolSpecs, defaultsOf, inputSchemaOf, isAnalysisToolName, toolListing,
} from '../../../src/analysis/tools/catalogue.js';
import { fixtureText } from './fixtures.js';

describe('the analysis tool catalogue', () => {
  it('lists the ten tools sorted by name, as the reference does', () => {
    expect(ANALYSIS_TOOL_NAMES).toEqual([
      'ab_test', 'did_it_change', 'dyson_reference', 'forecast_next', 'market_assessment', 'narrative_triage', 'real_or_sampling',
      'score_forecasts', 'spectral_assessment', 'which_metrics_matter',
    ]);
    expect(analysisToolSpecs().map((s) => s.name)).toEqual([...ANALYSIS_TOOL_NAMES]);
    expect(isAnalysisToolName('ab_test')).toBe(true);
    expect(isAnalysisToolName('capabilities')).toBe(false);
    expect(isAnalysisToolName('constructor')).toBe(false);
  });

  it('keeps the entries of the four REST operations byte for byte as /v1/capabilities published them before it listed ten', () => {
    // Recorded from capabilitiesBody when it listed the four REST operations only.
    const before = fixtureText('capabilities-rest-tools.jsonl').trimEnd().split('\n');
    const published = capabilitiesBody(16 * 1024 * 1024).tools as { name: string }[];
    expect(published.map((t) => t.name)).toEqual([...ANALYSIS_TOOL_NAMES]);
    const rest = published.filter((t) => analysisToolSpec(t.name)!.restPath !== undefined);
    expect(rest.map((t) => encodePythonBody(t))).toEqual(before);
    expect(encodePythonBody(toolListing())).toBe(encodePythonBody(published));
    for (const name of ['dyson_reference', 'market_assessment', 'narrative_triage', 'spectral_assessment'] as const) {
      expect(encodePythonBody(defaultsOf(name))).toBe(encodePythonBody((capabilitiesBody(1).defaults as Record<string, object>)[name]));
    }
    expect(analysisToolSpecs().filter((s) => s.restPath !== undefined).map((s) => s.restPath).sort()).toEqual(
      Object.keys(capabilitiesBody(1).rest as object).sort(),
    );
  });

  it('describes each tool, and what its result is not', () => {
    for (const spec of analysisToolSpecs()) {
      expect(spec.title.length, spec.name).toBeGreaterThan(5);
      expect(spec.description.length, spec.name).toBeGreaterThan(80);
      expect(spec.description, spec.name).toMatch(/\bnot\b|\bno\b|\bnever\b|nothing/);
    }
    const describe = (name: string) => analysisToolSpecs().find((s) => s.name === name)!.description;
    expect(describe('did_it_change')).toMatch(/not a calibrated e-value or p-value/);
    expect(describe('real_or_sampling')).toMatch(/never a causal explanation/);
    expect(describe('which_metrics_matter')).toMatch(/valid_evalues=true/);
    expect(describe('forecast_next')).toMatch(/not a guarantee/);
  });

  it('hands out a fresh schema each time: changing one copy does not change the next', () => {
    const first = inputSchemaOf('ab_test') as { properties: Record<string, unknown>; required: unknown };
    delete first.properties.alpha;
    first.required = 'mutated';
    expect(encodePythonBody(inputSchemaOf('ab_test'))).toContain('"alpha": {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1}');
    const listed = toolListing();
    listed[0].input_schema.type = 'array';
    expect(toolListing()[0].input_schema.type).toBe('object');
  });

  it('gives the defaults of the new tools', () => {
    expect(defaultsOf('ab_test')).toEqual({ alpha: 0.05, a_label: 'A', b_label: 'B' });
    expect(defaultsOf('score_forecasts')).toEqual({ nominal: 0.8 });
    expect(defaultsOf('real_or_sampling')).toEqual({});
    expect(encodePythonBody(defaultsOf('dyson_reference'))).toBe('{"dimension": 6, "steps": 40, "dt": 0.05, "seed": 0}');
  });
});
