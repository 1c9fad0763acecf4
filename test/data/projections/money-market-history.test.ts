import { describe, expect, it } from 'vitest';
import { projectMoneyMarketHistory } from '../../../src/data/projections/money-market-history.js';
import { pageOf, type PageParams } from '../../../src/data/query.js';
import { RowTable } from '../../../src/data/row-table.js';
import { atlasDoc, parse, type MarketSpec } from '../documents.js';
import { inputFor, resolvePointer } from '../support.js';

const project = (doc: unknown) => [...projectMoneyMarketHistory(inputFor('money_market_history', parse(JSON.stringify(doc))))];
const page = (doc: unknown, params: Partial<PageParams>) =>
  pageOf(RowTable.of(project(doc)), { entity: '', startDate: '', endDate: '', limit: 200, offset: 0, ...params });

const usd: MarketSpec = { id: 'US-USD', name: 'US dollar', value: 0, history: [['2026-09-22', 4.4], ['2026-09-23', null], ['2026-09-24', 0]] };
const restricted: MarketSpec = { id: 'XX', value: 99, history: [['2026-09-23', 98], ['2026-09-24', 99]], availability: 'RESTRICTED' };

describe('money_market_history projection', () => {
  it('pages a filtered history: usd, 23–24 Sep, limit 1 → two rows, the first null with no publication clock', () => {
    const result = page(atlasDoc([usd, restricted]), { entity: 'usd', startDate: '2026-09-23', endDate: '2026-09-24', limit: 1 });
    expect(result.total_rows).toBe(2);
    expect(result.next_offset).toBe(1);
    expect(result.results[0]).toMatchObject({ value: null, published_at: null, knowledge_time: null, as_of: '2026-09-23', availability: 'unavailable' });
  });

  it('continues from offset 1 with start date only → the zero, and no further page', () => {
    const result = page(atlasDoc([usd, restricted]), { entity: 'usd', startDate: '2026-09-23', offset: 1, limit: 1 });
    expect(result.results).toHaveLength(1);
    expect(result.results[0]).toMatchObject({ value: 0, availability: 'published', source_field: '/markets/0/benchmark/history/2/1' });
    expect(result.next_offset).toBeNull();
  });

  it('gives the restricted market one placeholder: no history is read, every value null', () => {
    const result = page(atlasDoc([usd, restricted]), { entity: 'XX' });
    expect(result.results).toHaveLength(1);
    expect(result.results[0]).toMatchObject({
      entity_id: 'XX', value: null, as_of: null, availability: 'restricted_or_unavailable', source_field: '/markets/1/benchmark/history',
    });
  });

  it('blocks every market when the document says publication_allowed: false: one null row per market', () => {
    const rows = project(atlasDoc([usd, { id: 'EA-EUR' }], { publication_allowed: false }));
    expect(rows).toHaveLength(2);
    expect(rows.every((r) => r.value === null && r.availability === 'restricted_or_unavailable')).toBe(true);
  });

  it('copies current metadata onto history rows and skips malformed points silently', () => {
    const rows = project(atlasDoc([{ id: 'A', history: [['2026-09-20'], [20260921, 1], ['2026-09-22', '1.0'], 'x', ['2026-09-23', 1.25], ['2026-09-24', true]] }]));
    expect(rows.map((r) => [r.as_of, r.value, r.source_field])).toEqual([
      ['2026-09-22', null, '/markets/0/benchmark/history/2/1'],
      ['2026-09-23', 1.25, '/markets/0/benchmark/history/4/1'],
      ['2026-09-24', null, '/markets/0/benchmark/history/5/1'],
    ]);
    expect(rows[1]).toMatchObject({ entity_id: 'A', unit: '%', source_status: 'FRESH', rights_status: 'allowed', metric: 'RATE' });
  });

  it('stands in for a missing or empty history with one row carrying the current availability', () => {
    const rows = project(atlasDoc([{ id: 'A', history: [] }, { id: 'B', history: null, availability: '' }]));
    expect(rows.map((r) => [r.entity_id, r.value, r.availability, r.source_field])).toEqual([
      ['A', null, 'AVAILABLE', '/markets/0/benchmark/history'],
      ['B', null, 'not_reported', '/markets/1/benchmark/history'],
    ]);
  });

  it('gives every non-null history value equal to the number at its source_field', () => {
    const doc = parse(JSON.stringify(atlasDoc([usd, { id: 'B', history: [['2026-01-01', 7], ['2026-01-02', -0.5]] }])));
    const rows = [...projectMoneyMarketHistory(inputFor('money_market_history', doc))].filter((r) => r.value !== null);
    expect(rows.length).toBe(4);
    for (const row of rows) expect(row.value).toBe(resolvePointer(doc, row.source_field));
  });
});
