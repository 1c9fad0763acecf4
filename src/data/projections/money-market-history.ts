// money_market_history (upstream §5.2): the history points the atlas publishes today for
// each market — not as-published vintages (our stored snapshots are the vintages). A
// market whose rights withhold raw values yields one placeholder and its history is not
// read; a market without history yields one placeholder; malformed points are skipped.
import { makeRow } from '../row.js';
import { member, numberAt, pointer } from '../text.js';
import { atlasMarkets, publisherAvailability } from './atlas.js';
import type { RowFields } from '../row.js';
import type { Projector } from './types.js';

// A generator: a long history is handed over row by row, so its projection can be sliced.
export const projectMoneyMarketHistory: Projector = function* ({ document, base }) {
  const markets = atlasMarkets(document);
  if (!markets) return;
  for (const { index, benchmark, blocked, meta } of markets) {
    const historyField = pointer('markets', index, 'benchmark', 'history');
    if (blocked) {
      yield makeRow(base, { ...meta, availability: 'restricted_or_unavailable', source_field: historyField });
      continue;
    }
    const history = member(benchmark, 'history');
    if (!Array.isArray(history) || history.length === 0) {
      yield makeRow(base, { ...meta, availability: publisherAvailability(benchmark), source_field: historyField });
      continue;
    }
    // One fields object per market, its point members set per point (makeRow copies them):
    // a history holds thousands of points, and a spread copy of the market's fields per
    // point made most of a long history's cost.
    const fields: RowFields = { ...meta };
    const pointPrefix = `${pointer('markets', index, 'benchmark', 'history')}/`;
    for (let j = 0; j < history.length; j++) {
      const point: unknown = history[j];
      if (!Array.isArray(point) || point.length !== 2 || typeof point[0] !== 'string') continue;
      const value = numberAt(point, 1);
      const clock: string = point[0];
      fields.value = value;
      fields.availability = value === null ? 'unavailable' : 'published';
      fields.as_of = clock.isWellFormed() ? clock : clock.toWellFormed();
      fields.source_field = `${pointPrefix}${j}/1`;
      yield makeRow(base, fields);
    }
  }
};
