import { describe, expect, it } from 'vitest';
import { projectChinaMacro, projectPalimpsest } from '../../../src/data/projections/china-economy.js';
import { parse } from '../documents.js';
import { inputFor } from '../support.js';

describe('china_economy projection', () => {
  it('gives Palimpsest one metadata row that never shows the document value', () => {
    const doc = parse(JSON.stringify({ status: 'restricted', value: 99, availability: 'unavailable', publication_allowed: false, reason: '出版受限: under review', counts: { series: 4 } }));
    const rows = projectPalimpsest(inputFor('china_economy', doc, 'china-economy-palimpsest'));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      entity_id: 'palimpsest_publication', entity_name: 'Palimpsest publication coverage', metric: 'publication_status', value: null, as_of: null,
      source_status: 'restricted', rights_status: 'restricted', availability: 'metadata_only', source_field: '/status',
    });
    expect(rows[0].context).toBe(
      '{"availability": "unavailable", "counts": {"series": 4}, "limitations": null, "publication_allowed": false, "reason": "出版受限: under review", "rights_evaluated_at": null}',
    );
  });

  it('lists the China macro catalogue as metadata, with the section labels', () => {
    const doc = parse(JSON.stringify({
      china_macro: {
        evidence_status: 'unavailable', rights_status: 'metadata_only', reading: 'listed only', boundaries: ['no values'],
        series_catalog: [{ series_id: 'CPI', label: 'Prices', release_url: 'https://example.test/cpi', value_publication: 'withheld', value: 3 }, 7],
      },
    }));
    const rows = projectChinaMacro(inputFor('china_economy', doc, 'china-economy-seiche'));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      entity_id: 'CPI', entity_name: 'Prices', metric: 'series_catalog', value: null, as_of: null, source_status: 'unavailable',
      rights_status: 'metadata_only', availability: 'metadata_only', observation_url: 'https://example.test/cpi', source_field: '/china_macro/series_catalog/0',
      context: '{"boundaries": ["no values"], "reason": "listed only", "value_publication": "withheld"}',
    });
  });

  it('returns no catalogue rows when the catalogue is missing or empty', () => {
    expect(projectChinaMacro(inputFor('china_economy', parse('{"china_macro": {"series_catalog": []}}'), 'china-economy-seiche'))).toEqual([]);
    expect(projectChinaMacro(inputFor('china_economy', parse('{}'), 'china-economy-seiche'))).toEqual([]);
  });
});
