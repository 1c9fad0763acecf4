import { describe, expect, it } from 'vitest';
import { projectCapitalMarkets } from '../../../src/data/projections/capital-markets.js';
import { capitalDoc, parse } from '../documents.js';
import { inputFor } from '../support.js';

const project = (doc: unknown) => projectCapitalMarkets(inputFor('capital_markets', parse(JSON.stringify(doc)), 'capital-market'));

describe('capital_markets projection', () => {
  it('keeps the price node clock even when the document says 2099; VIX in index points; a null HY OAS has no value and no date', () => {
    const [vix, hy] = project(capitalDoc());
    expect(vix).toMatchObject({
      entity_id: 'vix', metric: 'vix', entity_name: 'CBOE VIX', value: 18.2, unit: 'index_points', as_of: '2026-09-22', availability: 'published',
      source_status: 'close', source_field: '/capital_markets/risk_context/market_prices/vix/value', rights_status: null, observation_url: null,
      context: 'Source registry IDs: ["cboe.vix"]',
    });
    expect(hy).toMatchObject({ entity_id: 'high_yield_oas', unit: '%', value: null, as_of: null, availability: 'unavailable', context: 'Source registry IDs: []' });
  });

  it.each([
    ['document', { document: { publication_allowed: false } }],
    ['capital_markets', { section: { publication_allowed: false } }],
    ['risk_context', { risk: { publication_allowed: false } }],
    ['market_prices', { prices: { publication_allowed: false } }],
  ])('withholds both prices when publication is not allowed at the %s level', (_level, overrides) => {
    const rows = project(capitalDoc({ ...overrides, hy: { value: 3.1, as_of: '2026-09-22' } }));
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row.value).toBeNull();
      expect(row.availability).not.toBe('published');
      expect(row.availability).toBe('unavailable');
    }
  });

  it('withholds both prices when the section is derived_only: prices are raw observations', () => {
    const rows = project(capitalDoc({ section: { rights_status: 'derived_only' }, hy: { value: 3.1 } }));
    expect(rows.map((r) => r.value)).toEqual([null, null]);
  });

  it('withholds one price whose own node is blocked and keeps the other', () => {
    const rows = project(capitalDoc({ vix: { status: 'pending review' }, hy: { value: 3.1, as_of: '2026-09-21' } }));
    expect(rows.map((r) => r.value)).toEqual([null, 3.1]);
  });

  it('always gives two rows for its schema, even when the section is missing, and none for another schema', () => {
    const rows = project({ schema: 'seiche.world-markets.v1' });
    expect(rows.map((r) => [r.entity_id, r.value, r.as_of])).toEqual([['vix', null, null], ['high_yield_oas', null, null]]);
    expect(project({ ...capitalDoc(), schema: 'new-format' })).toEqual([]);
  });
});
