import { describe, expect, it } from 'vitest';
import { projectMarketLiquidity } from '../../../src/data/projections/market-liquidity.js';
import { parseStrictJson } from '../../../src/core/json.js';
import { liquidityDoc, parse } from '../documents.js';
import { inputFor } from '../support.js';

const project = (doc: unknown) => projectMarketLiquidity(inputFor('market_liquidity', parse(JSON.stringify(doc)), 'market-liquidity'));

describe('market_liquidity projection', () => {
  it('keeps a withheld percentile null and says withheld, never rebuilding it from the segment score', () => {
    const [published, withheld] = project(liquidityDoc());
    expect(published).toMatchObject({
      entity_id: 'ust', entity_name: 'spread', metric: 'stress_percentile', value: 0.3, unit: 'ratio', as_of: '2026-09-24',
      source_status: 'validated', availability: 'published', observation_url: 'https://example.test/ust',
      source_field: '/segment_reports/0/observations/0/stress_pctl',
    });
    expect(published.context).toContain('retrospective replay');
    expect(withheld).toMatchObject({ value: null, availability: 'withheld' });
    expect(withheld.context).toContain('"withheld_note": "too few days"');
  });

  it('copies numbers into the context with the kind the document wrote them in (30.0 stays a float, -0.0 too, a huge integer is its digits)', () => {
    const huge = '1' + '0'.repeat(400);
    const text = JSON.stringify(liquidityDoc()).replace('"obs":', '"obs": 30.0, "was_obs":').replace('"coverage":', `"coverage": [${huge}, -0.0, 2], "was_coverage":`);
    const [row] = projectMarketLiquidity(inputFor('market_liquidity', parseStrictJson(text, { hugeIntegers: true }), 'market-liquidity'));
    expect(row.context).toContain('"observations": 30.0');
    expect(row.context).toContain(`"coverage": [${huge}, -0.0, 2]`);
  });

  it('gives a segment with publication_allowed false null values that are not published', () => {
    const rows = project(liquidityDoc({ segment: { publication_allowed: false } }));
    expect(rows[0]).toMatchObject({ value: null, availability: 'unavailable' });
  });

  it.each(['metadata_only', 'prohibited'])('withholds every percentile when the document rights_status is %s', (rights) => {
    expect(project(liquidityDoc({ document: { rights_status: rights } })).map((r) => r.value)).toEqual([null, null]);
  });

  it('shows percentiles under derived_only', () => {
    expect(project(liquidityDoc({ document: { rights_status: 'derived_only' } }))[0].value).toBe(0.3);
  });

  it('yields nothing for segments without observations, and no rows without a segment list', () => {
    expect(project({ segment_reports: [{ segment: 'x', observations: [] }] })).toEqual([]);
    expect(project({ segment_reports: {} })).toEqual([]);
  });
});
