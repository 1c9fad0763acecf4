// market_liquidity (upstream §5.5): one row per published observation of each Undertow
// segment. A withheld percentile stays null and says `withheld`; it is never rebuilt from
// the segment's other scores. Percentiles are Undertow's own derived output: `derived_only`
// does not withhold them.
import { contextJson, copiedObject } from '../encode.js';
import { anyBlocked } from '../rights.js';
import { makeRow, type EvidenceRow } from '../row.js';
import { isObject, member, numberAt, objectAt, pointer, textAt } from '../text.js';
import type { ListProjector } from './types.js';

export const projectMarketLiquidity: ListProjector = ({ document, base }) => {
  if (!isObject(document)) return [];
  const segments = member(document, 'segment_reports');
  if (!Array.isArray(segments)) return [];
  const rows: EvidenceRow[] = [];
  segments.forEach((segment, i) => {
    if (!isObject(segment)) return;
    const observations = member(segment, 'observations');
    if (!Array.isArray(observations)) return;
    const coverage = objectAt(segment, 'coverage');
    observations.forEach((obs, j) => {
      if (!isObject(obs)) return;
      const withheld = member(obs, 'stress_pctl_withheld') === true;
      const blocked = !withheld && anyBlocked([document, segment, obs], 'derived');
      const value = withheld || blocked ? null : numberAt(obs, 'stress_pctl');
      rows.push(makeRow(base, {
        entity_id: textAt(segment, 'segment'),
        entity_name: textAt(obs, 'measure'),
        metric: 'stress_percentile',
        value,
        unit: 'ratio',
        as_of: textAt(obs, 'asof'),
        source_status: textAt(coverage, 'report_status'),
        availability: withheld ? 'withheld' : value === null ? 'unavailable' : 'published',
        source_field: pointer('segment_reports', i, 'observations', j, 'stress_pctl'),
        observation_url: textAt(segment, 'report_url'),
        context: contextJson(copiedObject({
          coverage: [segment, 'coverage'],
          observations: [obs, 'obs'],
          span_days: [obs, 'span_days'],
          withheld_note: [obs, 'withheld_note'],
        })),
      }));
    });
  });
  return rows;
};
