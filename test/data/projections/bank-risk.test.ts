import { describe, expect, it } from 'vitest';
import { projectBankRisk } from '../../../src/data/projections/bank-risk.js';
import { boardDoc, parse } from '../documents.js';
import { inputFor } from '../support.js';

const project = (doc: unknown) => projectBankRisk(inputFor('bank_risk', parse(JSON.stringify(doc)), 'bank-risk'));

describe('bank_risk projection', () => {
  it('keeps the PD as a fraction dated by the quarter, with the limits in context and no grade', () => {
    const [score, pd] = project(boardDoc({ hazard: { pd_12m: 0.0042 } }));
    expect(score).toMatchObject({ metric: 'monitoring_score', value: 0, unit: 'score_points', source_field: '/rows/0/score', availability: 'published' });
    expect(pd).toMatchObject({
      entity_id: 'alpha-bank', entity_name: 'Alpha Bank', metric: 'model_pd_12m', value: 0.0042, unit: 'ratio', as_of: '2025-09-30',
      source_status: 'watch', source_field: '/rows/0/hazard/pd_12m', rights_status: null,
    });
    expect(pd.context).toContain('"real_money_eligible": false');
    expect(pd.context).toBe(
      '{"age_months": 2, "historical_evidence": "thin", "quarter": "2025Q3", "real_money_eligible": false, "scope": "corpus_monitoring_not_credit_rating", "validated_backtest": false}',
    );
    expect(pd.context).not.toContain('grade');
  });

  it.each(['metadata_only', 'prohibited'])('withholds every value when the document rights_status is %s', (rights) => {
    const rows = project(boardDoc({ document: { rights_status: rights } }));
    expect(rows.map((r) => r.value)).toEqual([null, null]);
    expect(rows.every((r) => r.availability === 'unavailable')).toBe(true);
  });

  it('shows derived outputs under a document rights_status of derived_only', () => {
    expect(project(boardDoc({ document: { rights_status: 'derived_only' } })).map((r) => r.value)).toEqual([0, 0.01]);
  });

  it('withholds both values when the row or its hazard is blocked', () => {
    expect(project(boardDoc({ row: { publication_allowed: false } })).map((r) => r.value)).toEqual([null, null]);
    expect(project(boardDoc({ hazard: { status: 'review_required' } })).map((r) => r.value)).toEqual([null, null]);
  });

  it('needs a rows list; an empty one gives no rows', () => {
    expect(project({ rows: 'x' })).toEqual([]);
    expect(project({ rows: [] })).toEqual([]);
  });

  it('projects current filings: a 0 stays, an undisclosed metric is null, dates and links come from the filing', () => {
    const doc = {
      ...boardDoc(),
      current_disclosures: {
        schema: 'liquilens.current-bank-filings.v1',
        rows: [{
          slug: 'alpha-bank', name: 'Alpha Bank', period_end: '2025-09-30', available_at: '2025-11-02T09:00:00+00:00', status: 'current',
          rights_status: 'allowed', sources: ['https://example.test/filing.pdf', 'https://example.test/other'],
          metrics: { gnpa_pct: { value: 0, unit: 'percent', status: 'disclosed' }, nnpa_pct: { value: null, unit: 'percent', status: 'not_disclosed' } },
        }],
      },
    };
    const rows = project(doc).slice(2);
    expect(rows[0]).toMatchObject({
      metric: 'gnpa_pct', value: 0, unit: 'percent', as_of: '2025-09-30', knowledge_time: '2025-11-02T09:00:00+00:00',
      observation_url: 'https://example.test/filing.pdf', source_field: '/current_disclosures/rows/0/metrics/gnpa_pct/value', availability: 'published',
    });
    expect(rows[0].context).toContain('"score_authority": false');
    expect(rows[1]).toMatchObject({ metric: 'nnpa_pct', value: null, availability: 'unavailable' });
  });

  it.each([
    ['a stale filing', { status: 'stale' }],
    ['a restricted filing', { rights_status: 'restricted' }],
  ])('withholds every value of %s', (_what, change) => {
    const doc = {
      rows: [],
      current_disclosures: {
        schema: 'liquilens.current-bank-filings.v1',
        rows: [{ slug: 'b', period_end: '2025-09-30', status: 'current', ...change, metrics: { gnpa_pct: { value: 2.5, unit: 'percent' }, crar: { value: 14 } } }],
      },
    };
    const rows = project(doc);
    expect(rows).toHaveLength(2);
    expect(rows.map((r) => r.value)).toEqual([null, null]);
  });

  it('counts filings with an empty board as rows, not as schema drift', () => {
    const doc = { rows: [], current_disclosures: { schema: 'liquilens.current-bank-filings.v1', rows: [{ slug: 'b', status: 'current', metrics: { m: { value: 1 } } }] } };
    expect(project(doc)).toHaveLength(1);
  });
});
