// How the contract test reaches each documented answer of each operation. Every
// operation in the OpenAPI document needs an entry here (the test fails otherwise); the
// answers every operation documents (credentials in the URL, over-long query and header,
// load shedding) are driven for all of them by the test itself. A group that adds an
// operation adds its scenarios here: one per documented status it can reach, or a line
// in UNREACHABLE saying why it cannot.
import { randomBytes } from 'node:crypto';
import type { InjectOptions } from 'fastify';
import { seriesRequest, narrativeRequest } from '../helpers/analysis-requests.js';
import type { TestApp } from '../helpers/app.js';
import type { FundingHarness } from '../funding/harness.js';

/** The apps scenarios run against (built once by the contract test). */
export interface Fixtures {
  /** Sample mode, three captured packets (oldest first), fresh. */
  main: FundingHarness;
  packets: [string, string, string];
  /** A live key on `main`. */
  token: string;
  /** `main`'s store read two hours later: the current packet is stale. */
  stale: TestApp;
  /** Every store read fails. */
  broken: TestApp;
  /** Request bodies above 1024 bytes are refused. */
  small: TestApp;
  /** Today's enrollment allowance is used up. */
  full: TestApp;
  /** Answers only the Host evidence.example (EVIDENCE_ALLOWED_HOSTS). */
  hosts: TestApp;
  /** Enrolls a fresh key on `main` (for answers that consume one). */
  enroll(): Promise<string>;
}

export type FixtureApp = 'main' | 'stale' | 'broken' | 'small' | 'full' | 'hosts';

export interface Scenario {
  /** What the request exercises (shown when it fails). */
  name: string;
  app?: FixtureApp;
  request(f: Fixtures): InjectOptions | Promise<InjectOptions>;
}

export interface OperationScenarios {
  /** A URL that reaches the operation's handler, for the scenarios every operation shares. */
  url(f: Fixtures): string;
  statuses: Record<number, Scenario[]>;
}

const JSON_TYPE = { 'content-type': 'application/json' };
const UNKNOWN_PACKET = `20200101T000000.000000Z-${'0'.repeat(32)}`;
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const BAD_BEARER = { authorization: 'Bearer not-a-key' };
const FOREIGN_ORIGIN = { origin: 'https://elsewhere.example' };
const CLOCK = '2026-01-01T00:00:00Z';
/** A request from this service's own page (Origin equals the Host it was sent to). */
const OWN_PAGE = { ...JSON_TYPE, host: '127.0.0.1:8080', origin: 'http://127.0.0.1:8080' };
const visitorId = () => randomBytes(16).toString('hex');
const browserEvent = (packetId: string, trafficClass = 'browser') =>
  JSON.stringify({ visitor: visitorId(), consent: true, packet_id: packetId, kind: 'packet_download', traffic_class: trafficClass });
const forget = () => JSON.stringify({ visitor: visitorId(), consent: true });

/** The snapshot the current answer of a dataset comes from (forms one if none is stored). */
async function currentSnapshot(f: Fixtures, dataset: string): Promise<string> {
  const res = await f.main.app.inject({ url: `/api/v1/query?dataset=${dataset}&limit=1` });
  return res.json<{ snapshot_id: string }>().snapshot_id;
}

/** A GET and its answer from `main`, for a 304 with the real ETag. */
async function withEtagOf(f: Fixtures, url: string): Promise<InjectOptions> {
  const res = await f.main.app.inject({ url });
  return { url, headers: { 'if-none-match': String(res.headers.etag) } };
}

const get = (url: string): InjectOptions => ({ url });
const INM_ANY = { 'if-none-match': '*' };

const post = (url: string, payload: string, headers: Record<string, string> = JSON_TYPE): InjectOptions => ({ method: 'POST', url, payload, headers });

/** 200, 400, 413, 415 and 422 of an analysis operation, from its sample requests. */
function analysis(url: string, ok: Scenario[], invalid: Scenario[]): OperationScenarios {
  return {
    url: () => url,
    statuses: {
      200: ok,
      400: [
        { name: 'duplicate keys', request: () => post(url, '{"a": 1, "a": 2}') },
        { name: 'empty body', request: () => post(url, '') },
      ],
      413: [{ name: 'a body over the configured limit', app: 'small', request: () => post(url, JSON.stringify({ padding: 'x'.repeat(2000) })) }],
      415: [{ name: 'text/plain', request: () => post(url, '{}', { 'content-type': 'text/plain' }) }],
      422: invalid,
    },
  };
}

