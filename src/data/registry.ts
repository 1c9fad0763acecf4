// The source registry: which documents the data group reads, in the upstream's order
// (the order is the row order of every multi-source table). URLs come from the
// configuration (live) or point at the bundled sample documents (sample mode); the rest
// is fixed.

import { SOURCE_KEYS, type Config, type SourceKey } from '../core/config.js';

export type Topic = 'money-market' | 'capital-market' | 'china-economy' | 'bank-risk' | 'market-liquidity';
export type Product = 'Seiche' | 'Palimpsest' | 'LiquiLens' | 'Undertow';
export type AdapterId =
  | 'seiche_money_markets_v1'
  | 'seiche_capital_markets_v1'
  | 'palimpsest_china_index_v1'
  | 'seiche_china_macro_v1'
  | 'liquilens_failure_radar_v1'
  | 'undertow_summary_v1';

export const TOPICS: readonly Topic[] = ['money-market', 'capital-market', 'china-economy', 'bank-risk', 'market-liquidity'];

const MIB = 1024 * 1024;

export interface SourceEntry {
  readonly key: SourceKey;
  readonly topic: Topic;
  readonly product: Product;
  readonly url: string;
  readonly adapter: AdapterId;
  readonly evidenceClass: string;
  readonly humanScopeUrl: string;
  /** Largest accepted document. */
  readonly maxBytes: number;
  /** Socket-phase timeout (connect, headers, gap between body chunks). */
  readonly timeoutMs: number;
}

type Fixed = Omit<SourceEntry, 'url' | 'key'>;

const FIXED: Readonly<Record<SourceKey, Fixed>> = {
  'money-market': {
    topic: 'money-market', product: 'Seiche', adapter: 'seiche_money_markets_v1', evidenceClass: 'observed_or_unavailable',
    humanScopeUrl: 'https://seiche.info/use-cases/money-market-research/', maxBytes: 4 * MIB, timeoutMs: 10_000,
  },
  'capital-market': {
    topic: 'capital-market', product: 'Seiche', adapter: 'seiche_capital_markets_v1', evidenceClass: 'observed_derived_or_unavailable',
    humanScopeUrl: 'https://seiche.info/use-cases/capital-market-transmission/', maxBytes: MIB, timeoutMs: 10_000,
  },
  'china-economy-palimpsest': {
    topic: 'china-economy', product: 'Palimpsest', adapter: 'palimpsest_china_index_v1', evidenceClass: 'observed_structural_or_unavailable',
    humanScopeUrl: 'https://palimpsest.info/china/', maxBytes: MIB, timeoutMs: 10_000,
  },
  'china-economy-seiche': {
    topic: 'china-economy', product: 'Seiche', adapter: 'seiche_china_macro_v1', evidenceClass: 'structural_or_restricted',
    humanScopeUrl: 'https://seiche.info/markets/china-macro/', maxBytes: MIB, timeoutMs: 10_000,
  },
  'bank-risk': {
    topic: 'bank-risk', product: 'LiquiLens', adapter: 'liquilens_failure_radar_v1', evidenceClass: 'observed_derived_or_unavailable',
    humanScopeUrl: 'https://liquilens.in/use-cases/', maxBytes: MIB, timeoutMs: 10_000,
  },
  'market-liquidity': {
    topic: 'market-liquidity', product: 'Undertow', adapter: 'undertow_summary_v1', evidenceClass: 'observed_derived_or_unavailable',
    humanScopeUrl: 'https://liquilens-undertow.com/use-cases/', maxBytes: MIB, timeoutMs: 10_000,
  },
};

/** The URL a sample-mode source is read from (never fetched over the network). */
export function sampleSourceUrl(key: SourceKey): string {
  return `sample:sources/${key}.json`;
}

export interface SourceRegistry {
  readonly mode: Config['mode'];
  /** Every source, in route order. */
  readonly entries: readonly SourceEntry[];
  get(key: SourceKey): SourceEntry;
  /** Whether a URL is one this registry may fetch (the allowlist). */
  allows(url: string): boolean;
}

export function buildRegistry(config: Pick<Config, 'mode' | 'sourceUrls'>): SourceRegistry {
  const entries = SOURCE_KEYS.map((key): SourceEntry => Object.freeze({
    key,
    ...FIXED[key],
    url: config.mode === 'sample' ? sampleSourceUrl(key) : config.sourceUrls[key],
  }));
  const byKey = new Map(entries.map((e) => [e.key, e]));
  const urls = new Set(entries.map((e) => e.url));
  return Object.freeze({
    mode: config.mode,
    entries: Object.freeze(entries),
    get: (key: SourceKey) => byKey.get(key)!,
    allows: (url: string) => urls.has(url),
  });
}

/** Fixed facts of a source (product, adapter, …) when only its key is known (stored snapshots). */
export function fixedFacts(key: SourceKey): Fixed {
  return FIXED[key];
}
