import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { makeTestApp, type TestApp } from '../helpers/app.js';

// Property tests over the four operations: schema-valid requests never produce a 5xx (only
// 200 or a domain 422) and give the same bytes twice; mutated requests (wrong types, bounds,
// unknown or duplicate keys, bad clocks, non-finite literals) always get a 4xx with a code.

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp({ maxEventLoopDelay: 0 });
});
afterAll(async () => t.close());

const RUNS = 120;
const BASE_MS = Date.UTC(2026, 9, 8);

function post(url: string, payload: string): Promise<LightMyRequestResponse> {
  return t.app.inject({ method: 'POST', url, payload, headers: { 'content-type': 'application/json' } });
}

// ---------------------------------------------------------------------------------------
// Valid requests

const text = (max: number) =>
  fc.oneof(
    { weight: 5, arbitrary: fc.string({ minLength: 1, maxLength: max }) },
    { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: Math.min(max, 8), unit: 'binary' }) },
  );

/** A clock within a few days of BASE, in one of the accepted spellings. */
const clockAt = (offsetSeconds: number, spelling: number): string => {
  const iso = new Date(BASE_MS + offsetSeconds * 1000).toISOString(); // …:SS.mmmZ
  const whole = iso.slice(0, 19);
  const fraction = iso.slice(20, 23);
  switch (spelling % 4) {
    case 0: return `${whole}Z`;
    case 1: return `${whole}+00:00`;
    case 2: return `${whole}.${fraction}Z`;
    default: return `${whole}.${fraction}000+00:00`;
  }
};
const clock = fc.tuple(fc.integer({ min: -5 * 86400, max: 5 * 86400 }), fc.nat(3)).map(([o, s]) => clockAt(o, s));

