// What a source says about itself (upstream §4.3): for each adapter, a fixed list of
// scalar members read at fixed places — never discovered — split into states
// (publisher-declared conditions) and clocks (document clocks: when the publisher generated
// or evaluated the document, not when a value was observed).

import { copyInto } from './encode.js';
import { pointer } from './text.js';
import type { AdapterId } from './registry.js';
import type { ReportedEntry, SourceReported } from './schemas.js';

type Path = readonly string[];
interface Adapter {
  state: ReadonlyArray<readonly [string, Path]>;
  clocks: ReadonlyArray<readonly [string, Path]>;
}

const ledger = (name: string) => ['observation_ledger', name] as const;
const clock = (name: string) => ['clocks', name] as const;

const ADAPTERS: Readonly<Record<AdapterId, Adapter>> = {
  seiche_money_markets_v1: {
    state: [['response_status', ['status']]],
    clocks: [['generated_at', ['generated_at']]],
  },
  seiche_capital_markets_v1: {
    state: [['response_status', ['status']], ['section_status', ['capital_markets', 'status']]],
    clocks: [
      ['generated_at', ['generated_at']],
      ['as_of', ['as_of']],
      ['snapshot_generated_at', clock('snapshot_generated_at')],
      ['evaluation_at', clock('evaluation_at')],
      ['latest_domain_as_of', clock('latest_domain_as_of')],
      ['selected_evidence_as_of', clock('selected_evidence_as_of')],
      ['capital_markets_domain_as_of', ['clocks', 'domains', 'capital_markets']],
    ],
  },
  palimpsest_china_index_v1: {
    state: [
      ['economic_state', ['economic_state', 'status']],
      ['readiness', ['readiness', 'status']],
      ['publication_status', ['status']],
      ['availability', ['availability']],
      ['publication_allowed', ['publication_allowed']],
    ],
    clocks: [
      ['generated_at', ['generated_at']],
      ['head_as_of', ledger('head_as_of')],
      ['head_generated_at', ledger('head_generated_at')],
      ['collection_first', ledger('collection_first')],
      ['collection_last', ledger('collection_last')],
      ['release_first', ledger('release_first')],
      ['release_last', ledger('release_last')],
      ['period_first', ledger('period_first')],
      ['period_last', ledger('period_last')],
    ],
  },
  seiche_china_macro_v1: {
    state: [
      ['response_status', ['status']],
      ['section_status', ['china_macro', 'status']],
      ['section_evidence_status', ['china_macro', 'evidence_status']],
    ],
    clocks: [['generated_at', ['generated_at']], ['as_of', ['as_of']], ['section_as_of', ['china_macro', 'as_of']]],
  },
  liquilens_failure_radar_v1: {
    state: [['historical_evidence_status', ['historical_evidence', 'status']]],
    clocks: [['as_of', ['as_of']], ['market_layer_as_of', ['market_layer', 'as_of']]],
  },
  undertow_summary_v1: {
    state: [['funding_regime', ['funding_regime']]],
    clocks: [['asof', ['asof']]],
  },
};

export type { ReportedEntry, SourceReported };

function read(document: unknown, list: Adapter['state'], provenance: () => ReportedEntry['provenance']): ReportedEntry[] | 'not_reported' {
  const out: ReportedEntry[] = [];
  for (const [name, path] of list) {
    let parent: unknown = document;
    for (let i = 0; i < path.length - 1 && parent !== undefined; i++) {
      parent = isPlainObject(parent) && Object.hasOwn(parent, path[i]) ? parent[path[i]] : undefined;
    }
    const last = path[path.length - 1];
    if (!isPlainObject(parent) || !Object.hasOwn(parent, last)) continue;
    const value = parent[last];
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') continue;
    // Copied into the entry, so a float such as 30.0 keeps its kind and a huge integer its digits.
    const entry = { name, value, path: pointer(...path), provenance: provenance() };
    copyInto(entry, 'value', [parent, last]);
    out.push(entry);
  }
  return out.length > 0 ? out : 'not_reported';
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function sourceReported(adapter: AdapterId, document: unknown, sourceUrl: string, contentSha256: string): SourceReported {
  const spec = ADAPTERS[adapter];
  const provenance = () => ({ kind: 'source_document' as const, source_url: sourceUrl, content_sha256: contentSha256 });
  return { adapter, state: read(document, spec.state, provenance), clocks: read(document, spec.clocks, provenance) };
}
