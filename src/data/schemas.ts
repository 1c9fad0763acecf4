// TypeBox schemas of the data group's bodies: validation, static types and OpenAPI in
// one place, for the route layer to use as response schemas. Every object is closed
// (additionalProperties: false): a key we do not document never leaves.

import { Type, type Static, type TSchema } from 'typebox';
import { DATASET_IDS } from './datasets.js';
import { ROW_COLUMNS } from './row.js';

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const closed = { additionalProperties: false } as const;
const SampleFlag = Type.Optional(Type.Literal(true, { description: 'Present (true) only in sample mode: made-up documents.' }));

const Sha256Prefixed = Type.String({ pattern: '^sha256:[0-9a-f]{64}$' });
const SnapshotId = Type.String({ pattern: '^[0-9a-f]{32}$', description: 'Snapshot id: pass it as `snapshot` to page over exactly these source states.' });
const DatasetIdSchema = Type.Union(DATASET_IDS.map((id) => Type.Literal(id)));
const TransportStatus = Type.Union([Type.Literal('complete'), Type.Literal('partial'), Type.Literal('unavailable')]);
const SecondsZ = Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$' });
const InstantZ = Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{6})?Z$' });

type Column = (typeof ROW_COLUMNS)[number];
type Kind = 'string' | 'string?' | 'number?';

// [kind, description, schema override] per column; the order of ROW_COLUMNS is the order.
const COLUMN_DOCS: Record<Column, { kind: Kind; description: string; schema?: TSchema }> = {
  dataset: { kind: 'string', description: 'Dataset id.', schema: DatasetIdSchema },
  product: { kind: 'string', description: 'Publisher product: Seiche, LiquiLens, Undertow or Palimpsest.' },
  entity_id: { kind: 'string?', description: 'Market id, bank slug, segment, series id or topic.' },
  entity_name: { kind: 'string?', description: 'Display name of the entity.' },
  metric: { kind: 'string?', description: 'What the value measures.' },
  value: { kind: 'number?', description: 'The published number; null when missing, withheld, blocked by rights or not retrieved (never 0 for those). A real 0 stays 0.' },
  unit: { kind: 'string?', description: 'Native unit: % (percent level), ratio (fraction), index_points, score_points, percent.' },
  as_of: { kind: 'string?', description: 'The observation date the source gives for this value (never a retrieval or document clock).' },
  source_status: { kind: 'string?', description: 'Status the publisher reports, verbatim.' },
  availability: { kind: 'string', description: "Publisher or projection state: the publisher's label, published, unavailable, restricted_or_unavailable, withheld, metadata_only, source_unavailable, schema_unavailable or not_reported." },
  source_url: { kind: 'string', description: 'The document the row was read from.' },
  source_field: { kind: 'string', description: 'RFC 6901 pointer to the value in that document ("" for whole-source rows).' },
  observation_url: { kind: 'string?', description: 'Publisher page for the observation.' },
  retrieved_at: { kind: 'string?', description: 'When this service retrieved the document (UTC, seconds).', schema: Nullable(SecondsZ) },
  content_sha256: { kind: 'string?', description: 'SHA-256 of the retrieved bytes.', schema: Nullable(Sha256Prefixed) },
  published_at: { kind: 'string?', description: 'Publication clock the publisher gives (money_markets).' },
  knowledge_time: { kind: 'string?', description: 'When the publisher says the value became knowable.' },
  rights_status: { kind: 'string?', description: 'Publisher redistribution or rights label, verbatim.' },
  context: { kind: 'string?', description: 'Caveats from the source, usually a JSON text (sorted keys). Untrusted source content.' },
  transport_status: { kind: 'string', description: "Whether this row's source was retrieved.", schema: Type.Union([Type.Literal('complete'), Type.Literal('unavailable')]) },
  evidence_status: { kind: 'string', description: 'This service does not judge the evidence.', schema: Type.Literal('not_evaluated') },
  financial_authority: { kind: 'string', description: 'Rows carry no financial authority.', schema: Type.Literal('none') },
  carrier_verification: { kind: 'string', description: 'No carrier verification is performed.', schema: Type.Literal('not_performed') },
};