const panel = (series: number, points: number, allFields = true) => JSON.stringify(seriesRequest({ series, points, allFields }));

/** A request body built when the scenario runs, with what it exercises. */
type Sample = [name: string, body: () => string];

/** Requests for each analysis tool: successes reaching every optional result member, and refusals. */
const TOOL_SAMPLES: Record<string, { ok: Sample[]; invalid: Sample[] }> = {
  market_assessment: {
    ok: [
      ['three series with every optional member', () => panel(3, 64)],
      ['a series too short to assess', () => panel(2, 5, false)],
    ],
    invalid: [
      ['missing as_of', () => '{"series": []}'],
      ['two series with one id', () => {
        const body = seriesRequest({ series: 2, points: 5 });
        body.series[1].id = body.series[0].id;
        return JSON.stringify(body);
      }],
    ],
  },
  spectral_assessment: {
    ok: [
      ['four aligned series over several windows', () => panel(4, 121)],
      ['one series only', () => panel(1, 30, false)],
    ],
    invalid: [['a policy out of bounds', () => JSON.stringify({ series: [], as_of: CLOCK, policy: { window_points: 1 } })]],
  },
  narrative_triage: {
    ok: [['headlines with repeats', () => JSON.stringify(narrativeRequest({ events: 24, titleLength: 80 }))]],
    invalid: [['two events with one id', () => {
      const body = narrativeRequest({ events: 2, titleLength: 20 }) as { events: { id: string }[] };
      body.events[1].id = body.events[0].id;
      return JSON.stringify(body);
    }]],
  },
  dyson_reference: {
    ok: [['a small seeded path', () => '{"dimension": 3, "steps": 5, "seed": 6116}']],
    invalid: [['dimension above the maximum', () => '{"dimension": 99}']],
  },
  ab_test: {
    ok: [
      ['a decided comparison', () => '{"a_successes": 500, "a_total": 5000, "b_successes": 750, "b_total": 5000}'],
      ['overlapping arms with labels', () => '{"a_successes": 2, "a_total": 10, "b_successes": 9, "b_total": 10, "alpha": 0.1, "a_label": "control", "b_label": "variant"}'],
    ],
    invalid: [
      ['a_total as a float token', () => '{"a_successes": 1, "a_total": 10.0, "b_successes": 1, "b_total": 10}'],
      ['more successes than trials', () => '{"a_successes": 11, "a_total": 10, "b_successes": 1, "b_total": 10}'],
    ],
  },
  did_it_change: {
    ok: [['a jump after a steady stretch', () => '{"values": [1, 2, 1, 2, 1, 2, 1, 2, 8, 9]}']],
    invalid: [['a boolean among the values', () => '{"values": [1, true]}']],
  },
  real_or_sampling: {
    ok: [
      ['a move the sample size explains', () => '{"values": [5, 5.5, 6, 6.5, 7, 7.5, 8, 8.5, 9, 9.5, 2.5], "sample_sizes": [100, 110, 120, 130, 140, 150, 160, 170, 180, 190, 50]}'],
      ['too few pairs', () => '{"values": [1, 2, 3], "sample_sizes": [10, 10, 10]}'],
    ],
    invalid: [['lengths differ', () => '{"values": [1, 2, 3], "sample_sizes": [10, 10]}']],
  },
  forecast_next: {
    ok: [
      ['eleven readings', () => '{"values": [10, 11, 10, 12, 11, 10, 11, 12, 13, 12, 11]}'],
      ['too few readings', () => '{"values": [1, 2, 3]}'],
    ],
    invalid: [['nominal of 1', () => '{"values": [1, 2, 3], "nominal": 1}']],
  },
  score_forecasts: {
    ok: [
      ['twenty readings', () => '{"values": [10, 11, 10, 12, 11, 10, 11, 12, 13, 12, 11, 14, 12, 12, 13, 11, 15, 14, 14, 13]}'],
      ['too few readings', () => '{"values": [1, 2, 3]}'],
    ],
    invalid: [['an unknown member', () => '{"values": [1, 2, 3], "trade": true}']],
  },
  which_metrics_matter: {
    ok: [
      ['valid e-values', () => '{"evidence": {"signups": 40, "churn": 12.5, "latency": 0, "revenue": 12.5}, "valid_evalues": true, "alpha": 0.2}'],
      ['a descriptive ranking', () => '{"evidence": {"a": 100.0, "b": 1.0}}'],
    ],
    invalid: [['an empty metric name', () => '{"evidence": {"": 3}}']],
  },
};