const finite = fc.oneof(
  fc.integer({ min: -1000, max: 1000 }),
  fc.double({ min: -1e6, max: 1e6, noNaN: true }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);
const positive = fc.oneof(fc.integer({ min: 1, max: 1_000_000 }), fc.double({ min: 1e-9, max: 1e9, noNaN: true }));

const observations = fc
  .record({
    start: fc.integer({ min: -3 * 86400, max: 0 }),
    step: fc.constantFrom(60, 3600, 86400),
    shuffle: fc.boolean(),
    points: fc.array(
      fc.record(
        {
          value: fc.oneof({ weight: 6, arbitrary: finite }, { weight: 1, arbitrary: fc.constant(null) }),
          available_lag: fc.integer({ min: 0, max: 600 }),
          sample_size: fc.oneof(positive, fc.constant(null)),
          spelling: fc.nat(3),
        },
        { requiredKeys: ['value', 'spelling'] },
      ),
      { maxLength: 40 },
    ),
  })
  .map(({ start, step, shuffle, points }) =>
    points.map((p, i) => {
      // Mostly increasing clocks; sometimes out of order, which is a domain error (422).
      const offset = start + (shuffle && i % 7 === 3 ? -step : i * step);
      const o: Record<string, unknown> = { observed_at: clockAt(offset, p.spelling), value: p.value };
      if (p.available_lag !== undefined) o.available_at = clockAt(offset + p.available_lag, p.spelling + 1);
      if (p.sample_size !== undefined) o.sample_size = p.sample_size;
      return o;
    }),
  );

const series = fc.record(
  {
    id: text(12),
    kind: fc.constantFrom('price', 'return', 'level', 'spread', 'rate', 'count'),
    unit: text(8),
    source: fc.record(
      { id: text(10), rights: fc.constantFrom('permitted', 'permitted', 'unknown', 'restricted'), url: text(40) },
      { requiredKeys: ['id', 'rights'] },
    ),
    max_age_seconds: positive,
    max_gap_seconds: positive,
    group: text(6),
    observations,
  },
  { requiredKeys: ['id', 'kind', 'unit', 'source', 'max_age_seconds', 'observations'] },
);

const marketPolicy = fc.record(
  {
    baseline_points: fc.integer({ min: 10, max: 256 }),
    recent_points: fc.integer({ min: 1, max: 32 }),
    move_threshold: fc.double({ min: 1e-6, max: 100, noNaN: true }),
    volatility_ratio: fc.double({ min: 1.0001, max: 100, noNaN: true }),
    coverage_drop_fraction: fc.double({ min: 0, max: 1, noNaN: true }),
  },
  { requiredKeys: [] },
);

const spectralPolicy = fc.record(
  { window_points: fc.integer({ min: 20, max: 512 }), step_points: fc.integer({ min: 1, max: 512 }), max_windows: fc.integer({ min: 1, max: 8 }) },
  { requiredKeys: [] },
);

const seriesList = fc.oneof(
  fc.array(series, { maxLength: 4 }),
  // Same ids across requests and shared clocks make alignment and correlation paths run.
  fc.tuple(fc.integer({ min: 2, max: 5 }), fc.integer({ min: 20, max: 60 }), fc.double({ min: -1, max: 1, noNaN: true })).map(([n, points, rho]) =>
    Array.from({ length: n }, (_, s) => ({
      id: `s${s}`,
      kind: s % 2 === 0 ? 'price' : 'rate',
      unit: 'u',
      source: { id: 'src', rights: 'permitted' },
      max_age_seconds: 86400,
      observations: Array.from({ length: points }, (_, i) => ({
        observed_at: clockAt(-points * 3600 + i * 3600, 0),
        value: 100 + Math.sin(i * (s + 1)) + rho * Math.cos(i),
      })),
    })),
  ),
);

const market = fc.record({ series: seriesList, as_of: clock, policy: marketPolicy }, { requiredKeys: ['series', 'as_of'] });
const spectral = fc.record({ series: seriesList, as_of: clock, policy: spectralPolicy }, { requiredKeys: ['series', 'as_of'] });

const event = fc.record(
  {
    id: text(10),
    title: fc.oneof(text(80), fc.constantFrom('Bank raises rates by 25 basis points', 'Bank cuts rates by 25 basis points', 'Bank does not raise rates', 'Straße Fähre ÉTÉ ß 5%')),
    published_at: clock,
    available_at: clock,
    entities: fc.array(fc.oneof(text(8), fc.constantFrom('bank-a', 'bank-b')), { maxLength: 3 }),
    source: fc.record(
      { id: text(8), kind: fc.constantFrom('primary', 'reporting', 'commentary'), url: fc.oneof(text(30), fc.constant('https://Example.ORG/a')), family: text(8) },
      { requiredKeys: ['id', 'kind'] },
    ),
    event_key: fc.constantFrom('k1', 'k2', 'k3'),
  },
  { requiredKeys: ['id', 'title', 'published_at', 'entities', 'source'] },
);

const narrative = fc.record(
  {
    events: fc.array(event, { maxLength: 12 }),
    as_of: clock,
    focus: fc.array(fc.oneof(text(8), fc.constant('bank-a')), { maxLength: 3 }),
    policy: fc.record(
      {
        max_age_seconds: positive,
        max_items: fc.integer({ min: 1, max: 100 }),
        similarity_threshold: fc.double({ min: 0.5, max: 1, noNaN: true }),
      },
      { requiredKeys: [] },
    ),
  },
  { requiredKeys: ['events', 'as_of'] },
);

const dyson = fc.record(
  {
    dimension: fc.integer({ min: 2, max: 16 }),
    steps: fc.integer({ min: 1, max: 30 }),
    dt: fc.double({ min: 1e-6, max: 1, noNaN: true }),
    seed: fc.integer({ min: 0, max: 4294967295 }),
  },
  { requiredKeys: [] },
);

const OPERATIONS: [string, string, fc.Arbitrary<Record<string, unknown>>][] = [
  ['market_assessment', '/v1/market/assess', market],
  ['spectral_assessment', '/v1/spectral/assess', spectral],
  ['narrative_triage', '/v1/narrative/triage', narrative],
  ['dyson_reference', '/v1/research/dyson', dyson],
];

describe.each(OPERATIONS)('%s with schema-valid requests', (_tool, path, arbitrary) => {
  it('never answers 5xx or invalid_input, and answers the same bytes twice', async () => {
    await fc.assert(
      fc.asyncProperty(arbitrary, async (request) => {
        const body = JSON.stringify(request);
        const first = await post(path, body);
        if (first.statusCode !== 200) {
          expect(first.statusCode, first.body).toBe(422);
          expect(first.json().code, first.body).not.toBe('invalid_input');
        }
        const second = await post(path, body);
        expect(second.statusCode).toBe(first.statusCode);
        expect(second.body).toBe(first.body);
      }),
      { numRuns: RUNS },
    );
  });
});

// ---------------------------------------------------------------------------------------
// Invalid requests: mutations of valid ones

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Location = { parent: Json[] | { [key: string]: Json }; key: string | number; value: Json };

function locations(value: Json, out: Location[] = []): Location[] {
  if (Array.isArray(value)) {
    value.forEach((v, i) => {
      out.push({ parent: value, key: i, value: v });
      locations(v, out);
    });
  } else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      out.push({ parent: value, key: k, value: v });
      locations(v, out);
    }
  }
  return out;
}

function objects(value: Json): { [key: string]: Json }[] {
  const found: { [key: string]: Json }[] = [];
  const walk = (v: Json) => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v !== null && typeof v === 'object') {
      found.push(v);
      Object.values(v).forEach(walk);
    }
  };
  walk(value);
  return found;
}

function wrongTypeFor(value: Json): Json {
  if (typeof value === 'string') return 7;
  if (typeof value === 'number') return 'seven';
  if (Array.isArray(value)) return { not: 'a list' };
  if (value === null) return 'nothing';
  if (typeof value === 'object') return ['not', 'an', 'object'];
  return 'flag';
}

