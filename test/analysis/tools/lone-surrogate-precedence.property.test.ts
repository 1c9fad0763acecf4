// An unpaired surrogate in a market, spectral or narrative request is refused where the
// reference's UTF-8 encoding of the request digest fails: after the schema and domain checks.
// So a request that also breaks a domain rule hears about that rule, and one that breaks none
// gets 422 `lone_surrogate` naming the first such string in written order. The six MCP-only
// tools keep refusing it in their validators.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src/core/errors.js';
import { parseStrictJson } from '../../../src/core/json.js';
import { runAnalysisTool } from '../../../src/analysis/tools/dispatch.js';
import { narrativeRequest, seriesRequest } from '../../helpers/analysis-requests.js';

type Json = Record<string, unknown>;

function refusal(tool: string, request: unknown): { code: string; path?: string } | 'ok' {
  // Through the strict reader, as every surface reads a body.
  const parsed = parseStrictJson(JSON.stringify(request));
  try {
    runAnalysisTool(tool, parsed);
    return 'ok';
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return { code: error.code, path: error.path };
  }
}

const LONE = ['\ud800', '\udbff', '\udc00', '\udfff'];

/** Every string member of `value` that a surrogate may replace, as JSON pointers in written order. */
function stringPointers(value: unknown, at = ''): string[] {
  if (typeof value === 'string') return [at];
  if (Array.isArray(value)) return value.flatMap((v, i) => stringPointers(v, `${at}/${i}`));
  if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => stringPointers(v, `${at}/${k}`));
  return [];
}

function holderOf(root: unknown, pointer: string): { holder: Json; key: string } {
  const parts = pointer.split('/').slice(1);
  let holder = root as Json;
  for (const part of parts.slice(0, -1)) holder = holder[part] as Json;
  return { holder, key: parts[parts.length - 1] };
}

// Strings whose value a schema constrains (clocks, enums, rights) would fail validation
// with a surrogate in them, which rightly wins: only free text is a candidate.
const FREE_TEXT = /\/(id|unit|title|group|url|family|event_key|entities\/\d+|focus\/\d+)$/;

function withSurrogate(request: Json, choice: number, lone: string, where: number): { request: Json; path: string } {
  const copy = structuredClone(request);
  const candidates = stringPointers(copy).filter((p) => FREE_TEXT.test(p));
  const path = candidates[choice % candidates.length];
  const { holder, key } = holderOf(copy, path);
  const text = holder[key] as string;
  const at = where % (text.length + 1);
  holder[key] = text.slice(0, at) + lone + text.slice(at);
  return { request: copy, path };
}

/** The first pointer (written order) whose string holds an unpaired surrogate, if any. */
function firstSurrogatePath(request: Json): string | undefined {
  return stringPointers(request).find((p) => {
    const { holder, key } = holderOf(request, p);
    return !(holder[key] as string).isWellFormed();
  });
}

type Breakage = { code: string; apply: (request: Json) => void };

const SERIES_BREAKAGES: Breakage[] = [
  { code: 'duplicate_series_id', apply: (r) => ((r.series as Json[])[2].id = (r.series as Json[])[0].id) },
  {
    code: 'non_increasing_timestamps',
    apply: (r) => {
      const obs = (r.series as Json[])[1].observations as Json[];
      obs[4].observed_at = obs[3].observed_at;
    },
  },
  { code: 'non_positive_price', apply: (r) => (((r.series as Json[])[1].observations as Json[])[2].value = -1.5) },
  {
    code: 'negative_count',
    apply: (r) => {
      const series = (r.series as Json[])[0];
      series.kind = 'count';
      (series.observations as Json[])[5].value = -3;
    },
  },
];

const NARRATIVE_BREAKAGES: Breakage[] = [
  { code: 'duplicate_event_id', apply: (r) => ((r.events as Json[])[3].id = (r.events as Json[])[1].id) },
  {
    code: 'availability_precedes_publication',
    apply: (r) => {
      const event = (r.events as Json[])[2];
      event.available_at = '2025-12-31T23:00:00Z';
    },
  },
];

const CASES: { tool: string; make: (seed: number) => Json; breakages: Breakage[] }[] = [
  { tool: 'market_assessment', make: (seed) => seriesRequest({ series: 3, points: 24, allFields: true, seed }), breakages: SERIES_BREAKAGES },
  { tool: 'spectral_assessment', make: (seed) => seriesRequest({ series: 3, points: 24, allFields: true, seed }), breakages: SERIES_BREAKAGES },
  { tool: 'narrative_triage', make: (seed) => narrativeRequest({ events: 6, titleLength: 40, seed }), breakages: NARRATIVE_BREAKAGES },
];

describe('an unpaired surrogate is refused after the domain checks', () => {
  for (const { tool, make, breakages } of CASES) {
    it(`${tool}: a domain error in the same request wins over the surrogate`, () => {
      fc.assert(
        fc.property(
          fc.integer({ min: 1, max: 10_000 }),
          fc.nat(),
          fc.constantFrom(...LONE),
          fc.nat(),
          fc.constantFrom(...breakages),
          (seed, choice, lone, where, breakage) => {
            const { request } = withSurrogate(make(seed), choice, lone, where);
            breakage.apply(request);
            const outcome = refusal(tool, request);
            expect(outcome).not.toBe('ok');
            expect((outcome as { code: string }).code).toBe(breakage.code);
          },
        ),
        { numRuns: 60 },
      );
    });

    it(`${tool}: with no domain error, 422 lone_surrogate names the first such string (none left: accepted)`, () => {
      fc.assert(
        fc.property(fc.integer({ min: 1, max: 10_000 }), fc.array(fc.tuple(fc.nat(), fc.constantFrom(...LONE), fc.nat()), { minLength: 1, maxLength: 3 }), (seed, placements) => {
          let request = make(seed);
          for (const [choice, lone, where] of placements) request = withSurrogate(request, choice, lone, where).request;
          // Two placements can meet as a high and a low surrogate: a well-formed pair, accepted.
          const path = firstSurrogatePath(request);
          expect(refusal(tool, request)).toEqual(path === undefined ? 'ok' : { code: 'lone_surrogate', path });
        }),
        { numRuns: 60 },
      );
    });
  }

  it('a well-formed astral character next to where a surrogate would go is accepted', () => {
    const request = narrativeRequest({ events: 6, titleLength: 40, seed: 5 });
    (request.events as Json[])[0].title = 'rates \ud83d\ude00 rise';
    expect(refusal('narrative_triage', request)).toBe('ok');
  });

  it('a schema problem still wins over a surrogate', () => {
    const { request } = withSurrogate(seriesRequest({ series: 3, points: 24, seed: 3 }), 0, '\ud800', 0);
    request.as_of = 'not a clock';
    expect(refusal('market_assessment', request)).toEqual({ code: 'invalid_input', path: '/as_of' });
  });

  it('the MCP-only tools refuse it in their validators, before any computation', () => {
    const labels = { a_successes: 500, a_total: 5000, b_successes: 750, b_total: 5000, a_label: 'control', b_label: 'x\udc00' };
    expect(refusal('ab_test', labels)).toEqual({ code: 'lone_surrogate', path: '/b_label' });
    // A key counts too: these are the validator's pointers.
    expect(refusal('which_metrics_matter', { evidence: { 'sign\ud800ups': 40 }, valid_evalues: true })).toEqual({ code: 'lone_surrogate', path: '/evidence/sign\ud800ups' });
  });
});
