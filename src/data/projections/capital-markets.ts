// capital_markets (upstream §5.3): exactly two rows, VIX and the high-yield OAS, each
// with its own price node's clock. Document and section clocks are never used for a
// row's as_of, even when the node has none.
import { memberJson } from '../encode.js';
import { anyBlocked } from '../rights.js';
import { makeRow } from '../row.js';
import { isObject, member, numberAt, objectAt, pointer, textAt } from '../text.js';
import type { ListProjector } from './types.js';

export const WORLD_MARKETS_SCHEMA = 'seiche.world-markets.v1';

const PRICES = [
  { key: 'vix', name: 'CBOE VIX', unit: 'index_points' },
  { key: 'high_yield_oas', name: 'High-yield option-adjusted spread', unit: '%' },
] as const;

export const projectCapitalMarkets: ListProjector = ({ document, base }) => {
  if (!isObject(document) || member(document, 'schema') !== WORLD_MARKETS_SCHEMA) return [];
  const section = objectAt(document, 'capital_markets');
  const risk = objectAt(section, 'risk_context');
  const prices = objectAt(risk, 'market_prices');
  return PRICES.map(({ key, name, unit }) => {
    const node = objectAt(prices, key);
    const blocked = anyBlocked([document, section, risk, prices, node], 'raw');
    const value = blocked ? null : numberAt(node, 'value');
    const ids = Object.hasOwn(node, 'source_registry_ids') ? memberJson(node, 'source_registry_ids') : '[]';
    return makeRow(base, {
      entity_id: key,
      entity_name: name,
      metric: key,
      value,
      unit,
      as_of: textAt(node, 'as_of'),
      source_status: textAt(node, 'status'),
      availability: value === null ? 'unavailable' : 'published',
      source_field: pointer('capital_markets', 'risk_context', 'market_prices', key, 'value'),
      context: `Source registry IDs: ${ids}`,
    });
  });
};
