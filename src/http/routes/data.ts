// Group C contracts: the data query API (upstream "Financial Evidence" workspace API 1.2.0
// §3.1–§3.4, plus our snapshot listing). Mounted at the root and under /openbb.
//
// The query parameters are documented here and checked by the operation itself: every
// invalid parameter, whatever the check, answers with the group's one 422 body (a list of
// `{type, loc, msg, input}` plus `code` and `path`), never Fastify's shape.
import { Type, type TSchema } from 'typebox';
import { CoreErrors } from '../../core/errors.js';
import {
  DEFAULT_LIMIT, MAXIMUM_ENTITY_LENGTH, MAXIMUM_LIMIT, MAXIMUM_OFFSET, SNAPSHOTS_DEFAULT_LIMIT, SNAPSHOTS_MAXIMUM_LIMIT,
} from '../../data/constants.js';
import { DATASET_IDS } from '../../data/dataset-ids.js';
import { DataErrors } from '../../data/errors.js';
import { AppsSchema, WidgetsSchema } from '../../data/openbb.js';
import { DatasetsSchema, QueryResultSchema, ReleaseSchema, SnapshotListSchema, ValidationItemSchema } from '../../data/schemas.js';
import { defineRoute } from '../contract.js';

const tags = ['data'];
const json = 'application/json';
const NOT_MODIFIED = { description: 'Not Modified: If-None-Match names the ETag of this representation (strong over the exact bytes; weak, W/"…", for an answer of the current snapshot, whose per-source cache ages move with every answer).' };

/** The one 422 body of the data group, its `code` limited to the codes of the operation. */
export function dataValidationBody(codes: readonly string[]): TSchema {
  return Type.Object({
    detail: Type.Array(ValidationItemSchema, { minItems: 1, description: 'Every invalid parameter, in parameter order.' }),
    code: Type.Enum([...codes], { description: 'Registry code of the first problem (docs/errors.md).' }),
    path: Type.String({ description: 'JSON pointer of the first invalid parameter (`/query/<name>`).' }),
    sample: Type.Optional(Type.Literal(true, { description: 'Present only in sample mode.' })),
  }, { additionalProperties: false });
}

const VALIDATION = { 422: dataValidationBody } as const;
const STORE = [CoreErrors.storage_unavailable, CoreErrors.storage_busy];
const text = (description: string) => Type.Optional(Type.String({ description }));

const DATASET = Type.String({ description: `Dataset id, required: ${DATASET_IDS.join(', ')}.` });

export const QueryParameters = Type.Object({
  dataset: DATASET,
  entity: text(`Case-insensitive substring of entity_id or entity_name (at most ${MAXIMUM_ENTITY_LENGTH} characters).`),
  start_date: text('YYYY-MM-DD: keep rows whose as_of is on or after this day (undated rows are dropped).'),
  end_date: text('YYYY-MM-DD: keep rows whose as_of is on or before this day.'),
  limit: text(`Rows per page, 1..${MAXIMUM_LIMIT} (default ${DEFAULT_LIMIT}).`),
  offset: text(`Rows to skip, 0..${MAXIMUM_OFFSET} (default 0).`),
  snapshot: text('A snapshot_id from an earlier answer: answer from exactly that stored snapshot (consistent paging).'),
  as_retrieved_at: text('UTC instant: answer from the newest stored snapshot retrieved at or before it (a vintage).'),
  format: text('json (default) or csv: the page rows as spreadsheet-safe CSV.'),
});

export const DataRelease = defineRoute({
  method: 'GET',
  url: '/api/v1/release',
  operationId: 'dataRelease',
  summary: 'Build identity of this service (not a statement about data freshness)',
  tags,
  success: { 200: { description: 'The release identity, fixed for the life of the process.', content: { [json]: ReleaseSchema } }, 304: NOT_MODIFIED },
  errors: [],
});

export const DataDatasets = defineRoute({
  method: 'GET',
  url: '/api/v1/datasets',
  operationId: 'dataDatasets',
  summary: 'The seven datasets with their filters, limits, columns and current row counts',
  description: 'Never fetches a source: row counts come from the newest stored snapshot of each dataset.',
  tags,
  success: { 200: { description: 'The catalogue, a bare array in fixed order.', content: { [json]: DatasetsSchema } }, 304: NOT_MODIFIED },
  errors: [...STORE],
});

