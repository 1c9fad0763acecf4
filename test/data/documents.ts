// Small source documents for the tests, in the shapes the projections read. Each builder
// returns JSON text, parsed by the project's strict reader like a real retrieval.
import { parseStrictJson } from '../../src/core/json.js';

export function parse(text: string): unknown {
  return parseStrictJson(text);
}

export interface MarketSpec {
  id: string;
  name?: string;
  value?: unknown;
  asof?: string;
  history?: unknown;
  availability?: string;
  redistribution?: string;
  extraMarket?: Record<string, unknown>;
  extraBenchmark?: Record<string, unknown>;
}

export function atlasDoc(markets: MarketSpec[], extraDocument: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    schema: 'seiche.global-money-markets.v1',
    status: 'PARTIAL',
    generated_at: '2026-09-25T10:00:00+00:00',
    ...extraDocument,
    markets: markets.map((m) => ({
      market_id: m.id,
      display_name: m.name ?? `${m.id} market`,
      countercase: `about ${m.id}`,
      ...m.extraMarket,
      benchmark: {
        mnemonic: 'RATE',
        value: m.value === undefined ? 1.5 : m.value,
        unit: '%',
        asof: m.asof ?? '2026-09-24',
        status: 'FRESH',
        availability: m.availability ?? 'AVAILABLE',
        redistribution_status: m.redistribution ?? 'allowed',
        published_at: '2026-09-24T18:00:00+00:00',
        knowledge_time: '2026-09-25T08:00:00+00:00',
        history: m.history === undefined ? [['2026-09-23', 1.4], ['2026-09-24', 1.5]] : m.history,
        ...m.extraBenchmark,
      },
    })),
  };
}

export function capitalDoc(overrides: { document?: Record<string, unknown>; section?: Record<string, unknown>; risk?: Record<string, unknown>; prices?: Record<string, unknown>; vix?: Record<string, unknown>; hy?: Record<string, unknown> } = {}) {
  return {
    schema: 'seiche.world-markets.v1',
    status: 'PARTIAL',
    generated_at: '2099-01-01T00:00:00+00:00',
    as_of: '2099-01-01',
    ...overrides.document,
    capital_markets: {
      status: 'available',
      ...overrides.section,
      risk_context: {
        ...overrides.risk,
        market_prices: {
          ...overrides.prices,
          vix: { value: 18.2, as_of: '2026-09-22', status: 'close', source_registry_ids: ['cboe.vix'], ...overrides.vix },
          high_yield_oas: { value: null, as_of: null, status: 'missing', ...overrides.hy },
        },
      },
    },
  };
}

export function boardDoc(overrides: { document?: Record<string, unknown>; row?: Record<string, unknown>; hazard?: Record<string, unknown> } = {}) {
  return {
    as_of: '2025-11-14',
    historical_evidence: 'thin',
    ...overrides.document,
    rows: [{
      slug: 'alpha-bank',
      name: 'Alpha Bank',
      as_of: '2025-09-30',
      tier: 'watch',
      score: 0,
      grade: 'B',
      quarter: '2025Q3',
      age_months: 2,
      ...overrides.row,
      hazard: { pd_12m: 0.01, score_scope: 'corpus_monitoring_not_credit_rating', validated_backtest: false, real_money_eligible: false, ...overrides.hazard },
    }],
  };
}

export function liquidityDoc(overrides: { document?: Record<string, unknown>; segment?: Record<string, unknown> } = {}) {
  return {
    asof: '2026-09-24',
    funding_regime: 'ample',
    ...overrides.document,
    segment_reports: [{
      segment: 'ust',
      report_url: 'https://example.test/ust',
      coverage: { report_status: 'validated', method: 'retrospective replay' },
      ...overrides.segment,
      observations: [
        { measure: 'spread', asof: '2026-09-24', stress_pctl: 0.3, obs: 400, span_days: 900 },
        { measure: 'depth', asof: '2026-09-24', stress_pctl: null, stress_pctl_withheld: true, segment_score: 90, obs: 400, withheld_note: 'too few days' },
      ],
    }],
  };
}
