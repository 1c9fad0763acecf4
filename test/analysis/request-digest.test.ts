import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { LoneSurrogateError, parseStrictJson, sha256OfDigestJson } from '../../src/core/json.js';
import { seriesRequestSha256 } from '../../src/analysis/request-digest.js';
import { compileValidator, type Validator } from '../../src/analysis/validate.js';
import { MarketRequestSchema, SpectralRequestSchema } from '../../src/analysis/schemas/index.js';
import { seriesRequest } from '../helpers/analysis-requests.js';

type Request = { series: unknown; as_of: unknown; policy?: unknown };

/** What the operations digested before the specialised writer: the generic encoder. */
function genericSha256(request: Request): string {
  const subject: Record<string, unknown> = { series: request.series, as_of: request.as_of };
  if (Object.hasOwn(request, 'policy')) subject.policy = request.policy;
  return sha256OfDigestJson(subject);
}

const marketValidator: Validator<unknown> = compileValidator(MarketRequestSchema);
const spectralValidator: Validator<unknown> = compileValidator(SpectralRequestSchema);

// Requests are generated as JSON text and read by the strict reader, so number kinds
// (`3.0`, `1e2`, digits beyond 2^53) come from real tokens, and every object's members
// appear in a generated order.

/** Members as [key, JSON text] pairs; `order` permutes them. */
function objectText(members: [string, string][], order: number[]): string {
  const shuffled = members.map((m, i) => ({ m, k: order[i % order.length] ?? 0, i }));
  shuffled.sort((a, b) => a.k - b.k || a.i - b.i);
  return `{${shuffled.map(({ m }) => `${JSON.stringify(m[0])}:${m[1]}`).join(',')}}`;
}

const order = fc.array(fc.nat({ max: 20 }), { minLength: 1, maxLength: 8 });

const pad = (n: number, width: number) => String(n).padStart(width, '0');
const clockText = fc
  .record({
    year: fc.integer({ min: 1, max: 9999 }),
    month: fc.integer({ min: 1, max: 12 }),
    day: fc.integer({ min: 1, max: 28 }),
    hour: fc.integer({ min: 0, max: 23 }),
    minute: fc.integer({ min: 0, max: 59 }),
    second: fc.integer({ min: 0, max: 59 }),
    fraction: fc.option(fc.stringMatching(/^[0-9]{1,6}$/), { nil: undefined }),
    zulu: fc.boolean(),
  })
  .map(
    (c) =>
      `"${pad(c.year, 4)}-${pad(c.month, 2)}-${pad(c.day, 2)}T${pad(c.hour, 2)}:${pad(c.minute, 2)}:${pad(c.second, 2)}` +
      `${c.fraction === undefined ? '' : '.' + c.fraction}${c.zulu ? 'Z' : '+00:00'}"`,
  );

/** Positive number tokens in the spellings that print differently. */
const positiveNumberText = fc.oneof(
  fc.integer({ min: 1, max: 1_000_000 }).map(String),
  fc.integer({ min: 1, max: 1_000_000 }).map((n) => `${n}.0`),
  fc.integer({ min: 1, max: 9 }).map((n) => `${n}e2`),
  fc.constantFrom('1E+2', '2.5e-7', '1e21', '1.5e16', '0.0001', '0.00001', '123.456', '99999999.999999'),
  fc.constantFrom('9007199254740993', '12345678901234567890123', '18446744073709551616'),
  fc.double({ min: 1e-300, max: 1e300, noNaN: true, noDefaultInfinity: true }).map((x) => String(x)),
  fc.integer({ min: 1, max: 999_999_999 }).chain((whole) => fc.integer({ min: 0, max: 999_999 }).map((f) => `${whole}.${pad(f, 6)}`)),
);
const numberText = fc.oneof(
  positiveNumberText,
  positiveNumberText.map((t) => `-${t}`),
  fc.constantFrom('0', '-0', '0.0', '-0.0', '0e0'),
);

