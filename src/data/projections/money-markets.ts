// money_markets (upstream §5.1): one row per atlas market, value = the current benchmark.
import { makeRow } from '../row.js';
import { numberAt, pointer, textAt } from '../text.js';
import { atlasMarkets, publisherAvailability } from './atlas.js';
import type { ListProjector } from './types.js';

export const projectMoneyMarkets: ListProjector = ({ document, base }) => {
  const markets = atlasMarkets(document);
  if (!markets) return [];
  return markets.map(({ index, benchmark, blocked, meta }) => {
    const value = blocked ? null : numberAt(benchmark, 'value');
    const availability = blocked ? 'restricted_or_unavailable' : value === null ? 'unavailable' : publisherAvailability(benchmark);
    return makeRow(base, {
      ...meta,
      value,
      availability,
      as_of: textAt(benchmark, 'asof'),
      source_field: pointer('markets', index, 'benchmark', 'value'),
      published_at: textAt(benchmark, 'published_at'),
      knowledge_time: textAt(benchmark, 'knowledge_time'),
    });
  });
};
