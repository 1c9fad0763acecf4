import { describe, expect, it } from 'vitest';
import { encodePythonBody, parseStrictJson } from '../../../src/core/json.js';
import { compileValidator } from '../../../src/analysis/validate.js';
import {
  AbTestRequestSchema,
  DidItChangeRequestSchema,
  ForecastRequestSchema,
  RealOrSamplingRequestSchema,
  WhichMetricsMatterRequestSchema,
} from '../../../src/analysis/schemas/tools.js';

// The published input schemas, written out as the reference emits them.
const VALUES = '{"type": "array", "items": {"type": "number"}, "minItems": 1, "maxItems": 2048}';
const OPEN_UNIT = '{"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1}';
const COUNT = '{"type": "integer", "minimum": 0, "maximum": 1000000000000}';
const LABEL = '{"type": "string", "minLength": 1, "maxLength": 128}';
const EXPECTED: [string, object, string][] = [
  [
    'ab_test',
    AbTestRequestSchema,
    `{"type": "object", "properties": {"a_successes": ${COUNT}, "a_total": ${COUNT}, "b_successes": ${COUNT}, "b_total": ${COUNT}, ` +
      `"alpha": ${OPEN_UNIT}, "a_label": ${LABEL}, "b_label": ${LABEL}}, ` +
      '"required": ["a_successes", "a_total", "b_successes", "b_total"], "additionalProperties": false}',
  ],
  [
    'did_it_change',
    DidItChangeRequestSchema,
    `{"type": "object", "properties": {"values": ${VALUES}, "two_sided": {"type": "boolean"}, ` +
      '"half_life": {"type": "number", "exclusiveMinimum": 0}}, "required": ["values"], "additionalProperties": false}',
  ],
  [
    'forecast_next / score_forecasts',
    ForecastRequestSchema,
    `{"type": "object", "properties": {"values": ${VALUES}, "nominal": ${OPEN_UNIT}}, "required": ["values"], "additionalProperties": false}`,
  ],
  [
    'real_or_sampling',
    RealOrSamplingRequestSchema,
    `{"type": "object", "properties": {"values": ${VALUES}, "sample_sizes": {"type": "array", "items": {"type": "number", "exclusiveMinimum": 0}, ` +
      '"minItems": 1, "maxItems": 2048}}, "required": ["values", "sample_sizes"], "additionalProperties": false}',
  ],
  [
    'which_metrics_matter',
    WhichMetricsMatterRequestSchema,
    '{"type": "object", "properties": {"evidence": {"type": "object", "minProperties": 1, "maxProperties": 128, ' +
      '"additionalProperties": {"type": "number", "minimum": 0}}, "alpha": ' +
      OPEN_UNIT +
      ', "valid_evalues": {"type": "boolean"}}, "required": ["evidence"], "additionalProperties": false}',
  ],
];

describe('the six tool request schemas', () => {
  it.each(EXPECTED)('%s is the published schema, key for key and in order', (_name, schema, text) => {
    expect(encodePythonBody(schema)).toBe(text);
  });
});

function issue(schema: object, body: string) {
  return compileValidator(schema).issue(parseStrictJson(body));
}