/** The four REST operations at their own paths, and every tool at /v1/tools/<name>. */
const ANALYSIS_SCENARIOS: Record<string, OperationScenarios> = (() => {
  const out: Record<string, OperationScenarios> = {};
  const at = (url: string, samples: Sample[]): Scenario[] => samples.map(([name, body]) => ({ name, request: () => post(url, body()) }));
  const REST_PATHS: Record<string, string> = {
    market_assessment: '/v1/market/assess',
    spectral_assessment: '/v1/spectral/assess',
    narrative_triage: '/v1/narrative/triage',
    dyson_reference: '/v1/research/dyson',
  };
  for (const [tool, samples] of Object.entries(TOOL_SAMPLES)) {
    const rest = REST_PATHS[tool];
    if (rest !== undefined) out[tool] = analysis(rest, at(rest, samples.ok), at(rest, samples.invalid));
    const url = `/v1/tools/${tool}`;
    out[`tool_${tool}`] = analysis(url, at(url, samples.ok), at(url, samples.invalid));
  }
  return out;
})();

export const SCENARIOS: Record<string, OperationScenarios> = {
  servicePage: {
    url: () => '/',
    statuses: {
      200: [
        { name: 'a browser (HTML)', request: () => ({ url: '/', headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } }) },
        { name: 'a client asking for JSON', request: () => ({ url: '/', headers: { accept: 'application/json' } }) },
      ],
    },
  },

  health: { url: () => '/healthz', statuses: { 200: [{ name: 'liveness', request: () => ({ url: '/healthz' }) }] } },

  readiness: {
    url: () => '/readyz',
    statuses: {
      200: [{ name: 'store answers', request: () => ({ url: '/readyz' }) }],
      503: [{ name: 'store unreachable', app: 'broken', request: () => ({ url: '/readyz' }) }],
    },
  },

  capabilities: { url: () => '/v1/capabilities', statuses: { 200: [{ name: 'discovery', request: () => ({ url: '/v1/capabilities' }) }] } },

  ...ANALYSIS_SCENARIOS,

  fundingLatest: {
    url: () => '/v1/funding/latest',
    statuses: {
      200: [
        { name: 'anonymous', request: () => ({ url: '/v1/funding/latest' }) },
        { name: 'with a key', request: (f) => ({ url: '/v1/funding/latest', headers: bearer(f.token) }) },
      ],
      304: [{ name: 'If-None-Match: *', request: () => ({ url: '/v1/funding/latest', headers: { 'if-none-match': '*' } }) }],
      401: [{ name: 'malformed key', request: () => ({ url: '/v1/funding/latest', headers: BAD_BEARER }) }],
      503: [
        { name: 'stale evidence', app: 'stale', request: () => ({ url: '/v1/funding/latest' }) },
        { name: 'store unreachable', app: 'broken', request: () => ({ url: '/v1/funding/latest' }) },
      ],
    },
  },

  fundingChanges: {
    url: (f) => `/v1/funding/changes?since=${f.packets[0]}`,
    statuses: {
      200: [
        { name: 'from the first packet', request: (f) => ({ url: `/v1/funding/changes?since=${f.packets[0]}&until=${f.packets[2]}` }) },
        { name: 'from the latest packet (no changes)', request: (f) => ({ url: `/v1/funding/changes?since=${f.packets[2]}` }) },
        { name: 'since given twice (the last counts)', request: (f) => ({ url: `/v1/funding/changes?since=${f.packets[0]}&since=${f.packets[1]}` }) },
      ],
      304: [{ name: 'If-None-Match: *', request: (f) => ({ url: `/v1/funding/changes?since=${f.packets[1]}`, headers: { 'if-none-match': '*' } }) }],
      400: [{ name: 'malformed since', request: () => ({ url: '/v1/funding/changes?since=nope' }) }],
      401: [{ name: 'malformed key', request: (f) => ({ url: `/v1/funding/changes?since=${f.packets[0]}`, headers: BAD_BEARER }) }],
      404: [{ name: 'since not in the archive', request: () => ({ url: `/v1/funding/changes?since=${UNKNOWN_PACKET}` }) }],
      409: [{ name: 'until no longer latest', request: (f) => ({ url: `/v1/funding/changes?since=${f.packets[0]}&until=${f.packets[1]}` }) }],
      422: [{ name: 'since missing', request: () => ({ url: '/v1/funding/changes' }) }],
      503: [{ name: 'stale evidence', app: 'stale', request: (f) => ({ url: `/v1/funding/changes?since=${f.packets[0]}` }) }],
    },
  },

  fundingHistory: {
    url: () => '/v1/funding/history',
    statuses: {
      200: [
        { name: 'now', request: () => ({ url: '/v1/funding/history' }) },
        { name: 'one page back', request: (f) => ({ url: `/v1/funding/history?before=${f.packets[2]}&limit=1` }) },
        { name: 'before anything was archived', request: () => ({ url: '/v1/funding/history?as_of=2026-11-20T00:00:00Z' }) },
      ],
      304: [{ name: 'If-None-Match: *', request: () => ({ url: '/v1/funding/history', headers: { 'if-none-match': '*' } }) }],
      400: [{ name: 'malformed before', request: () => ({ url: '/v1/funding/history?before=nope' }) }],
      401: [{ name: 'malformed key', request: () => ({ url: '/v1/funding/history', headers: BAD_BEARER }) }],
      404: [{ name: 'before not in the archive', request: () => ({ url: `/v1/funding/history?before=${UNKNOWN_PACKET}` }) }],
      422: [
        { name: 'as_of without a zone', request: () => ({ url: '/v1/funding/history?as_of=2026-11-20T00:00:00' }) },
        { name: 'limit 0', request: () => ({ url: '/v1/funding/history?limit=0' }) },
      ],
      503: [{ name: 'store unreachable', app: 'broken', request: () => ({ url: '/v1/funding/history' }) }],
    },
  },

  fundingPacketFile: {
    url: (f) => `/packets/${f.packets[0]}/review.json`,
    statuses: {
      200: [
        ...['manifest.json', 'review.json', 'observations.csv'].map((file) => ({ name: file, request: (f: Fixtures) => ({ url: `/packets/${f.packets[0]}/${file}` }) })),
        // The second sample day sets aside small value exercises: its lineage lists them.
        { name: 'review.json with operations set aside', request: (f: Fixtures) => ({ url: `/packets/${f.packets[1]}/review.json` }) },
      ],
      304: [{ name: 'If-None-Match: *', request: (f) => ({ url: `/packets/${f.packets[0]}/manifest.json`, headers: { 'if-none-match': '*' } }) }],
      400: [
        { name: 'malformed packet id', request: () => ({ url: '/packets/nope/review.json' }) },
        { name: 'undecodable path', request: () => ({ url: '/packets/%ff/review.json' }) },
      ],
      404: [
        { name: 'unknown packet', request: () => ({ url: `/packets/${UNKNOWN_PACKET}/review.json` }) },
        { name: 'no such file', request: (f) => ({ url: `/packets/${f.packets[0]}/secrets.txt` }) },
        { name: 'no file name at all', request: (f) => ({ url: `/packets/${f.packets[0]}/` }) },
      ],
      503: [{ name: 'store unreachable', app: 'broken', request: (f) => ({ url: `/packets/${f.packets[0]}/review.json` }) }],
    },
  },

  fundingSourceTerms: { url: () => '/funding/sources.md', statuses: { 200: [{ name: 'the page', request: () => ({ url: '/funding/sources.md' }) }] } },
  fundingOpenbbWidgets: {
    url: () => '/funding-evidence/widgets.json',
    statuses: { 200: [{ name: 'widgets.json under the backend base', request: () => get('/funding-evidence/widgets.json') }] },
  },
  fundingOpenbbApps: {
    url: () => '/funding-evidence/apps.json',
    statuses: { 200: [{ name: 'apps.json under the backend base', request: () => get('/funding-evidence/apps.json') }] },
  },

  enrollApplication: enrollScenarios('/v1/applications'),
  eraseCurrentApplication: eraseScenarios('/v1/applications/current'),
  // The data API's paths for the same two operations (data upstream §3.7).
  enrollDataApplication: enrollScenarios('/api/v1/applications'),
  eraseCurrentDataApplication: eraseScenarios('/api/v1/applications/current'),

  fundingReview: {
    url: () => '/api/v1/funding-review',
    statuses: {
      200: [
        { name: 'fresh packet', request: () => ({ url: '/api/v1/funding-review' }) },
        { name: 'stale packet', app: 'stale', request: () => ({ url: '/api/v1/funding-review' }) },
        { name: 'store unreachable', app: 'broken', request: () => ({ url: '/api/v1/funding-review' }) },
      ],
      304: [{ name: 'If-None-Match: *', request: () => ({ url: '/api/v1/funding-review', headers: { 'if-none-match': '*' } }) }],
    },
  },

  fundingReviewCsv: {
    url: () => '/api/v1/funding-review.csv',
    statuses: {
      200: [{ name: 'fresh packet', request: () => ({ url: '/api/v1/funding-review.csv' }) }],
      304: [{ name: 'If-None-Match: *', request: () => ({ url: '/api/v1/funding-review.csv', headers: { 'if-none-match': '*' } }) }],
      503: [
        { name: 'stale packet', app: 'stale', request: () => ({ url: '/api/v1/funding-review.csv' }) },
        { name: 'store unreachable', app: 'broken', request: () => ({ url: '/api/v1/funding-review.csv' }) },
      ],
    },
  },

  agentQuery: {
    url: () => '/api/v1/agent-query?dataset=money_markets',
    statuses: {
      200: [
        { name: 'first page', request: () => ({ url: '/api/v1/agent-query?dataset=money_markets&limit=2' }) },
        {
          name: 'unchanged since the revision sent',
          request: async (f) => {
            const first = (await f.main.get('/api/v1/agent-query?dataset=money_markets&limit=2')).json<{ revision: string }>();
            return { url: `/api/v1/agent-query?dataset=money_markets&limit=2&previous_revision=${first.revision}` };
          },
        },
      ],
      304: [{ name: 'If-None-Match: *', request: () => ({ url: '/api/v1/agent-query?dataset=bank_risk', headers: { 'if-none-match': '*' } }) }],
      422: [
        { name: 'limit above 100', request: () => ({ url: '/api/v1/agent-query?dataset=money_markets&limit=101' }) },
        { name: 'no dataset, bad revision', request: () => ({ url: '/api/v1/agent-query?previous_revision=ABC' }) },
      ],
      503: [{ name: 'store unreachable', app: 'broken', request: () => ({ url: '/api/v1/agent-query?dataset=money_markets' }) }],
    },
  },

  agentReview: {
    url: () => '/api/v1/agent-review',
    statuses: {
      200: [
        { name: 'three sections', request: () => ({ url: '/api/v1/agent-review?limit=2' }) },
        {
          name: 'unchanged since the revision sent',
          request: async (f) => {
            const first = (await f.main.get('/api/v1/agent-review?limit=2')).json<{ revision: string }>();
            return { url: `/api/v1/agent-review?limit=2&previous_revision=${first.revision}` };
          },
        },
      ],
      304: [{ name: 'If-None-Match: *', request: () => ({ url: '/api/v1/agent-review', headers: { 'if-none-match': '*' } }) }],
      422: [
        { name: 'limit 26', request: () => ({ url: '/api/v1/agent-review?limit=26' }) },
        { name: 'malformed snapshot', request: () => ({ url: '/api/v1/agent-review?snapshot=abc' }) },
      ],
      503: [{ name: 'store unreachable', app: 'broken', request: () => ({ url: '/api/v1/agent-review' }) }],
    },
  },

  researchKitZip: {
    url: () => '/api/v1/research-kit.zip',
    statuses: {
      200: [{ name: 'the kit', request: () => ({ url: '/api/v1/research-kit.zip' }) }],
      304: [{ name: 'If-None-Match: *', request: () => ({ url: '/api/v1/research-kit.zip', headers: { 'if-none-match': '*' } }) }],
    },
  },

  recordBrowserEvent: {
    url: () => '/events',
    statuses: {
      200: [
        { name: 'a consented download', request: (f) => post('/events', browserEvent(f.packets[2]), OWN_PAGE) },
        { name: 'operator traffic', request: (f) => post('/events', browserEvent(f.packets[2], 'operator'), OWN_PAGE) },
      ],
      400: [
        { name: 'consent given as 1', request: (f) => post('/events', browserEvent(f.packets[2]).replace('"consent":true', '"consent":1'), OWN_PAGE) },
        { name: 'a packet the archive lacks', request: () => post('/events', browserEvent(UNKNOWN_PACKET), OWN_PAGE) },
      ],
      403: [
        { name: 'foreign origin', request: (f) => post('/events', browserEvent(f.packets[2]), { ...OWN_PAGE, ...FOREIGN_ORIGIN }) },
        { name: 'no origin', request: (f) => post('/events', browserEvent(f.packets[2])) },
      ],
      413: [{ name: 'over 1024 bytes', request: () => post('/events', JSON.stringify({ padding: 'x'.repeat(2000) }), OWN_PAGE) }],
      415: [{ name: 'text/plain', request: (f) => post('/events', browserEvent(f.packets[2]), { ...OWN_PAGE, 'content-type': 'text/plain' }) }],
      503: [{ name: 'store unreachable', app: 'broken', request: (f) => post('/events', browserEvent(f.packets[2]), OWN_PAGE) }],
    },
  },

  forgetBrowserVisitor: {
    url: () => '/forget',
    statuses: {
      200: [{ name: 'a visitor', request: () => post('/forget', forget(), OWN_PAGE) }],
      400: [{ name: 'an extra member', request: () => post('/forget', forget().replace('}', ',"x":1}'), OWN_PAGE) }],
      403: [{ name: 'foreign origin', request: () => post('/forget', forget(), { ...OWN_PAGE, ...FOREIGN_ORIGIN }) }],
      413: [{ name: 'over 1024 bytes', request: () => post('/forget', JSON.stringify({ padding: 'x'.repeat(2000) }), OWN_PAGE) }],
      415: [{ name: 'text/plain', request: () => post('/forget', forget(), { ...OWN_PAGE, 'content-type': 'text/plain' }) }],
      503: [{ name: 'store unreachable', app: 'broken', request: () => post('/forget', forget(), OWN_PAGE) }],
    },
  },

  dataRelease: {
    url: () => '/api/v1/release',
    statuses: {
      200: [
        { name: 'release', request: () => get('/api/v1/release') },
        { name: 'under /openbb', request: () => get('/openbb/api/v1/release') },
      ],
      304: [{ name: 'its own ETag', request: (f) => withEtagOf(f, '/api/v1/release') }],
    },
  },

  dataDatasets: {
    url: () => '/api/v1/datasets',
    statuses: {
      200: [{ name: 'catalogue', request: () => get('/api/v1/datasets') }],
      304: [{ name: 'its own ETag', request: (f) => withEtagOf(f, '/api/v1/datasets') }],
      503: [{ name: 'store unreachable', app: 'broken', request: () => get('/api/v1/datasets') }],
    },
  },

  dataSources: {
    url: () => '/api/v1/sources',
    statuses: {
      200: [
        { name: 'source health', request: () => get('/api/v1/sources') },
        { name: 'under /openbb, extra parameters ignored', request: () => get('/openbb/api/v1/sources?dataset=bad&limit=0') },
      ],
      304: [{ name: 'If-None-Match: *', request: () => ({ url: '/api/v1/sources', headers: INM_ANY }) }],
      503: [{ name: 'store unreachable', app: 'broken', request: () => get('/api/v1/sources') }],
    },
  },

  dataQuery: {
    url: () => '/api/v1/query?dataset=money_markets',
    statuses: {
      200: [
        ...['money_markets', 'money_market_history', 'capital_markets', 'bank_risk', 'market_liquidity', 'china_economy', 'source_health'].map((dataset) => ({
          name: dataset, request: () => get(`/api/v1/query?dataset=${dataset}`),
        })),
        { name: 'filtered and paged', request: () => get('/api/v1/query?dataset=money_market_history&entity=usd&start_date=2026-01-01&end_date=2026-12-31&limit=2&offset=1') },
        { name: 'from a chosen snapshot', request: async (f) => get(`/api/v1/query?dataset=bank_risk&snapshot=${await currentSnapshot(f, 'bank_risk')}&limit=3`) },
        { name: 'as retrieved at a moment', request: async (f) => {
          await currentSnapshot(f, 'market_liquidity');
          return get('/api/v1/query?dataset=market_liquidity&as_retrieved_at=2099-01-01T00:00:00Z');
        } },
        { name: 'as CSV', request: () => get('/api/v1/query?dataset=bank_risk&format=csv') },
        { name: 'under /openbb', request: () => get('/openbb/api/v1/query?dataset=capital_markets&limit=1') },
      ],
      304: [
        { name: 'If-None-Match: *', request: () => ({ url: '/api/v1/query?dataset=money_markets', headers: INM_ANY }) },
        { name: 'a chosen snapshot, its own ETag', request: async (f) => withEtagOf(f, `/api/v1/query?dataset=bank_risk&snapshot=${await currentSnapshot(f, 'bank_risk')}`) },
      ],
      422: [
        { name: 'dataset missing', request: () => get('/api/v1/query') },
        { name: 'unknown dataset, limit 0', request: () => get('/api/v1/query?dataset=bad&limit=0') },
        { name: 'limit true, offset -1', request: () => get('/api/v1/query?dataset=money_markets&limit=true&offset=-1') },
        { name: 'entity of 101 characters', request: () => get(`/api/v1/query?dataset=money_markets&entity=${'x'.repeat(101)}`) },
        { name: 'impossible date, start after end', request: () => get('/api/v1/query?dataset=money_markets&start_date=2026-02-30&end_date=20260901') },
        { name: 'start after end', request: () => get('/api/v1/query?dataset=money_markets&start_date=2026-09-02&end_date=2026-09-01') },
        { name: 'malformed snapshot id', request: () => get('/api/v1/query?dataset=money_markets&snapshot=nope') },
        { name: 'unknown snapshot id', request: () => get(`/api/v1/query?dataset=money_markets&snapshot=${'0'.repeat(32)}`) },
        { name: 'malformed instant', request: () => get('/api/v1/query?dataset=money_markets&as_retrieved_at=yesterday') },
        { name: 'nothing stored that early', request: () => get('/api/v1/query?dataset=money_markets&as_retrieved_at=2000-01-01T00:00:00Z') },
        { name: 'snapshot and as_retrieved_at', request: () => get(`/api/v1/query?dataset=money_markets&snapshot=${'0'.repeat(32)}&as_retrieved_at=2026-01-01T00:00:00Z`) },
        { name: 'unknown format', request: () => get('/api/v1/query?dataset=money_markets&format=xlsx') },
      ],
      503: [{ name: 'store unreachable', app: 'broken', request: () => get('/api/v1/query?dataset=money_markets') }],
    },
  },

  dataSnapshots: {
    url: () => '/api/v1/snapshots?dataset=money_markets',
    statuses: {
      200: [
        { name: 'stored snapshots', request: async (f) => {
          await currentSnapshot(f, 'money_markets');
          return get('/api/v1/snapshots?dataset=money_markets&limit=1');
        } },
        { name: 'none stored yet', request: () => get('/openbb/api/v1/snapshots?dataset=china_economy&offset=5') },
      ],
      304: [{ name: 'its own ETag', request: (f) => withEtagOf(f, '/api/v1/snapshots?dataset=money_markets') }],
      422: [
        { name: 'dataset missing', request: () => get('/api/v1/snapshots') },
        { name: 'limit above the maximum', request: () => get('/api/v1/snapshots?dataset=money_markets&limit=1001') },
      ],
      503: [{ name: 'store unreachable', app: 'broken', request: () => get('/api/v1/snapshots?dataset=money_markets') }],
    },
  },

  openbbWidgets: {
    url: () => '/openbb/widgets.json',
    statuses: {
      200: [{ name: 'widgets.json under the backend base', request: () => get('/openbb/widgets.json') }],
      304: [{ name: 'its own ETag', request: (f) => withEtagOf(f, '/openbb/widgets.json') }],
    },
  },

  openbbApps: {
    url: () => '/openbb/apps.json',
    statuses: {
      200: [{ name: 'apps.json under the backend base', request: () => get('/openbb/apps.json') }],
      304: [{ name: 'its own ETag', request: (f) => withEtagOf(f, '/openbb/apps.json') }],
    },
  },
};