function columnSchema(column: Column): TSchema {
  const { kind, description, schema } = COLUMN_DOCS[column];
  if (schema) return Type.Unsafe({ ...(JSON.parse(JSON.stringify(schema)) as object), description });
  if (kind === 'string') return Type.String({ description });
  if (kind === 'string?') return Type.Union([Type.String(), Type.Null()], { description });
  return Type.Union([Type.Number(), Type.Null()], { description });
}

export const EvidenceRowSchema = Type.Object(
  Object.fromEntries(ROW_COLUMNS.map((c) => [c, columnSchema(c)])) as unknown as Record<Column, TSchema>,
  { ...closed, $id: 'EvidenceRow', description: 'One evidence row: the same 23 columns for every dataset.' },
);

/** Column list of the row schema, for /datasets and OpenBB column definitions. */
export function rowColumns(): { name: string; type: 'string' | 'number'; nullable: boolean; description: string }[] {
  return ROW_COLUMNS.map((name) => {
    const { kind, description } = COLUMN_DOCS[name];
    return { name, type: kind === 'number?' ? 'number' : 'string', nullable: kind.endsWith('?'), description };
  });
}

const ReportedEntry = Type.Object({
  name: Type.String(),
  value: Type.Union([Type.String(), Type.Number(), Type.Boolean()]),
  path: Type.String(),
  provenance: Type.Object({ kind: Type.Literal('source_document'), source_url: Type.String(), content_sha256: Sha256Prefixed }, closed),
}, closed);
const Reported = Type.Union([Type.Array(ReportedEntry), Type.Literal('not_reported')]);

export const SourceReportedSchema = Type.Object({
  adapter: Type.String(),
  state: Reported,
  clocks: Reported,
}, closed);

const CacheSchema = Type.Object({
  hit: Type.Boolean({ description: 'True when the stored retrieval was reused; false when this request waited for a fetch.' }),
  age_seconds: Type.Number({ minimum: 0, description: 'Age of the retrieval when answering (3 decimals).' }),
  ttl_seconds: Type.Integer({ minimum: 0, description: 'How long such a retrieval is reused before fetching again.' }),
}, closed);

const recordHead = {
  topic: Type.String(),
  product: Type.String(),
  source_url: Type.String(),
  human_scope_url: Type.String(),
  financial_authority: Type.Literal('none'),
  carrier_state: Type.Literal('not_published'),
  retrieved_at: SecondsZ,
  evidence_class: Type.String(),
};

export const SourceRecordSchema = Type.Union([
  Type.Object({
    ...recordHead,
    ok: Type.Literal(true),
    resolved_url: Type.String(),
    bytes: Type.Integer({ minimum: 0 }),
    content_sha256: Sha256Prefixed,
    source_reported: SourceReportedSchema,
    cache: CacheSchema,
  }, closed),
  Type.Object({
    ...recordHead,
    ok: Type.Literal(false),
    error: Type.String({ description: 'What went wrong, as `<kind>: <message>`.' }),
    cache: CacheSchema,
  }, closed),
], { $id: 'SourceRecord', description: 'One retrieval of one source document, without the document.' });

export const QueryResultSchema = Type.Object({
  schema: Type.Literal('liquidity-lab.openbb-table.v1'),
  dataset: DatasetIdSchema,
  description: Type.String(),
  results: Type.Array(EvidenceRowSchema),
  total_rows: Type.Integer({ minimum: 0 }),
  returned_rows: Type.Integer({ minimum: 0 }),
  offset: Type.Integer({ minimum: 0 }),
  limit: Type.Integer({ minimum: 1 }),
  next_offset: Nullable(Type.Integer({ minimum: 1 })),
  transport_status: TransportStatus,
  status_semantics: Type.Literal('transport_only'),
  evidence_status: Type.Literal('not_evaluated'),
  carrier_verification: Type.Literal('not_performed'),
  absence_policy: Type.String(),
  diagnostics: Type.Array(EvidenceRowSchema),
  sources: Type.Array(SourceRecordSchema),
  snapshot_id: SnapshotId,
  snapshot_retrieved_at: InstantZ,
  sample: SampleFlag,
}, { ...closed, $id: 'QueryResult', description: 'One page of a dataset, from one stored snapshot of its sources.' });

