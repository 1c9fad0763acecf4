// china_economy (upstream §5.6): metadata only. Palimpsest's publication status is one
// row whatever numbers the document holds; Seiche's China macro section contributes its
// series catalogue. Neither carries a value or an observation date.
import { contextJson, copiedObject } from '../encode.js';
import { makeRow, type EvidenceRow } from '../row.js';
import { isObject, member, objectAt, pointer, textAt } from '../text.js';
import type { ListProjector } from './types.js';

export const projectPalimpsest: ListProjector = ({ document, base }) => {
  const doc = isObject(document) ? document : {};
  const status = textAt(doc, 'status');
  return [makeRow(base, {
    entity_id: 'palimpsest_publication',
    entity_name: 'Palimpsest publication coverage',
    metric: 'publication_status',
    source_status: status,
    rights_status: status,
    availability: 'metadata_only',
    source_field: pointer('status'),
    context: contextJson(copiedObject({
      availability: [doc, 'availability'],
      publication_allowed: [doc, 'publication_allowed'],
      reason: [doc, 'reason'],
      limitations: [doc, 'limitations'],
      counts: [doc, 'counts'],
      rights_evaluated_at: [doc, 'rights_evaluated_at'],
    })),
  })];
};

export const projectChinaMacro: ListProjector = ({ document, base }) => {
  const section = objectAt(document, 'china_macro');
  const catalog = member(section, 'series_catalog');
  if (!Array.isArray(catalog)) return [];
  const rows: EvidenceRow[] = [];
  for (let i = 0; i < catalog.length; i++) {
    const item: unknown = catalog[i];
    if (!isObject(item)) continue;
    rows.push(makeRow(base, {
      entity_id: textAt(item, 'series_id'),
      entity_name: textAt(item, 'label'),
      metric: 'series_catalog',
      source_status: textAt(section, 'evidence_status'),
      rights_status: textAt(section, 'rights_status'),
      availability: 'metadata_only',
      source_field: pointer('china_macro', 'series_catalog', i),
      observation_url: textAt(item, 'release_url'),
      context: contextJson(copiedObject({
        value_publication: [item, 'value_publication'],
        reason: [section, 'reading'],
        boundaries: [section, 'boundaries'],
      })),
    }));
  }
  return rows;
};