/** Documented answers no scenario can produce, with the reason (`*` = every operation). */
export const UNREACHABLE: Record<string, Record<number, string>> = {
  '*': {
    500: 'an unexpected failure inside the service; test/http/shell.test.ts plants one and checks its body',
    // Raw-socket answers: the contract test checks the 417 body against every operation's schema.
    408: 'a request that did not arrive in time, over a real socket; test/http/edge.test.ts waits for it',
    417: 'an unknown Expect over a real socket; checked against every operation\'s schema in contract.test.ts',
  },
};

/** Enrollment answers at either of its paths. */
function enrollScenarios(path: string): OperationScenarios {
  return {
    url: () => path,
    statuses: {
      201: [{ name: 'exact consent', request: () => post(path, '{"measurement_consent": true}') }],
      400: [
        { name: 'consent given as 1', request: () => post(path, '{"measurement_consent": 1}') },
        { name: 'malformed JSON', request: () => post(path, '{') },
      ],
      403: [{ name: 'foreign origin', request: () => post(path, '{"measurement_consent": true}', { ...JSON_TYPE, ...FOREIGN_ORIGIN }) }],
      413: [{ name: 'over 1024 bytes', request: () => post(path, JSON.stringify({ measurement_consent: true, padding: 'x'.repeat(2000) })) }],
      415: [{ name: 'text/plain', request: () => post(path, '{"measurement_consent": true}', { 'content-type': 'text/plain' }) }],
      429: [{ name: 'allowance used up', app: 'full', request: () => post(path, '{"measurement_consent": true}') }],
      503: [{ name: 'store unreachable', app: 'broken', request: () => post(path, '{"measurement_consent": true}') }],
    },
  };
}