// Non-ASCII, astral, escapes, controls, DEL and the line separators; paired surrogates only.
const char = fc.oneof(
  fc.constantFrom('a', 'Z', '0', '-', ' ', '"', '\\', '/', '\n', '\t', '\u0000', '\u001f', '\u007f', '\u2028', 'é', '€', '日', '😀', '𝄞'),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
);
const stringText = (min: number, max: number) =>
  fc.array(char, { minLength: min, maxLength: max }).map((chars) => JSON.stringify(chars.join('')));

const observationText = fc
  .record({
    observed: clockText,
    value: fc.option(numberText, { nil: 'null' }),
    available: fc.option(clockText, { nil: undefined }),
    sampleSize: fc.option(fc.option(positiveNumberText, { nil: 'null' }), { nil: undefined }),
    order,
  })
  .map((o) => {
    const members: [string, string][] = [
      ['observed_at', o.observed],
      ['value', o.value],
    ];
    if (o.available !== undefined) members.push(['available_at', o.available]);
    if (o.sampleSize !== undefined) members.push(['sample_size', o.sampleSize]);
    return objectText(members, o.order);
  });

const sourceText = fc
  .record({
    id: stringText(1, 8),
    rights: fc.constantFrom('"permitted"', '"unknown"', '"restricted"'),
    url: fc.option(stringText(1, 8), { nil: undefined }),
    order,
  })
  .map((s) => {
    const members: [string, string][] = [
      ['id', s.id],
      ['rights', s.rights],
    ];
    if (s.url !== undefined) members.push(['url', s.url]);
    return objectText(members, s.order);
  });

const seriesText = fc
  .record({
    id: stringText(1, 8),
    kind: fc.constantFrom('"price"', '"return"', '"level"', '"spread"', '"rate"', '"count"'),
    unit: stringText(1, 8),
    source: sourceText,
    maxAge: positiveNumberText,
    maxGap: fc.option(positiveNumberText, { nil: undefined }),
    group: fc.option(stringText(1, 8), { nil: undefined }),
    observations: fc.array(observationText, { maxLength: 6 }),
    order,
  })
  .map((s) => {
    const members: [string, string][] = [
      ['id', s.id],
      ['kind', s.kind],
      ['unit', s.unit],
      ['source', s.source],
      ['max_age_seconds', s.maxAge],
      ['observations', `[${s.observations.join(',')}]`],
    ];
    if (s.maxGap !== undefined) members.push(['max_gap_seconds', s.maxGap]);
    if (s.group !== undefined) members.push(['group', s.group]);
    return objectText(members, s.order);
  });

const marketPolicyText = fc
  .record(
    {
      baseline_points: fc.integer({ min: 10, max: 256 }).map(String),
      recent_points: fc.integer({ min: 1, max: 32 }).map(String),
      move_threshold: fc.constantFrom('3', '3.0', '0.5', '1e1', '2.75'),
      volatility_ratio: fc.constantFrom('3', '3.0', '1.5', '2E0'),
      coverage_drop_fraction: fc.constantFrom('0', '0.0', '0.2', '1', '1.0', '1e-3'),
    },
    { requiredKeys: [] },
  )
  .chain((p) => order.map((o) => objectText(Object.entries<string>(p), o)));

const requestText = fc
  .record({
    series: fc.array(seriesText, { maxLength: 4 }),
    asOf: clockText,
    policy: fc.option(marketPolicyText, { nil: undefined }),
    order,
  })
  .map((r) => {
    const members: [string, string][] = [
      ['series', `[${r.series.join(',')}]`],
      ['as_of', r.asOf],
    ];
    if (r.policy !== undefined) members.push(['policy', r.policy]);
    return objectText(members, r.order);
  });

