import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/core/errors.js';
import { cloneJson, markFloat, parseStrictJson } from '../../src/core/json.js';
import { compileValidator, type Validator } from '../../src/analysis/validate.js';
import {
  DysonRequestSchema,
  MarketRequestSchema,
  NarrativeRequestSchema,
  SpectralRequestSchema,
} from '../../src/analysis/schemas/index.js';

const market: Validator<unknown> = compileValidator(MarketRequestSchema);
const spectral: Validator<unknown> = compileValidator(SpectralRequestSchema);
const narrative: Validator<unknown> = compileValidator(NarrativeRequestSchema);
const dyson: Validator<unknown> = compileValidator(DysonRequestSchema);

const CLOCK = '2026-10-08T09:00:00Z';
const ASTRAL = '\u{1D538}'; // one code point, two UTF-16 units

function observation(i: number): Record<string, unknown> {
  return { observed_at: `2026-10-08T0${i}:00:00Z`, value: 10 + i, available_at: `2026-10-08T0${i}:00:01+00:00`, sample_size: 5 };
}

function seriesBase(): Record<string, unknown> {
  return {
    series: [
      {
        id: 'a',
        kind: 'price',
        unit: 'USD',
        source: { id: 'src', rights: 'permitted', url: 'https://example.org' },
        max_age_seconds: 3600,
        max_gap_seconds: 7200,
        group: 'g',
        observations: [observation(1), observation(2)],
      },
    ],
    as_of: CLOCK,
    policy: {},
  };
}

function narrativeBase(): Record<string, unknown> {
  return {
    events: [
      {
        id: 'e1',
        title: 'Bank raises rates',
        published_at: CLOCK,
        available_at: CLOCK,
        entities: ['bank-a'],
        source: { id: 'wire', kind: 'primary', url: 'https://example.org/1', family: 'wire' },
        event_key: 'k',
      },
    ],
    as_of: CLOCK,
    focus: ['bank-a'],
    policy: {},
  };
}

type Step = string | number;