describe('validation of the tool requests: the reference order, our messages, a JSON pointer', () => {
  it('checks every required member before any member, then members in written order', () => {
    expect(issue(AbTestRequestSchema, '{"a_total": -1}')).toMatchObject({ path: '/a_successes', message: expect.stringMatching(/^input\.a_successes: /) });
    const counts = '"a_successes": 1, "a_total": 2, "b_successes": 1, "b_total": 2';
    expect(issue(AbTestRequestSchema, `{${counts}, "zzz": 1, "alpha": 2}`)).toMatchObject({ path: '/zzz', message: expect.stringMatching(/^input: unknown field "zzz"/) });
    expect(issue(AbTestRequestSchema, `{${counts}, "alpha": 2, "zzz": 1}`)).toMatchObject({ path: '/alpha', message: 'input.alpha: violates exclusiveMaximum 1' });
  });

  it('prints bounds as the integers they are', () => {
    expect(issue(AbTestRequestSchema, '{"a_successes": 1, "a_total": 1000000000001, "b_successes": 1, "b_total": 2}')?.message).toBe(
      'input.a_total: violates maximum 1000000000000',
    );
    expect(issue(ForecastRequestSchema, '{"values": [1], "nominal": 0}')?.message).toBe('input.nominal: violates exclusiveMinimum 0');
  });

  it.each([
    ['-1', 'violates minimum 0'],
    ['1.5', 'expected integer'],
    ['10.0', 'expected integer'],
    ['1e1', 'expected integer'],
    ['true', 'expected integer'],
    ['"3"', 'expected integer'],
    ['null', 'expected integer'],
  ])('refuses the count %s (%s)', (count, text) => {
    expect(issue(AbTestRequestSchema, `{"a_successes": 0, "a_total": ${count}, "b_successes": 0, "b_total": 1}`)).toMatchObject({
      code: 'invalid_input',
      path: '/a_total',
      message: `input.a_total: ${text}`,
    });
  });

  it.each([
    ['{"values": [1, true]}', '/values/1', 'expected number'],
    ['{"values": [1, "1"]}', '/values/1', 'expected number'],
    ['{"values": [1, null]}', '/values/1', 'expected number'],
    ['{"values": "not a list"}', '/values', 'expected array'],
    ['{"values": []}', '/values', 'must hold between 1 and 2048 items'],
    ['{"values": [1], "half_life": null}', '/half_life', 'expected number'],
    ['{"values": [1], "half_life": 0}', '/half_life', 'violates exclusiveMinimum 0'],
    ['{"values": [1], "half_life": true}', '/half_life', 'expected number'],
    ['{"values": [1], "two_sided": "false"}', '/two_sided', 'expected boolean'],
    ['{"values": [1], "trade": 1}', '/trade', expect.stringMatching(/^unknown field "trade"/)],
  ])('did_it_change refuses %s', (body, path, text) => {
    const found = issue(DidItChangeRequestSchema, body);
    expect(found?.path).toBe(path);
    expect(found?.message.replace(/^input[^:]*: /, '')).toEqual(text);
  });

  it('refuses 2049 values and accepts 2048', () => {
    const many = (n: number) => JSON.stringify({ values: Array.from({ length: n }, (_, i) => i) });
    expect(issue(DidItChangeRequestSchema, many(2049))?.path).toBe('/values');
    expect(issue(DidItChangeRequestSchema, many(2048))).toBeUndefined();
  });

  it('refuses a zero or negative sample size at its index', () => {
    expect(issue(RealOrSamplingRequestSchema, '{"values": [1, 2], "sample_sizes": [1, 0]}')).toMatchObject({
      path: '/sample_sizes/1',
      message: 'input.sample_sizes[1]: violates exclusiveMinimum 0',
    });
  });

  it('checks every evidence member, whatever its name, against the member schema', () => {
    expect(issue(WhichMetricsMatterRequestSchema, '{"evidence": {}}')).toMatchObject({ path: '/evidence', message: expect.stringMatching(/^input\.evidence: /) });
    expect(issue(WhichMetricsMatterRequestSchema, '{"evidence": {"x": -1}}')).toMatchObject({ path: '/evidence/x', message: 'input.evidence.x: violates minimum 0' });
    expect(issue(WhichMetricsMatterRequestSchema, '{"evidence": {"a/b": true}}')).toMatchObject({ path: '/evidence/a~1b', message: 'input.evidence.a/b: expected number' });
    expect(issue(WhichMetricsMatterRequestSchema, '{"evidence": {"x": 1}, "valid_evalues": "true"}')).toMatchObject({ path: '/valid_evalues' });
    // An empty name passes the schema (the tool refuses it).
    expect(issue(WhichMetricsMatterRequestSchema, '{"evidence": {"": 1}}')).toBeUndefined();
    const many = JSON.stringify({ evidence: Object.fromEntries(Array.from({ length: 129 }, (_, i) => [`m${i}`, 1])) });
    expect(issue(WhichMetricsMatterRequestSchema, many)?.path).toBe('/evidence');
  });

  it('reports the first bad evidence member in written order, even when names look like indices', () => {
    expect(issue(WhichMetricsMatterRequestSchema, '{"evidence": {"b": -1, "2": -1}}')?.path).toBe('/evidence/b');
    expect(issue(WhichMetricsMatterRequestSchema, '{"evidence": {"7": -1, "3": "x"}}')?.path).toBe('/evidence/7');
  });

  it('refuses a member name longer than 128 code points but accepts 128 astral ones', () => {
    const long = 'x'.repeat(129);
    expect(issue(WhichMetricsMatterRequestSchema, `{"evidence": {"${long}": 1}}`)).toMatchObject({ path: '/evidence' });
    const astral = '😀'.repeat(128);
    expect(issue(WhichMetricsMatterRequestSchema, `{"evidence": {"${astral}": 1}}`)).toBeUndefined();
  });

  it('counts label lengths in code points', () => {
    const counts = '"a_successes": 1, "a_total": 2, "b_successes": 1, "b_total": 2';
    expect(issue(AbTestRequestSchema, `{${counts}, "a_label": "${'😀'.repeat(128)}"}`)).toBeUndefined();
    expect(issue(AbTestRequestSchema, `{${counts}, "a_label": "${'😀'.repeat(129)}"}`)?.path).toBe('/a_label');
    expect(issue(AbTestRequestSchema, `{${counts}, "a_label": ""}`)?.path).toBe('/a_label');
  });

  it('answers a non-object body at the root', () => {
    expect(issue(AbTestRequestSchema, 'null')).toMatchObject({ path: '', message: 'input: expected object' });
    expect(issue(AbTestRequestSchema, '[]')).toMatchObject({ path: '', message: 'input: expected object' });
  });
});
