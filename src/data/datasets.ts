// The seven datasets (upstream §3.2, §5): ids, topics and the sources each reads, with
// names and descriptions in our words.

import type { SourceKey } from '../core/config.js';
import { SOURCE_KEYS } from '../core/config.js';
import { projectBankRisk } from './projections/bank-risk.js';
import { projectCapitalMarkets } from './projections/capital-markets.js';
import { projectChinaMacro, projectPalimpsest } from './projections/china-economy.js';
import { projectMarketLiquidity } from './projections/market-liquidity.js';
import { projectMoneyMarketHistory } from './projections/money-market-history.js';
import { projectMoneyMarkets } from './projections/money-markets.js';
import type { Projector } from './projections/types.js';
import type { Topic } from './registry.js';
import type { DatasetId } from './dataset-ids.js';

export { DATASET_IDS, type DatasetId } from './dataset-ids.js';

export interface DatasetSpec {
  id: DatasetId;
  name: string;
  topics: readonly Topic[];
  description: string;
  /** Sources read, in route order. */
  sources: readonly SourceKey[];
  /** Per source; source_health projects every source the same way. */
  projectors: Partial<Record<SourceKey, Projector>>;
}

const ALL_TOPICS: readonly Topic[] = ['money-market', 'capital-market', 'china-economy', 'bank-risk', 'market-liquidity'];

// Names are the upstream's (upstream §3.2); descriptions are ours.
export const DATASETS: readonly DatasetSpec[] = [
  {
    id: 'money_markets',
    name: 'Global money-market benchmarks',
    topics: ['money-market'],
    description: 'Current benchmark rate of each market in the Seiche atlas, in its native unit, with the publisher\'s availability, clocks and redistribution label. Levels in different currencies are not comparable stress readings.',
    sources: ['money-market'],
    projectors: { 'money-market': projectMoneyMarkets },
  },
  {
    id: 'money_market_history',
    name: 'Money-market benchmark history',
    topics: ['money-market'],
    description: 'The benchmark history each atlas market publishes now, at its own cadence; filter by entity and dates. This is the history as currently published, not what was published on each date (use snapshots for that).',
    sources: ['money-market'],
    projectors: { 'money-market': projectMoneyMarketHistory },
  },
  {
    id: 'capital_markets',
    name: 'Capital-market observations',
    topics: ['capital-market'],
    description: 'VIX and the high-yield option-adjusted spread as Seiche reports them, each dated by its own observation; a document-wide clock is never substituted.',
    sources: ['capital-market'],
    projectors: { 'capital-market': projectCapitalMarkets },
  },
  {
    id: 'bank_risk',
    name: 'Covered-bank research diagnostics',
    topics: ['bank-risk'],
    description: 'LiquiLens monitoring scores and 12-month model probabilities for covered banks, dated by quarter, with the limits of how they were built. They are research diagnostics: neither credit ratings nor validated forecasts.',
    sources: ['bank-risk'],
    projectors: { 'bank-risk': projectBankRisk },
  },
  {
    id: 'market_liquidity',
    name: 'Public market-liquidity observations',
    topics: ['market-liquidity'],
    description: 'Undertow stress percentiles per market segment and measure, with each segment\'s validation limits. A withheld percentile stays null.',
    sources: ['market-liquidity'],
    projectors: { 'market-liquidity': projectMarketLiquidity },
  },
  {
    id: 'china_economy',
    name: 'China economic publication coverage',
    topics: ['china-economy'],
    description: 'What Palimpsest currently publishes about China\'s economy and the catalogue of Seiche\'s China macro series. Metadata only: these rows carry no values and no observation dates.',
    sources: ['china-economy-palimpsest', 'china-economy-seiche'],
    projectors: { 'china-economy-palimpsest': projectPalimpsest, 'china-economy-seiche': projectChinaMacro },
  },
  {
    id: 'source_health',
    name: 'Evidence source and transport audit',
    topics: ALL_TOPICS,
    description: 'One row per source: whether it was retrieved, the hash of the bytes, and the states and clocks the source reports about itself. A successful retrieval says nothing about how fresh the content is.',
    sources: SOURCE_KEYS,
    projectors: {},
  },
];

const BY_ID = new Map(DATASETS.map((d) => [d.id, d]));

export function datasetSpec(id: DatasetId): DatasetSpec {
  return BY_ID.get(id)!;
}

export function isDatasetId(value: string): value is DatasetId {
  return BY_ID.has(value as DatasetId);
}
