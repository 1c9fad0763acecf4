// The EvidenceRow schema: the 23 columns of every dataset (upstream §3.3), in order, with
// their types and descriptions. The row type is its Static; /datasets and the OpenBB
// column definitions are read from it.

import { Type, type Static } from 'typebox';
import { DATASET_IDS } from './dataset-ids.js';

const closed = { additionalProperties: false } as const;
const text = (description: string) => Type.Union([Type.String(), Type.Null()], { description });

export const Sha256Prefixed = Type.String({ pattern: '^sha256:[0-9a-f]{64}$' });
export const SecondsZ = Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$' });
export const DatasetIdSchema = Type.Enum(DATASET_IDS);

export const EvidenceRowSchema = Type.Object({
  dataset: Type.Enum(DATASET_IDS, { description: 'Dataset id.' }),
  product: Type.String({ description: 'Publisher product: Seiche, LiquiLens, Undertow or Palimpsest.' }),
  entity_id: text('Market id, bank slug, segment, series id or topic.'),
  entity_name: text('Display name of the entity.'),
  metric: text('What the value measures.'),
  value: Type.Union([Type.Number(), Type.Null()], {
    description: 'The published number; null when missing, withheld, blocked by rights or not retrieved (never 0 for those). A real 0 stays 0.',
  }),
  unit: text('Native unit: % (percent level), ratio (fraction), index_points, score_points, percent.'),
  as_of: text('The observation date the source gives for this value (never a retrieval or document clock).'),
  source_status: text('Status the publisher reports, verbatim.'),
  availability: Type.String({
    description: "Publisher or projection state: the publisher's label, published, unavailable, restricted_or_unavailable, withheld, metadata_only, source_unavailable, schema_unavailable or not_reported.",
  }),
  source_url: Type.String({ description: 'The document the row was read from.' }),
  source_field: Type.String({ description: 'RFC 6901 pointer to the value in that document ("" for whole-source rows).' }),
  observation_url: text('Publisher page for the observation.'),
  retrieved_at: Type.Union([SecondsZ, Type.Null()], { description: 'When this service retrieved the document (UTC, seconds).' }),
  content_sha256: Type.Union([Sha256Prefixed, Type.Null()], { description: 'SHA-256 of the retrieved bytes.' }),
  published_at: text('Publication clock the publisher gives (money_markets).'),
  knowledge_time: text('When the publisher says the value became knowable.'),
  rights_status: text('Publisher redistribution or rights label, verbatim.'),
  context: text('Caveats from the source, usually a JSON text (sorted keys). Untrusted source content.'),
  transport_status: Type.Union([Type.Literal('complete'), Type.Literal('unavailable')], { description: "Whether this row's source was retrieved." }),
  evidence_status: Type.Literal('not_evaluated', { description: 'This service does not judge the evidence.' }),
  financial_authority: Type.Literal('none', { description: 'Rows carry no financial authority.' }),
  carrier_verification: Type.Literal('not_performed', { description: 'No carrier verification is performed.' }),
}, { ...closed, $id: 'EvidenceRow', title: 'EvidenceRow', description: 'One evidence row: the same 23 columns for every dataset.' });

export type EvidenceRow = Static<typeof EvidenceRowSchema>;
export type RowColumn = keyof EvidenceRow;

/** The columns in their upstream order (the order of the schema's properties). */
export const ROW_COLUMNS = Object.freeze(Object.keys(EvidenceRowSchema.properties)) as readonly RowColumn[];

export interface ColumnInfo {
  name: RowColumn;
  type: 'string' | 'number';
  nullable: boolean;
  description: string;
}

function describeColumn(name: RowColumn): ColumnInfo {
  const schema = EvidenceRowSchema.properties[name] as { description?: string; anyOf?: { type?: string }[]; type?: string };
  const branches = schema.anyOf ?? [schema];
  return {
    name,
    type: branches.some((b) => b.type === 'number') ? 'number' : 'string',
    nullable: branches.some((b) => b.type === 'null'),
    description: schema.description ?? '',
  };
}

const COLUMNS: readonly ColumnInfo[] = Object.freeze(ROW_COLUMNS.map(describeColumn));

/** Name, type, nullability and description of every column, read from the row schema. */
export function rowColumns(): ColumnInfo[] {
  return COLUMNS.map((c) => ({ ...c }));
}