/** Erasure answers at either of its paths. */
function eraseScenarios(path: string): OperationScenarios {
  return {
    url: () => path,
    statuses: {
      200: [{ name: 'a fresh key', request: async (f) => ({ method: 'DELETE', url: path, headers: bearer(await f.enroll()) }) }],
      400: [{ name: 'malformed JSON body', request: (f) => ({ method: 'DELETE', url: path, payload: '{', headers: { ...JSON_TYPE, ...bearer(f.token) } }) }],
      401: [
        { name: 'no key', request: () => ({ method: 'DELETE', url: path }) },
        { name: 'malformed key', request: () => ({ method: 'DELETE', url: path, headers: BAD_BEARER }) },
      ],
      403: [{ name: 'foreign origin', request: (f) => ({ method: 'DELETE', url: path, headers: { ...FOREIGN_ORIGIN, ...bearer(f.token) } }) }],
      413: [{ name: 'a body over the limit', app: 'small', request: () => ({ method: 'DELETE', url: path, payload: JSON.stringify({ padding: 'x'.repeat(2000) }), headers: JSON_TYPE }) }],
      415: [{ name: 'text/plain body', request: () => ({ method: 'DELETE', url: path, payload: 'x', headers: { 'content-type': 'text/plain' } }) }],
      503: [{ name: 'store unreachable', app: 'broken', request: () => ({ method: 'DELETE', url: path, headers: bearer(`fe_${'A'.repeat(43)}`) }) }],
    },
  };
}
