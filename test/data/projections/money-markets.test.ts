import { describe, expect, it } from 'vitest';
import { encodeDataBody } from '../../../src/data/encode.js';
import { projectMoneyMarketHistory } from '../../../src/data/projections/money-market-history.js';
import { projectMoneyMarkets } from '../../../src/data/projections/money-markets.js';
import { RowTable } from '../../../src/data/row-table.js';
import { ROW_COLUMNS } from '../../../src/data/row.js';
import { atlasDoc, parse } from '../documents.js';
import { inputFor, resolvePointer } from '../support.js';

const project = (doc: unknown) => projectMoneyMarkets(inputFor('money_markets', parse(JSON.stringify(doc))));

describe('money_markets projection', () => {
  it('keeps a benchmark of 0 as 0 dated by the benchmark asof, pointing at its value', () => {
    const [row] = project(atlasDoc([{ id: 'US-USD', value: 0, asof: '2026-09-24' }]));
    expect(row.value).toBe(0);
    expect(row.as_of).toBe('2026-09-24');
    expect(row.as_of).not.toBe(row.retrieved_at);
    expect(row.source_field).toBe('/markets/0/benchmark/value');
    expect(row.availability).toBe('AVAILABLE');
    // The upstream emits floats: a zero is written 0.0 on the wire.
    expect(encodeDataBody(RowTable.of([row]).row(0)).toString()).toContain('"value":0.0,');
  });

  it('reads the integer -0 as Python does (int 0, written 0.0) and keeps the float -0.0 negative', () => {
    const written = (token: string) => {
      const [row] = projectMoneyMarkets(inputFor('money_markets', parse(JSON.stringify(atlasDoc([{ id: 'US-USD', value: 1 }])).replace('"value":1', `"value":${token}`))));
      return encodeDataBody(RowTable.of([row]).row(0)).toString().match(/"value":([^,]*),/)![1];
    };
    expect(written('-0')).toBe('0.0');
    expect(written('-0.0')).toBe('-0.0');
    expect(written('0')).toBe('0.0');
  });

  it('withholds a value whose benchmark availability is RESTRICTED even though the source has 99', () => {
    const [row] = project(atlasDoc([{ id: 'XX', value: 99, availability: 'RESTRICTED' }]));
    expect(row.value).toBeNull();
    expect(row.availability).toBe('restricted_or_unavailable');
    // Metadata stays visible.
    expect(row).toMatchObject({ entity_id: 'XX', metric: 'RATE', unit: '%', as_of: '2026-09-24', rights_status: 'allowed' });
  });

  it('emits one row per market object with the documented columns, in order', () => {
    const rows = project(atlasDoc([{ id: 'A' }, { id: 'B', value: null }]));
    expect(rows).toHaveLength(2);
    expect(Object.keys(rows[0])).toEqual([...ROW_COLUMNS]);
    expect(rows[0]).toMatchObject({
      dataset: 'money_markets', product: 'Seiche', entity_id: 'A', entity_name: 'A market', metric: 'RATE', value: 1.5, unit: '%',
      source_status: 'FRESH', observation_url: null, published_at: '2026-09-24T18:00:00+00:00', knowledge_time: '2026-09-25T08:00:00+00:00',
      context: 'about A', transport_status: 'complete', evidence_status: 'not_evaluated', financial_authority: 'none', carrier_verification: 'not_performed',
    });
    expect(rows[1]).toMatchObject({ entity_id: 'B', value: null, availability: 'unavailable' });
  });

  it('skips non-object market items but keeps the original indexes in pointers', () => {
    const doc = atlasDoc([{ id: 'A' }, { id: 'B' }]) as { markets: unknown[] };
    doc.markets.splice(1, 0, 'not a market', null);
    const rows = project(doc);
    expect(rows.map((r) => [r.entity_id, r.source_field])).toEqual([['A', '/markets/0/benchmark/value'], ['B', '/markets/3/benchmark/value']]);
  });

  it('returns no rows for a document of another schema or without a markets list', () => {
    expect(project({ ...atlasDoc([{ id: 'A' }]), schema: 'new-format' })).toEqual([]);
    expect(project({ ...atlasDoc([{ id: 'A' }]), markets: null })).toEqual([]);
    expect(project(atlasDoc([]))).toEqual([]);
    expect(project([1, 2])).toEqual([]);
  });

  it('takes only finite JSON numbers as values: booleans and numeric strings are not numbers', () => {
    const rows = project(atlasDoc([{ id: 'A', value: true }, { id: 'B', value: '4.5' }, { id: 'C', value: 2 }]));
    expect(rows.map((r) => r.value)).toEqual([null, null, 2]);
    expect(rows.map((r) => r.availability)).toEqual(['unavailable', 'unavailable', 'AVAILABLE']);
  });

  it('coerces scalar text fields as Python str() does and drops structured ones', () => {
    const text = JSON.stringify(atlasDoc([{ id: 'A', extraMarket: { market_id: 5, display_name: true, countercase: { nested: 1 } }, extraBenchmark: { mnemonic: '', status: 2, unit: 1e-5 } }]))
      .replace('"status":2,', '"status":2.0,');
    const [row] = projectMoneyMarkets(inputFor('money_markets', parse(text)));
    expect(row.entity_id).toBe('5');
    expect(row.entity_name).toBe('True');
    expect(row.context).toBeNull();
    expect(row.metric).toBe('benchmark');
    expect(row.source_status).toBe('2.0');
    expect(row.unit).toBe('1e-05');
  });

  it('reports a missing publisher availability as not_reported', () => {
    const [row] = project(atlasDoc([{ id: 'A', extraBenchmark: { availability: null } }]));
    expect(row.availability).toBe('not_reported');
  });

  const states = ['prohibited', 'metadata_only', 'METADATA-ONLY', 'derived_only'];
  const placements = states.flatMap((state) => ['redistribution_status', 'rights_status'].flatMap((field) =>
    (['document', 'market', 'benchmark'] as const).map((level) => [state, field, level] as const)));
  it.each(placements)('withholds every US-USD value and history point for %s in %s at the %s level', (state, field, level) => {
    const label = { [field]: state };
    const doc = atlasDoc(
      [{ id: 'US-USD', value: 4.5, extraMarket: level === 'market' ? label : {}, extraBenchmark: level === 'benchmark' ? label : { redistribution_status: 'allowed' } }],
      level === 'document' ? label : {},
    );
    const parsed = parse(JSON.stringify(doc));
    const rows = [
      ...projectMoneyMarkets(inputFor('money_markets', parsed)),
      ...projectMoneyMarketHistory(inputFor('money_market_history', parsed)),
    ].filter((r) => r.entity_id === 'US-USD');
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row).toMatchObject({ value: null, availability: 'restricted_or_unavailable' });
  });

  it('gives every non-null value equal to the number at its source_field', () => {
    const doc = parse(JSON.stringify(atlasDoc([{ id: 'A', value: 0 }, { id: 'B', value: 3.25 }, { id: 'C', value: -1 }])));
    for (const row of projectMoneyMarkets(inputFor('money_markets', doc))) {
      expect(row.value).toBe(resolvePointer(doc, row.source_field));
    }
  });
});