export const DataSources = defineRoute({
  method: 'GET',
  url: '/api/v1/sources',
  operationId: 'dataSources',
  summary: 'Source transport, reported clocks and byte hashes (the source_health table)',
  description: 'Equivalent to /api/v1/query?dataset=source_health with the default page; query parameters are ignored.',
  tags,
  success: { 200: { description: 'One row per configured source.', content: { [json]: QueryResultSchema } }, 304: NOT_MODIFIED },
  errors: [DataErrors.snapshot_unreadable, ...STORE],
});

export const DataQuery = defineRoute({
  method: 'GET',
  url: '/api/v1/query',
  operationId: 'dataQuery',
  summary: 'One page of a dataset, from one stored snapshot of its sources',
  description:
    'Validated before anything is fetched. Source failures are not HTTP errors: they answer 200 with transport_status partial or unavailable and diagnostic rows. ' +
    'Pass the answer\'s snapshot_id as `snapshot` to page over exactly the same source states.',
  tags,
  querystring: QueryParameters,
  queryCheckedByOperation: true,
  errorBodies: VALIDATION,
  success: {
    200: {
      description: 'The page (QueryResult), or with format=csv its rows as CSV.',
      content: { [json]: QueryResultSchema, 'text/csv': Type.String({ description: 'Header line, then one line per row of the page (EvidenceRow columns).' }) },
    },
    304: NOT_MODIFIED,
  },
  errors: [
    DataErrors.dataset_required,
    DataErrors.unknown_dataset,
    DataErrors.entity_too_long,
    DataErrors.invalid_date,
    DataErrors.date_range_reversed,
    DataErrors.invalid_limit,
    DataErrors.invalid_offset,
    DataErrors.invalid_snapshot_id,
    DataErrors.snapshot_not_stored,
    DataErrors.invalid_instant,
    DataErrors.no_snapshot_at_or_before,
    DataErrors.invalid_format,
    DataErrors.conflicting_parameters,
    DataErrors.snapshot_unreadable,
    ...STORE,
  ],
});

export const SnapshotParameters = Type.Object({
  dataset: DATASET,
  limit: text(`Snapshots per page, 1..${SNAPSHOTS_MAXIMUM_LIMIT} (default ${SNAPSHOTS_DEFAULT_LIMIT}).`),
  offset: text(`Snapshots to skip, 0..${MAXIMUM_OFFSET} (default 0).`),
});

export const DataSnapshots = defineRoute({
  method: 'GET',
  url: '/api/v1/snapshots',
  operationId: 'dataSnapshots',
  summary: 'Stored snapshots of one dataset, newest first (ids to pass as snapshot)',
  tags,
  querystring: SnapshotParameters,
  queryCheckedByOperation: true,
  errorBodies: VALIDATION,
  success: { 200: { description: 'One page of stored snapshots.', content: { [json]: SnapshotListSchema } }, 304: NOT_MODIFIED },
  errors: [DataErrors.dataset_required, DataErrors.unknown_dataset, DataErrors.invalid_limit, DataErrors.invalid_offset, ...STORE],
});

export const OpenBBWidgets = defineRoute({
  method: 'GET',
  url: '/widgets.json',
  operationId: 'openbbWidgets',
  summary: 'OpenBB Workspace widgets: one table per dataset (backend base URL: /openbb)',
  tags,
  success: { 200: { description: 'widgets.json, keyed by widget id.', content: { [json]: WidgetsSchema } }, 304: NOT_MODIFIED },
  errors: [],
});

export const OpenBBApps = defineRoute({
  method: 'GET',
  url: '/apps.json',
  operationId: 'openbbApps',
  summary: 'OpenBB Workspace app laying the dataset widgets out in tabs',
  tags,
  success: { 200: { description: 'apps.json.', content: { [json]: AppsSchema } }, 304: NOT_MODIFIED },
  errors: [],
});

export const DATA_ROUTES = [DataRelease, DataDatasets, DataSources, DataQuery, DataSnapshots, OpenBBWidgets, OpenBBApps] as const;
