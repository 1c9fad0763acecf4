import { describe, expect, it } from 'vitest';
import { sourceReported } from '../../src/data/source-reported.js';
import { parse } from './documents.js';

const SHA = `sha256:${'b'.repeat(64)}`;

describe('source_reported adapters', () => {
  it('reads the fixed state and clock members of the capital-markets document, in adapter order', () => {
    const doc = parse(JSON.stringify({
      status: 'PARTIAL', generated_at: '2026-09-25T10:00:00Z', as_of: '2099-01-01',
      capital_markets: { status: 'ok' },
      clocks: { evaluation_at: '2026-09-25T09:59:00Z', domains: { capital_markets: '2026-09-24' }, extra_clock: 'never read' },
    }));
    const reported = sourceReported('seiche_capital_markets_v1', doc, 'https://x.test/d', SHA);
    expect(reported.adapter).toBe('seiche_capital_markets_v1');
    expect(reported.state).toEqual([
      { name: 'response_status', value: 'PARTIAL', path: '/status', provenance: { kind: 'source_document', source_url: 'https://x.test/d', content_sha256: SHA } },
      { name: 'section_status', value: 'ok', path: '/capital_markets/status', provenance: { kind: 'source_document', source_url: 'https://x.test/d', content_sha256: SHA } },
    ]);
    expect((reported.clocks as { name: string; path: string }[]).map((c) => [c.name, c.path])).toEqual([
      ['generated_at', '/generated_at'],
      ['as_of', '/as_of'],
      ['evaluation_at', '/clocks/evaluation_at'],
      ['capital_markets_domain_as_of', '/clocks/domains/capital_markets'],
    ]);
  });

  it('says not_reported when none of its members is a present, non-null scalar', () => {
    const reported = sourceReported('seiche_money_markets_v1', parse('{"status": null, "generated_at": {"at": 1}}'), 'u', SHA);
    expect(reported).toEqual({ adapter: 'seiche_money_markets_v1', state: 'not_reported', clocks: 'not_reported' });
    expect(sourceReported('undertow_summary_v1', parse('[1, 2]'), 'u', SHA).state).toBe('not_reported');
  });

  it('keeps scalar kinds: booleans stay booleans and numbers keep their kind', () => {
    const reported = sourceReported('palimpsest_china_index_v1', parse('{"publication_allowed": false, "generated_at": 1.0}'), 'u', SHA);
    expect(reported.state).toMatchObject([{ name: 'publication_allowed', value: false, path: '/publication_allowed' }]);
    expect(reported.clocks).toMatchObject([{ name: 'generated_at', value: 1 }]);
  });
});