describe('series request digest', () => {
  it('equals the generic digest for every valid request (property)', () => {
    fc.assert(
      fc.property(requestText, (text) => {
        const request = parseStrictJson(text) as Request;
        marketValidator.assert(request);
        expect(seriesRequestSha256(request)).toBe(genericSha256(request));
      }),
      { numRuns: 400 },
    );
  });

  it('equals the generic digest for spectral requests, with and without an explicit empty policy', () => {
    for (const policy of [undefined, '{}', '{"max_windows":2,"window_points":60,"step_points":20}']) {
      const body = JSON.stringify(seriesRequest({ series: 3, points: 40, allFields: true }));
      const text = policy === undefined ? body : `${body.slice(0, -1)},"policy":${policy}}`;
      const request = parseStrictJson(text) as Request;
      spectralValidator.assert(request);
      expect(seriesRequestSha256(request)).toBe(genericSha256(request));
    }
  });

  it('equals the generic digest for empty and minimal requests', () => {
    for (const text of [
      '{"series":[],"as_of":"2026-01-01T00:00:00Z"}',
      '{"as_of":"2026-01-01T00:00:00Z","series":[],"policy":{}}',
      '{"series":[{"id":"a","kind":"rate","unit":"%","source":{"rights":"unknown","id":"s"},"max_age_seconds":1.0,"observations":[]}],"as_of":"2026-01-01T00:00:00+00:00"}',
    ]) {
      const request = parseStrictJson(text) as Request;
      marketValidator.assert(request);
      expect(seriesRequestSha256(request)).toBe(genericSha256(request));
    }
  });

  it('equals the generic digest for panels that share a clock grid with deviations (property)', () => {
    // The writer remembers each position's clock bytes from the series before; series that
    // keep, change or drop a clock, available_at or sample_size at a position must not
    // inherit the remembered bytes.
    const deviation = fc.record({
      ownClock: fc.boolean(),
      available: fc.constantFrom('grid', 'own', 'absent'),
      sampled: fc.boolean(),
      value: fc.option(numberText, { nil: 'null' }),
      sampleSize: fc.option(positiveNumberText, { nil: 'null' }),
    });
    const panel = fc.record({
      grid: fc.array(clockText, { minLength: 1, maxLength: 6 }),
      series: fc.array(fc.array(deviation, { maxLength: 7 }), { minLength: 1, maxLength: 5 }),
      other: clockText,
    });
    fc.assert(
      fc.property(panel, ({ grid, series, other }) => {
        const seriesTexts = series.map((points, s) => {
          const observations = points.map((d, i) => {
            const clock = grid[i % grid.length];
            const members: string[] = [`"observed_at":${d.ownClock ? other : clock}`, `"value":${d.value}`];
            if (d.available !== 'absent') members.push(`"available_at":${d.available === 'own' ? other : clock}`);
            if (d.sampled) members.push(`"sample_size":${d.sampleSize}`);
            return `{${members.join(',')}}`;
          });
          return `{"id":"s${s}","kind":"rate","unit":"%","source":{"id":"x","rights":"permitted"},"max_age_seconds":60,"observations":[${observations.join(',')}]}`;
        });
        const request = parseStrictJson(`{"series":[${seriesTexts.join(',')}],"as_of":${grid[0]}}`) as Request;
        marketValidator.assert(request);
        expect(seriesRequestSha256(request)).toBe(genericSha256(request));
      }),
      { numRuns: 400 },
    );
  });

  it('equals the generic digest for a large panel whose series do not share clocks', () => {
    const body = seriesRequest({ series: 8, points: 2048, allFields: true });
    for (const [k, s] of body.series.entries()) {
      for (const o of s.observations as Record<string, string>[]) {
        o.observed_at = new Date(Date.parse(o.observed_at) + k * 60_000).toISOString();
      }
    }
    const request = parseStrictJson(JSON.stringify(body)) as Request;
    expect(seriesRequestSha256(request)).toBe(genericSha256(request));
  });

  it('matches the digest Python computes for a request with every spelling that matters', () => {
    // hashlib.sha256(json.dumps(json.loads(TEXT), sort_keys=True, separators=(",", ":"),
    // ensure_ascii=False).encode()).hexdigest(), computed with CPython 3.
    const text =
      '{"series":[{"observations":[{"value":3.0,"observed_at":"2026-01-01T00:00:00Z","sample_size":1e2},' +
      '{"available_at":"2026-01-01T01:00:00.5+00:00","value":12345678901234567890123,"observed_at":"2026-01-01T01:00:00Z"},' +
      '{"observed_at":"2026-01-01T02:00:00Z","value":null,"sample_size":null},{"observed_at":"2026-01-01T03:00:00Z","value":-0.0},' +
      '{"observed_at":"2026-01-01T04:00:00Z","value":0.00001},{"observed_at":"2026-01-01T05:00:00Z","value":1e16}],' +
      '"unit":"\\u20ac \\"q\\" \\\\ \\n \\u0001 \\u007f \\u2028 \\ud83d\\ude00","source":{"url":"https://x.example/\\u00e9","rights":"permitted","id":"src"},' +
      '"kind":"price","id":"s\\u00e9","max_age_seconds":7200,"max_gap_seconds":3600.0,"group":"g"}],' +
      '"policy":{"move_threshold":3,"coverage_drop_fraction":0.2},"as_of":"2026-01-01T06:00:00Z"}';
    const request = parseStrictJson(text) as Request;
    marketValidator.assert(request);
    const expected = '25894f90cc868f6e1f1c165ca55d2d93261f11998ce27cbec277103e8f917b69';
    expect(seriesRequestSha256(request)).toBe(expected);
    expect(genericSha256(request)).toBe(expected);
  });

  it('equals the generic digest for the largest documented request', () => {
    const request = parseStrictJson(JSON.stringify(seriesRequest({ series: 32, points: 2048, allFields: true }))) as Request;
    expect(seriesRequestSha256(request)).toBe(genericSha256(request));
  });

  it('refuses an unpaired surrogate anywhere, as the generic encoder does', () => {
    fc.assert(
      fc.property(requestText, fc.nat(), fc.constantFrom('\ud800', '\udfff', 'a\udc00b'), (text, pick, bad) => {
        // Replace one generated string value with one holding a lone surrogate.
        const strings = [...text.matchAll(/:"(?:[^"\\]|\\.)*"/g)];
        fc.pre(strings.length > 0);
        const match = strings[pick % strings.length];
        const at = (match.index ?? 0) + 1;
        const broken = text.slice(0, at) + JSON.stringify(bad) + text.slice(at + match[0].length - 1);
        const request = parseStrictJson(broken) as Request;
        expect(() => genericSha256(request)).toThrow(LoneSurrogateError);
        expect(() => seriesRequestSha256(request)).toThrow(LoneSurrogateError);
      }),
      { numRuns: 100 },
    );
  });

  it('still equals the generic digest when a request strays from the schema (property)', () => {
    // Unknown members, missing members and values of the wrong type fall back to the
    // generic encoder for the object concerned.
    const stray = fc.oneof(
      fc.constant('"extra":1'),
      fc.constant('"extra":{"b":1.0,"a":[2e0]}'),
      fc.constant('"value":"text"'),
      fc.constant('"id":3.0'),
      fc.constant('"observations":{}'),
      fc.constant('"source":[1]'),
    );
    fc.assert(
      fc.property(requestText, fc.nat(), stray, (text, pick, member) => {
        const opens = [...text.matchAll(/\{(?=")/g)];
        fc.pre(opens.length > 0);
        const at = (opens[pick % opens.length].index ?? 0) + 1;
        let mutated = text.slice(0, at) + member + ',' + text.slice(at);
        let request: Request;
        try {
          request = parseStrictJson(mutated) as Request;
        } catch {
          // A duplicate member: drop the original instead of testing a reader error.
          mutated = text.slice(0, at) + member + '}' ;
          fc.pre(false);
          return;
        }
        expect(seriesRequestSha256(request)).toBe(genericSha256(request));
      }),
      { numRuns: 300 },
    );
  });
});