function steps(pointer: string): Step[] {
  return pointer
    .split('/')
    .slice(1)
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

/** A copy of `base` with the value at `pointer` replaced (`float` marks an integral float). */
function withValue(base: unknown, pointer: string, value: unknown, options: { float?: boolean } = {}): unknown {
  const copy = cloneJson(base);
  const path = steps(pointer);
  let target = copy as Record<Step, unknown>;
  for (const s of path.slice(0, -1)) target = target[s] as Record<Step, unknown>;
  const last = path[path.length - 1];
  target[last] = value;
  if (options.float) markFloat(target, last);
  return copy;
}

function without(base: unknown, pointer: string): unknown {
  const copy = cloneJson(base);
  const path = steps(pointer);
  let target = copy as Record<Step, unknown>;
  for (const s of path.slice(0, -1)) target = target[s] as Record<Step, unknown>;
  delete target[path[path.length - 1]];
  return copy;
}

type V = Validator<unknown>;

function expectValid(v: V, value: unknown): void {
  expect(v.issue(value)).toBeUndefined();
}

function expectIssue(v: V, value: unknown, message: string | RegExp, path?: string): void {
  const found = v.issue(value);
  expect(found, 'expected a validation issue').toBeDefined();
  expect(found!.code).toBe('invalid_input');
  if (typeof message === 'string') expect(found!.message).toBe(message);
  else expect(found!.message).toMatch(message);
  if (path !== undefined) expect(found!.path).toBe(path);
}

describe('validator: types', () => {
  it('accepts only integer tokens where the schema says integer (3.0 is a float)', () => {
    expectValid(dyson, parseStrictJson('{"dimension": 3}'));
    expectIssue(dyson, parseStrictJson('{"dimension": 3.0}'), 'input.dimension: expected integer', '/dimension');
    expectIssue(dyson, parseStrictJson('{"steps": 1e1}'), 'input.steps: expected integer', '/steps');
    expectIssue(dyson, parseStrictJson('{"seed": 2.5}'), 'input.seed: expected integer', '/seed');
  });

  it('never takes a boolean or a numeric string for a number', () => {
    expectIssue(dyson, { dimension: true }, 'input.dimension: expected integer');
    expectIssue(dyson, { dt: true }, 'input.dt: expected number');
    expectIssue(dyson, { dt: '0.1' }, 'input.dt: expected number');
    const base = seriesBase();
    expectIssue(market, withValue(base, '/series/0/observations/1/value', true), 'input.series[0].observations[1].value: expected number or null', '/series/0/observations/1/value');
    expectIssue(market, withValue(base, '/series/0/observations/1/value', '10'), 'input.series[0].observations[1].value: expected number or null');
  });

  it('accepts either kind of number for type number, and null where null is allowed', () => {
    const base = seriesBase();
    expectValid(market, withValue(base, '/series/0/observations/0/value', 3, { float: true }));
    expectValid(market, withValue(base, '/series/0/observations/0/value', null));
    expectValid(market, withValue(base, '/series/0/observations/0/sample_size', null));
    expectValid(dyson, parseStrictJson('{"dt": 1}'));
  });

  it('requires an object at the top and refuses arrays, strings, numbers and null there', () => {
    for (const body of [[], 'text', 1, null, true]) expectIssue(dyson, body, 'input: expected object', '');
  });

  it('reports a value outside an enumeration', () => {
    expectIssue(market, withValue(seriesBase(), '/series/0/kind', 'stock'), /^input\.series\[0\]\.kind: must be one of "price", "return", "level", "spread", "rate", "count"$/);
    expectIssue(market, withValue(seriesBase(), '/series/0/source/rights', 'open'), /^input\.series\[0\]\.source\.rights: must be one of/, '/series/0/source/rights');
    expectIssue(narrative, withValue(narrativeBase(), '/events/0/source/kind', 'blog'), /^input\.events\[0\]\.source\.kind: must be one of/);
    // The type is checked before the enumeration.
    expectIssue(market, withValue(seriesBase(), '/series/0/kind', 1), 'input.series[0].kind: expected string');
  });

  it('accepts null before applying numeric bounds (sample_size null passes exclusiveMinimum)', () => {
    expectValid(market, withValue(seriesBase(), '/series/0/observations/0/sample_size', null));
    expectIssue(market, withValue(seriesBase(), '/series/0/observations/0/sample_size', 0), 'input.series[0].observations[0].sample_size: violates exclusiveMinimum 0');
  });
});

describe('validator: numeric bounds printed the Python way', () => {
  it.each([
    ['dimension', 1, 'violates minimum 2'],
    ['dimension', 17, 'violates maximum 16'],
    ['steps', 0, 'violates minimum 1'],
    ['steps', 101, 'violates maximum 100'],
    ['dt', 0, 'violates minimum 1e-06'],
    ['dt', 1.0000001, 'violates maximum 1'],
    ['seed', -1, 'violates minimum 0'],
    ['seed', 4294967296, 'violates maximum 4294967295'],
  ])('dyson %s = %s → %s', (key, value, text) => {
    expectIssue(dyson, { [key]: value }, `input.${key}: ${text}`, `/${key}`);
  });

  it.each([
    ['dimension', 2], ['dimension', 16], ['steps', 1], ['steps', 100], ['dt', 1e-6], ['dt', 1], ['seed', 0], ['seed', 4294967295],
  ])('dyson %s = %s is inside the bounds', (key, value) => {
    expectValid(dyson, { [key]: value });
  });

  it('accepts an empty dyson request (every member has a default) and refuses unknown members', () => {
    expectValid(dyson, {});
    expectIssue(dyson, { buy: true }, /^input: unknown field "buy"/, '/buy');
  });

  it('checks the market policy bounds', () => {
    const base = seriesBase();
    const cases: [string, unknown, string | null, boolean?][] = [
      ['baseline_points', 9, 'violates minimum 10'],
      ['baseline_points', 10, null],
      ['baseline_points', 256, null],
      ['baseline_points', 257, 'violates maximum 256'],
      ['baseline_points', 30, 'expected integer', true],
      ['recent_points', 0, 'violates minimum 1'],
      ['recent_points', 1, null],
      ['recent_points', 32, null],
      ['recent_points', 33, 'violates maximum 32'],
      ['move_threshold', 0, 'violates exclusiveMinimum 0'],
      ['move_threshold', -1, 'violates exclusiveMinimum 0'],
      ['move_threshold', 1e-9, null],
      ['move_threshold', 3, null],
      ['volatility_ratio', 1, 'violates exclusiveMinimum 1'],
      ['volatility_ratio', 1.0001, null],
      ['coverage_drop_fraction', -0.1, 'violates minimum 0'],
      ['coverage_drop_fraction', 0, null],
      ['coverage_drop_fraction', 1, null],
      ['coverage_drop_fraction', 1.01, 'violates maximum 1'],
    ];
    for (const [key, value, text, float] of cases) {
      const request = withValue(base, `/policy/${key}`, value, { float });
      if (text === null) expectValid(market, request);
      else expectIssue(market, request, `input.policy.${key}: ${text}`, `/policy/${key}`);
    }
  });

  it('checks the spectral policy bounds', () => {
    const base = seriesBase();
    const cases: [string, number, string | null][] = [
      ['window_points', 19, 'violates minimum 20'],
      ['window_points', 20, null],
      ['window_points', 512, null],
      ['window_points', 513, 'violates maximum 512'],
      ['step_points', 0, 'violates minimum 1'],
      ['step_points', 1, null],
      ['step_points', 512, null],
      ['step_points', 513, 'violates maximum 512'],
      ['max_windows', 0, 'violates minimum 1'],
      ['max_windows', 1, null],
      ['max_windows', 8, null],
      ['max_windows', 9, 'violates maximum 8'],
    ];
    for (const [key, value, text] of cases) {
      const request = withValue(base, `/policy/${key}`, value);
      if (text === null) expectValid(spectral, request);
      else expectIssue(spectral, request, `input.policy.${key}: ${text}`);
    }
    expectIssue(spectral, withValue(base, '/policy/move_threshold', 3), /^input\.policy: unknown field "move_threshold"/, '/policy/move_threshold');
  });

  it('checks the narrative policy bounds', () => {
    const base = narrativeBase();
    const cases: [string, number, string | null][] = [
      ['max_age_seconds', 0, 'violates exclusiveMinimum 0'],
      ['max_age_seconds', 0.5, null],
      ['max_items', 0, 'violates minimum 1'],
      ['max_items', 1, null],
      ['max_items', 100, null],
      ['max_items', 101, 'violates maximum 100'],
      ['similarity_threshold', 0.49, 'violates minimum 0.5'],
      ['similarity_threshold', 0.5, null],
      ['similarity_threshold', 1, null],
      ['similarity_threshold', 1.01, 'violates maximum 1'],
    ];
    for (const [key, value, text] of cases) {
      const request = withValue(base, `/policy/${key}`, value);
      if (text === null) expectValid(narrative, request);
      else expectIssue(narrative, request, `input.policy.${key}: ${text}`);
    }
  });

  it('checks the series positive durations', () => {
    for (const key of ['max_age_seconds', 'max_gap_seconds']) {
      expectIssue(market, withValue(seriesBase(), `/series/0/${key}`, 0), `input.series[0].${key}: violates exclusiveMinimum 0`);
      expectIssue(market, withValue(seriesBase(), `/series/0/${key}`, -5), `input.series[0].${key}: violates exclusiveMinimum 0`);
      expectValid(market, withValue(seriesBase(), `/series/0/${key}`, 1e-300));
    }
  });

  it('refuses non-finite numbers that did not come from JSON', () => {
    expectIssue(market, withValue(seriesBase(), '/series/0/observations/0/value', Number.POSITIVE_INFINITY), /value: must be a finite number$/);
    expectIssue(dyson, { dt: Number.NaN }, /^input\.dt: must be a finite number$/);
  });
});

describe('validator: string lengths count code points', () => {
  const lengthCases: [string, string, V, () => unknown, number, number][] = [
    ['series id', '/series/0/id', market, seriesBase, 1, 128],
    ['unit', '/series/0/unit', market, seriesBase, 1, 64],
    ['group', '/series/0/group', market, seriesBase, 1, 128],
    ['source id', '/series/0/source/id', market, seriesBase, 1, 128],
    ['source url', '/series/0/source/url', market, seriesBase, 1, 2048],
    ['spectral series id', '/series/0/id', spectral, seriesBase, 1, 128],
    ['event id', '/events/0/id', narrative, narrativeBase, 1, 128],
    ['title', '/events/0/title', narrative, narrativeBase, 1, 2000],
    ['entity', '/events/0/entities/0', narrative, narrativeBase, 1, 128],
    ['event source id', '/events/0/source/id', narrative, narrativeBase, 1, 128],
    ['event source url', '/events/0/source/url', narrative, narrativeBase, 1, 2048],
    ['event source family', '/events/0/source/family', narrative, narrativeBase, 1, 128],
    ['event key', '/events/0/event_key', narrative, narrativeBase, 1, 128],
    ['focus entry', '/focus/0', narrative, narrativeBase, 1, 128],
  ];

  it.each(lengthCases)('%s: %s holds between min and max code points, astral characters counting once', (_name, pointer, v, base, min, max) => {
    expectValid(v, withValue(base(), pointer, 'x'.repeat(max)));
    expectValid(v, withValue(base(), pointer, ASTRAL.repeat(max)));
    expectValid(v, withValue(base(), pointer, 'y'.repeat(min)));
    const expected = new RegExp(`: must be between ${min} and ${max} characters long`);
    expectIssue(v, withValue(base(), pointer, 'x'.repeat(max + 1)), expected, pointer);
    expectIssue(v, withValue(base(), pointer, ASTRAL.repeat(max + 1)), expected, pointer);
    expectIssue(v, withValue(base(), pointer, ''), expected, pointer);
  });

  it('treats a 2000-character title of astral characters (4000 UTF-16 units) as 2000 long', () => {
    const title = ASTRAL.repeat(2000);
    expect(title.length).toBe(4000);
    expectValid(narrative, withValue(narrativeBase(), '/events/0/title', title));
  });

  it('bounds member names at 128 code points before looking them up', () => {
    const long = 'k'.repeat(129);
    expectIssue(dyson, { [long]: 1 }, 'input: member names must be at most 128 characters long', '');
    expectIssue(dyson, { ['k'.repeat(128)]: 1 }, /^input: unknown field "k{128}"/);
    expectIssue(dyson, { [ASTRAL.repeat(128)]: 1 }, /^input: unknown field/);
  });
});

describe('validator: clocks', () => {
  it.each([
    '2026-10-08T09:00:00Z',
    '2026-10-08T09:00:00+00:00',
    '2026-10-08T09:00:00.1Z',
    '2026-10-08T09:00:00.12Z',
    '2026-10-08T09:00:00.123Z',
    '2026-10-08T09:00:00.1234+00:00',
    '2026-10-08T09:00:00.12345Z',
    '2026-10-08T09:00:00.123456+00:00',
    '2024-02-29T23:59:59Z',
    '0001-01-01T00:00:00Z',
    '9999-12-31T23:59:59.999999Z',
  ])('accepts %s', (clock) => {
    expectValid(market, withValue(seriesBase(), '/as_of', clock));
    expectValid(narrative, withValue(narrativeBase(), '/events/0/published_at', clock));
  });

  it.each([
    '2026-10-08',
    '2026-10-08T01:00:00',
    '2026-10-08T01:00:00+01:00',
    '2026-10-08T01:00:00-00:00',
    '2026-10-08T01:00:00+0000',
    'bad',
    '2026-10-08T09:00:00.1234567Z',
    '2026-10-08t09:00:00Z',
    '2026-10-08T09:00:00z',
    '2026-10-08 09:00:00Z',
    '2026-10-08T09:00Z',
    '2026-02-29T00:00:00Z',
    '2026-13-01T00:00:00Z',
    '2026-04-31T00:00:00Z',
    '2026-10-08T24:00:00Z',
    '2026-10-08T23:60:00Z',
    '2026-10-08T23:59:60Z',
    '0000-01-01T00:00:00Z',
    '2026-10-08T09:00:00.Z',
    '\u0662026-10-08T09:00:00Z',
  ])('refuses %s as a clock', (clock) => {
    expectIssue(market, withValue(seriesBase(), '/as_of', clock), /^input\.as_of: must be a UTC timestamp/, '/as_of');
    expectIssue(market, withValue(seriesBase(), '/series/0/observations/1/available_at', clock), /^input\.series\[0\]\.observations\[1\]\.available_at: must be a UTC timestamp/);
  });

  it('checks a clock’s length (1 to 64) before its format', () => {
    expectIssue(market, withValue(seriesBase(), '/as_of', ''), /^input\.as_of: must be between 1 and 64 characters long/);
    expectIssue(market, withValue(seriesBase(), '/as_of', '2'.repeat(65)), /^input\.as_of: must be between 1 and 64 characters long/);
    expectIssue(market, withValue(seriesBase(), '/as_of', '2'.repeat(64)), /^input\.as_of: must be a UTC timestamp/);
  });
});

describe('validator: arrays and objects', () => {
  it('bounds the number of series at 32 and observations at 2048', () => {
    const base = seriesBase() as { series: Record<string, unknown>[] };
    const many = (n: number) => ({ ...base, series: Array.from({ length: n }, (_, i) => ({ ...base.series[0], id: `s${i}` })) });
    expectValid(market, many(0));
    expectValid(market, many(32));
    expectIssue(market, many(33), 'input.series: must hold between 0 and 32 items', '/series');
    expectIssue(spectral, many(33), 'input.series: must hold between 0 and 32 items', '/series');
    const points = (n: number) => withValue(base, '/series/0/observations', Array.from({ length: n }, () => ({ observed_at: CLOCK, value: 1 })));
    expectValid(market, points(0));
    expectValid(market, points(2048));
    expectIssue(market, points(2049), 'input.series[0].observations: must hold between 0 and 2048 items', '/series/0/observations');
  });

  it('bounds events at 500, entities and focus at 64', () => {
    const base = narrativeBase() as { events: Record<string, unknown>[] };
    const events = (n: number) => ({ ...base, events: Array.from({ length: n }, (_, i) => ({ ...base.events[0], id: `e${i}` })) });
    expectValid(narrative, events(0));
    expectValid(narrative, events(500));
    expectIssue(narrative, events(501), 'input.events: must hold between 0 and 500 items', '/events');
    const list = (n: number) => Array.from({ length: n }, (_, i) => `x${i}`);
    expectValid(narrative, withValue(base, '/events/0/entities', []));
    expectValid(narrative, withValue(base, '/events/0/entities', list(64)));
    expectIssue(narrative, withValue(base, '/events/0/entities', list(65)), 'input.events[0].entities: must hold between 0 and 64 items');
    expectValid(narrative, withValue(base, '/focus', []));
    expectValid(narrative, withValue(base, '/focus', list(64)));
    expectIssue(narrative, withValue(base, '/focus', list(65)), 'input.focus: must hold between 0 and 64 items', '/focus');
  });

  it('checks items in order and stops at the first bad one', () => {
    const base = seriesBase();
    const request = withValue(withValue(base, '/series/0/observations/0/value', 'x'), '/series/0/observations/1/observed_at', 'bad');
    expectIssue(market, request, 'input.series[0].observations[0].value: expected number or null', '/series/0/observations/0/value');
  });

  it.each([
    ['top level', '/extra'],
    ['policy', '/policy/extra'],
    ['series', '/series/0/extra'],
    ['source', '/series/0/source/extra'],
    ['observation', '/series/0/observations/1/extra'],
  ])('rejects an unknown member in the %s of a market request', (_where, pointer) => {
    const parent = pointer.slice(0, pointer.lastIndexOf('/'));
    const dotted = 'input' + steps(parent).map((s) => (typeof s === 'number' ? `[${s}]` : `.${s}`)).join('');
    expectIssue(market, withValue(seriesBase(), pointer, 1), new RegExp(`^${dotted.replace(/[.[\]]/g, '\\$&')}: unknown field "extra"`), pointer);
    expectIssue(spectral, withValue(seriesBase(), pointer, 1), /unknown field "extra"/, pointer);
  });

  it.each([['top level', '/extra'], ['policy', '/policy/extra'], ['event', '/events/0/extra'], ['event source', '/events/0/source/extra']])(
    'rejects an unknown member in the %s of a narrative request',
    (_where, pointer) => {
      expectIssue(narrative, withValue(narrativeBase(), pointer, null), /unknown field "extra"/, pointer);
    },
  );

  it('reports the first missing required member in schema order', () => {
    const base = seriesBase();
    expectIssue(market, without(without(base, '/as_of'), '/series'), 'input.series: is required but missing', '/series');
    expectIssue(market, without(base, '/as_of'), 'input.as_of: is required but missing', '/as_of');
    const series = without(without(without(base, '/series/0/unit'), '/series/0/kind'), '/series/0/observations');
    expectIssue(market, series, 'input.series[0].kind: is required but missing', '/series/0/kind');
    expectIssue(market, without(base, '/series/0/source/rights'), 'input.series[0].source.rights: is required but missing');
    expectIssue(market, without(base, '/series/0/observations/0/value'), 'input.series[0].observations[0].value: is required but missing');
    expectIssue(narrative, without(narrativeBase(), '/events/0/entities'), 'input.events[0].entities: is required but missing', '/events/0/entities');
    expectIssue(narrative, without(without(narrativeBase(), '/events/0/title'), '/events/0/id'), 'input.events[0].id: is required but missing');
  });

  it('checks required members before the members present, and members in input order', () => {
    // Missing as_of wins over a bad series, which wins over a later bad policy.
    const bad = withValue(without(seriesBase(), '/as_of'), '/series/0/kind', 'nope');
    expectIssue(market, bad, 'input.as_of: is required but missing');
    const ordered = parseStrictJson('{"policy": {"zzz": 1}, "as_of": "bad", "series": []}');
    expectIssue(market, ordered, /^input\.policy: unknown field "zzz"/);
    const reversed = parseStrictJson('{"as_of": "bad", "policy": {"zzz": 1}, "series": []}');
    expectIssue(market, reversed, /^input\.as_of: must be a UTC timestamp/);
  });

  it('bounds objects at 128 members before anything else', () => {
    const big: Record<string, number> = {};
    for (let i = 0; i < 129; i++) big[`k${i}`] = i;
    expectIssue(dyson, big, 'input: must have at most 128 members', '');
  });

  it('escapes JSON-pointer segments of unknown member names', () => {
    expectIssue(dyson, { 'a/b~c': 1 }, /unknown field "a\/b~c"/, '/a~1b~0c');
  });
});

describe('validator: unpaired surrogates', () => {
  it('reports a lone surrogate with its own code and pointer once the schema is satisfied', () => {
    const request = withValue(narrativeBase(), '/events/0/title', 'Bank \ud800 raises');
    const found = narrative.issue(request);
    expect(found).toEqual({ code: 'lone_surrogate', path: '/events/0/title', message: expect.stringMatching(/^input\.events\[0\]\.title: .*surrogate/) });
    expect(() => narrative.assert(request)).toThrow(AppError);
  });

  it('finds a lone low surrogate in a focus entry and accepts well-formed astral text', () => {
    expect(narrative.issue(withValue(narrativeBase(), '/focus/0', 'x\udc00'))?.path).toBe('/focus/0');
    expectValid(narrative, withValue(narrativeBase(), '/focus/0', `x${ASTRAL}`));
  });

  it('reports a schema problem ahead of a lone surrogate elsewhere', () => {
    const request = withValue(withValue(narrativeBase(), '/events/0/title', '\ud800'), '/as_of', 'bad');
    expectIssue(narrative, request, /^input\.as_of: must be a UTC timestamp/);
  });
});

describe('validator: errors thrown', () => {
  it('throws a 422 AppError with code invalid_input and a JSON pointer', () => {
    try {
      dyson.assert({ dimension: 17 });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      const e = error as AppError;
      expect([e.status, e.code, e.path, e.message]).toEqual([422, 'invalid_input', '/dimension', 'input.dimension: violates maximum 16']);
    }
  });

  it('validates the largest documented request in one pass without error', () => {
    const base = seriesBase() as { series: Record<string, unknown>[] };
    const observations = Array.from({ length: 2048 }, (_, i) => ({
      observed_at: new Date(Date.UTC(2026, 0, 1) + i * 3_600_000).toISOString(),
      value: i + 0.5,
      available_at: new Date(Date.UTC(2026, 0, 1) + i * 3_600_000 + 1000).toISOString().replace('Z', '+00:00'),
      sample_size: 10,
    }));
    const request = { ...base, series: Array.from({ length: 32 }, (_, s) => ({ ...base.series[0], id: `s${s}`, observations })) };
    expectValid(market, request);
    expectValid(spectral, request);
  });
});