const CLOCK_KEYS = new Set(['as_of', 'observed_at', 'available_at', 'published_at']);
const BAD_CLOCKS = ['2026-10-08', '2026-10-08T01:00:00', '2026-10-08T01:00:00+01:00', 'bad', '2026-10-08T01:00:00.1234567Z', '2026-02-30T00:00:00Z'];
const OUT_OF_BOUNDS: Record<string, Json[]> = {
  dimension: [1, 17, 3.5, true], steps: [0, 101], dt: [0, 2, -1], seed: [-1, 4294967296],
  baseline_points: [9, 257], recent_points: [0, 33], move_threshold: [0, -1], volatility_ratio: [1, 0.5], coverage_drop_fraction: [-0.1, 1.5],
  window_points: [19, 513], step_points: [0, 513], max_windows: [0, 9],
  max_age_seconds: [0, -3], max_items: [0, 101], similarity_threshold: [0.49, 1.01], max_gap_seconds: [0], sample_size: [0, -1],
};

type Mutation = (request: Json, pick: number) => { body: string; status?: number } | null;

/** JSON text with one member of the chosen object written twice. */
function withDuplicateKey(request: Json, target: object): string {
  const write = (v: Json): string => {
    if (Array.isArray(v)) return `[${v.map(write).join(',')}]`;
    if (v !== null && typeof v === 'object') {
      const members = Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}:${write(x)}`);
      if (v === target && members.length > 0) members.push(members[0]);
      return `{${members.join(',')}}`;
    }
    return JSON.stringify(v);
  };
  return write(request);
}

const MUTATIONS: Record<string, Mutation> = {
  wrongType(request, pick) {
    const all = locations(request);
    if (all.length === 0) return { body: JSON.stringify([request]), status: 422 };
    const at = all[pick % all.length];
    (at.parent as Record<string | number, Json>)[at.key] = wrongTypeFor(at.value);
    return { body: JSON.stringify(request), status: 422 };
  },
  unknownKey(request, pick) {
    const all = objects(request);
    all[pick % all.length].zz_unknown_member = 1;
    return { body: JSON.stringify(request), status: 422 };
  },
  emptyString(request, pick) {
    const strings = locations(request).filter((l) => typeof l.value === 'string');
    if (strings.length === 0) return null;
    const at = strings[pick % strings.length];
    (at.parent as Record<string | number, Json>)[at.key] = '';
    return { body: JSON.stringify(request), status: 422 };
  },
  outOfBounds(request, pick) {
    const bounded = locations(request).filter((l) => typeof l.key === 'string' && l.key in OUT_OF_BOUNDS && l.value !== null);
    if (bounded.length === 0) return null;
    const at = bounded[pick % bounded.length];
    const options = OUT_OF_BOUNDS[at.key as string];
    (at.parent as Record<string | number, Json>)[at.key] = options[pick % options.length];
    return { body: JSON.stringify(request), status: 422 };
  },
  badClock(request, pick) {
    const clocks = locations(request).filter((l) => typeof l.key === 'string' && CLOCK_KEYS.has(l.key));
    if (clocks.length === 0) return null;
    const at = clocks[pick % clocks.length];
    (at.parent as Record<string | number, Json>)[at.key] = BAD_CLOCKS[pick % BAD_CLOCKS.length];
    return { body: JSON.stringify(request), status: 422 };
  },
  duplicateKey(request, pick) {
    const candidates = objects(request).filter((o) => Object.keys(o).length > 0);
    if (candidates.length === 0) return null;
    return { body: withDuplicateKey(request, candidates[pick % candidates.length]), status: 400 };
  },
  nonFinite(request, pick) {
    const numbers = locations(request).filter((l) => typeof l.value === 'number');
    if (numbers.length === 0) return null;
    const marker = '"__NON_FINITE__"';
    const at = numbers[pick % numbers.length];
    (at.parent as Record<string | number, Json>)[at.key] = marker.slice(1, -1);
    return { body: JSON.stringify(request).replace(marker, ['NaN', 'Infinity', '-Infinity'][pick % 3]), status: 400 };
  },
  dropRequired(request) {
    const root = request as Record<string, Json>;
    const key = ['as_of', 'series', 'events'].find((k) => k in root);
    if (!key) return null;
    delete root[key];
    return { body: JSON.stringify(request), status: 422 };
  },
};

describe.each(OPERATIONS)('%s with mutated requests', (_tool, path, arbitrary) => {
  it('answers a 4xx with a machine-readable code, never a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(arbitrary, fc.constantFrom(...Object.keys(MUTATIONS)), fc.nat(), async (request, name, pick) => {
        const mutated = MUTATIONS[name](JSON.parse(JSON.stringify(request)) as Json, pick);
        fc.pre(mutated !== null);
        const res = await post(path, mutated.body);
        expect(res.statusCode, `${name}: ${res.body}`).toBeGreaterThanOrEqual(400);
        expect(res.statusCode, `${name}: ${res.body}`).toBeLessThan(500);
        if (mutated.status !== undefined) expect(res.statusCode, `${name}: ${res.body}`).toBe(mutated.status);
        const body = res.json();
        expect(typeof body.code).toBe('string');
        expect(typeof body.error).toBe('string');
        if (res.statusCode === 422 && body.code === 'invalid_input') expect(typeof body.path).toBe('string');
      }),
      { numRuns: RUNS },
    );
  });
});
