// Reading the Seiche money-market atlas, shared by money_markets and
// money_market_history: the schema gate and each market's metadata.

import { anyBlocked } from '../rights.js';
import { isObject, member, objectAt, textAt, type JsonObject } from '../text.js';

export const ATLAS_SCHEMA = 'seiche.global-money-markets.v1';

export interface AtlasMarket {
  index: number;
  market: JsonObject;
  benchmark: JsonObject;
  /** Document, market or benchmark withholds raw values. */
  blocked: boolean;
  meta: {
    entity_id: string | null;
    entity_name: string | null;
    metric: string;
    unit: string | null;
    source_status: string | null;
    observation_url: string | null;
    rights_status: string | null;
    context: string | null;
  };
}

/** The markets of an atlas in document order, or null when the document is not one. */
export function atlasMarkets(document: unknown): AtlasMarket[] | null {
  if (!isObject(document) || member(document, 'schema') !== ATLAS_SCHEMA) return null;
  const markets = member(document, 'markets');
  if (!Array.isArray(markets)) return null;
  const out: AtlasMarket[] = [];
  markets.forEach((market, index) => {
    // Non-object items are skipped; later items keep their original index in pointers.
    if (!isObject(market)) return;
    const benchmark = objectAt(market, 'benchmark');
    const mnemonic = textAt(benchmark, 'mnemonic');
    out.push({
      index,
      market,
      benchmark,
      blocked: anyBlocked([document, market, benchmark], 'raw'),
      meta: {
        entity_id: textAt(market, 'market_id'),
        entity_name: textAt(market, 'display_name'),
        metric: mnemonic ? mnemonic : 'benchmark',
        unit: textAt(benchmark, 'unit'),
        source_status: textAt(benchmark, 'status'),
        observation_url: textAt(benchmark, 'source_url'),
        rights_status: textAt(benchmark, 'redistribution_status'),
        context: textAt(market, 'countercase'),
      },
    });
  });
  return out;
}

/** The publisher's availability label, or `not_reported` when it gives none. */
export function publisherAvailability(benchmark: JsonObject): string {
  const label = textAt(benchmark, 'availability');
  return label ? label : 'not_reported';
}