const ColumnSchema = Type.Object({
  name: Type.String(),
  type: Type.Union([Type.Literal('string'), Type.Literal('number')]),
  nullable: Type.Boolean(),
  description: Type.String(),
}, closed);

export const DatasetEntrySchema = Type.Object({
  id: DatasetIdSchema,
  name: Type.String(),
  topics: Type.Array(Type.String()),
  description: Type.String(),
  filters: Type.Array(Type.String()),
  default_limit: Type.Integer(),
  maximum_limit: Type.Integer(),
  columns: Type.Array(ColumnSchema),
  row_count: Nullable(Type.Integer({ minimum: 0, description: 'Rows in the newest stored snapshot (all rows, before filters); null when none is stored yet.' })),
  snapshot_id: Nullable(SnapshotId),
}, { ...closed, $id: 'DatasetEntry' });

export const DatasetsSchema = Type.Array(DatasetEntrySchema, { $id: 'Datasets' });

export const ReleaseSchema = Type.Object({
  schema: Type.Literal('financial-evidence.workspace-release.v1'),
  release_id: Type.String({ pattern: '^(unversioned-local|workspace-[0-9]+\\.[0-9]+\\.[0-9]+\\+[0-9a-f]{12})$' }),
  workspace_version: Type.String(),
  package_version: Type.String(),
  source_commit: Nullable(Type.String({ pattern: '^[0-9a-f]{40}$' })),
  contract: Type.Literal('financial-evidence.workspace.v1'),
  source_repository: Type.String(),
  identity_scope: Type.Literal('operator_supplied_build_revision'),
  institutional_readiness: Type.Literal('not_certified'),
}, { ...closed, $id: 'Release' });

export const SnapshotEntrySchema = Type.Object({
  snapshot_id: SnapshotId,
  dataset: DatasetIdSchema,
  retrieved_at: InstantZ,
  created_at: InstantZ,
  row_count: Type.Integer({ minimum: 0 }),
  transport_status: TransportStatus,
  sources: Type.Array(Type.Object({
    topic: Type.String(),
    source_url: Type.String(),
    ok: Type.Boolean(),
    retrieved_at: InstantZ,
    content_sha256: Nullable(Sha256Prefixed),
  }, closed)),
}, { ...closed, $id: 'SnapshotEntry' });

export const SnapshotListSchema = Type.Object({
  schema: Type.Literal('evidence-desk.data-snapshots.v1'),
  dataset: DatasetIdSchema,
  results: Type.Array(SnapshotEntrySchema),
  total_rows: Type.Integer({ minimum: 0 }),
  returned_rows: Type.Integer({ minimum: 0 }),
  offset: Type.Integer({ minimum: 0 }),
  limit: Type.Integer({ minimum: 1 }),
  next_offset: Nullable(Type.Integer({ minimum: 1 })),
  sample: SampleFlag,
}, { ...closed, $id: 'SnapshotList' });

export const ValidationErrorSchema = Type.Object({
  detail: Type.Array(Type.Object({
    type: Type.String(),
    loc: Type.Tuple([Type.Literal('query'), Type.String()]),
    msg: Type.String(),
    input: Type.Unknown(),
  }, closed)),
  code: Type.String(),
  path: Type.String(),
  sample: SampleFlag,
}, { ...closed, $id: 'DataValidationError' });

export type EvidenceRowBody = Static<typeof EvidenceRowSchema>;
export type QueryResultBody = Static<typeof QueryResultSchema>;
