// The EvidenceRow: exactly 23 columns in the upstream order (§3.3), the same for every
// dataset. Columns a projection does not set take the defaults; the source columns come
// from the retrieval the row was projected from.

import { CARRIER_VERIFICATION, EVIDENCE_STATUS, FINANCIAL_AUTHORITY } from './constants.js';
import type { DatasetId } from './dataset-ids.js';
import type { EvidenceRow } from './row-schema.js';

export { EvidenceRowSchema, ROW_COLUMNS, type EvidenceRow } from './row-schema.js';

/** What every row of one source shares. */
export interface RowBase {
  dataset: DatasetId;
  product: string;
  source_url: string;
  retrieved_at: string | null;
  content_sha256: string | null;
  transport_status: 'complete' | 'unavailable';
}

export type RowFields = Partial<Pick<EvidenceRow,
  'entity_id' | 'entity_name' | 'metric' | 'value' | 'unit' | 'as_of' | 'source_status' | 'availability' | 'source_field' |
  'observation_url' | 'published_at' | 'knowledge_time' | 'rights_status' | 'context'>>;

/**
 * A row in column order. Its value's number kind is not marked here: rows go into a snapshot's
 * table (row-table.ts), which marks a number value float-kind (the upstream emits `0.0`,
 * `66.0`) on each row it makes for an answer; marking 120,000 rows of a long history that are
 * then dropped cost a fifth of its projection.
 */
export function makeRow(base: RowBase, fields: RowFields): EvidenceRow {
  return {
    dataset: base.dataset,
    product: base.product,
    entity_id: fields.entity_id ?? null,
    entity_name: fields.entity_name ?? null,
    metric: fields.metric ?? null,
    value: fields.value ?? null,
    unit: fields.unit ?? null,
    as_of: fields.as_of ?? null,
    source_status: fields.source_status ?? null,
    availability: fields.availability ?? 'not_reported',
    source_url: base.source_url,
    source_field: fields.source_field ?? '',
    observation_url: fields.observation_url ?? null,
    retrieved_at: base.retrieved_at,
    content_sha256: base.content_sha256,
    published_at: fields.published_at ?? null,
    knowledge_time: fields.knowledge_time ?? null,
    rights_status: fields.rights_status ?? null,
    context: fields.context ?? null,
    transport_status: base.transport_status,
    evidence_status: EVIDENCE_STATUS,
    financial_authority: FINANCIAL_AUTHORITY,
    carrier_verification: CARRIER_VERIFICATION,
  };
}

export const SCHEMA_UNAVAILABLE_CONTEXT =
  'The collection this table reads was missing, not a list or empty in the fetched document; look at the source document itself.';

/** The one row standing for a source that could not be fetched (§4.4). */
export function sourceUnavailableRow(base: RowBase, error: string): EvidenceRow {
  return makeRow(base, { entity_id: base.product, metric: 'source_status', availability: 'source_unavailable', context: error });
}

/** The one row standing for a fetched document without the expected collection (§4.4). */
export function schemaUnavailableRow(base: RowBase): EvidenceRow {
  return makeRow(base, { entity_id: base.product, metric: 'source_status', availability: 'schema_unavailable', context: SCHEMA_UNAVAILABLE_CONTEXT });
}

export const DIAGNOSTIC_AVAILABILITY: ReadonlySet<string> = new Set(['source_unavailable', 'schema_unavailable']);
