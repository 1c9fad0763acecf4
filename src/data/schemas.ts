// TypeBox schemas of the data group's bodies: validation, static types and OpenAPI in
// one place. Every object is closed (additionalProperties: false): a key we do not
// document never leaves. The types the code uses are the Statics of these schemas.

import { Type, type Static, type TSchema } from 'typebox';
import { DatasetIdSchema, EvidenceRowSchema, SecondsZ, Sha256Prefixed } from './row-schema.js';

export { EvidenceRowSchema, rowColumns, type EvidenceRow } from './row-schema.js';

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const closed = { additionalProperties: false } as const;
const SampleFlag = Type.Optional(Type.Literal(true, { description: 'Present (true) only in sample mode: made-up documents.' }));

const SnapshotId = Type.String({ pattern: '^[0-9a-f]{32}$', description: 'Snapshot id: pass it as `snapshot` to page over exactly these source states.' });
const TransportStatus = Type.Union([Type.Literal('complete'), Type.Literal('partial'), Type.Literal('unavailable')]);
const InstantZ = Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{6})?Z$' });

const ReportedEntrySchema = Type.Object({
  name: Type.String(),
  value: Type.Union([Type.String(), Type.Number(), Type.Boolean()]),
  path: Type.String(),
  provenance: Type.Object({ kind: Type.Literal('source_document'), source_url: Type.String(), content_sha256: Sha256Prefixed }, closed),
}, closed);
const Reported = Type.Union([Type.Array(ReportedEntrySchema), Type.Literal('not_reported')]);

export const SourceReportedSchema = Type.Object({
  adapter: Type.String(),
  state: Reported,
  clocks: Reported,
}, closed);
export type ReportedEntry = Static<typeof ReportedEntrySchema>;
export type SourceReported = Static<typeof SourceReportedSchema>;

export const CacheInfoSchema = Type.Object({
  hit: Type.Boolean({ description: 'True when a stored retrieval was reused (always for a chosen snapshot); false when this request waited for a fetch.' }),
  age_seconds: Type.Number({
    minimum: 0,
    description: 'Age of the retrieval in seconds (3 decimals): at answer time for the current snapshot; when the snapshot was formed for a chosen one (snapshot or as_retrieved_at), so those answers do not change.',
  }),
  ttl_seconds: Type.Integer({ minimum: 0, description: 'How long such a retrieval is reused before fetching again.' }),
}, closed);
export type CacheInfo = Static<typeof CacheInfoSchema>;

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

export const SourceRecordSuccessSchema = Type.Object({
  ...recordHead,
  ok: Type.Literal(true),
  resolved_url: Type.String(),
  bytes: Type.Integer({ minimum: 0 }),
  content_sha256: Sha256Prefixed,
  source_reported: SourceReportedSchema,
  cache: CacheInfoSchema,
}, closed);

export const SourceRecordFailureSchema = Type.Object({
  ...recordHead,
  ok: Type.Literal(false),
  error: Type.String({ description: 'What went wrong, as `<kind>: <message>`.' }),
  cache: CacheInfoSchema,
}, closed);

export const SourceRecordSchema = Type.Union([SourceRecordSuccessSchema, SourceRecordFailureSchema], {
  $id: 'SourceRecord',
  title: 'SourceRecord',
  description: 'One retrieval of one source document, without the document.',
});
export type SourceRecord = Static<typeof SourceRecordSchema>;

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
}, { ...closed, $id: 'QueryResult', title: 'QueryResult', description: 'One page of a dataset, from one stored snapshot of its sources.' });
export type QueryResult = Static<typeof QueryResultSchema>;

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
  sample: SampleFlag,
}, { ...closed, $id: 'DatasetEntry', title: 'DatasetEntry' });
export type DatasetEntry = Static<typeof DatasetEntrySchema>;

export const DatasetsSchema = Type.Array(DatasetEntrySchema, {
  description: 'The datasets in catalogue order (a bare array, as upstream; in sample mode each entry says "sample": true).',
});

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
  sample: SampleFlag,
}, { ...closed, $id: 'Release', title: 'Release' });
export type Release = Static<typeof ReleaseSchema>;

const SnapshotSourceSchema = Type.Object({
  topic: Type.String(),
  source_url: Type.String(),
  ok: Type.Boolean(),
  retrieved_at: InstantZ,
  content_sha256: Nullable(Sha256Prefixed),
}, closed);

export const SnapshotEntrySchema = Type.Object({
  snapshot_id: SnapshotId,
  dataset: DatasetIdSchema,
  retrieved_at: InstantZ,
  created_at: InstantZ,
  row_count: Type.Integer({ minimum: 0 }),
  transport_status: TransportStatus,
  sources: Type.Array(SnapshotSourceSchema),
}, { ...closed, $id: 'SnapshotEntry', title: 'SnapshotEntry' });
export type SnapshotEntry = Static<typeof SnapshotEntrySchema>;

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
}, { ...closed, $id: 'SnapshotList', title: 'SnapshotList' });
export type SnapshotList = Static<typeof SnapshotListSchema>;

export const ValidationItemSchema = Type.Object({
  type: Type.String(),
  // Written out as JSON Schema 2020-12 (prefixItems): the request part, then the parameter name.
  loc: Type.Unsafe<['query', string]>({
    type: 'array',
    prefixItems: [{ const: 'query' }, { type: 'string' }],
    items: false,
    minItems: 2,
    description: 'Where the problem is: ["query", <parameter name>].',
  }),
  msg: Type.String(),
  input: Type.Unknown(),
}, closed);

export const ValidationErrorSchema = Type.Object({
  detail: Type.Array(ValidationItemSchema),
  code: Type.String(),
  path: Type.String(),
  sample: SampleFlag,
}, { ...closed, $id: 'DataValidationError' });
