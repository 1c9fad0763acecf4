// Group B contracts: the funding evidence read routes and the packet downloads.
import { Type } from 'typebox';
import { CoreErrors } from '../../core/errors.js';
import { ApplicationErrors } from '../../applications/errors.js';
import { HISTORY_MAX_LIMIT } from '../../funding/history.js';
import { FundingReadErrors } from '../../funding/read-errors.js';
import { dataValidationBody } from './data.js';
import { FundingChangesResponse } from '../../funding/schemas/changes.js';
import { FundingHistoryResponse } from '../../funding/schemas/history.js';
import { FundingLatestResponse } from '../../funding/schemas/latest.js';
import { FundingAppsSchema, FundingWidgetsSchema } from '../../funding/openbb.js';
import { PacketManifestDocument, PacketReviewDocument } from '../../funding/schemas/packet.js';
import { FUNDING_SOURCES_PATH } from '../../funding/sources-page.js';
import { defineRoute } from '../contract.js';

const tags = ['funding evidence'];
const json = 'application/json';
const NOT_MODIFIED = { description: 'Not Modified: the If-None-Match tag names this representation.' };

/** A presented key must be usable; its store must answer. */
const IDENTITY = [ApplicationErrors.invalid_credential, ApplicationErrors.unknown_credential, ApplicationErrors.identity_storage_unavailable];

/** The live readiness check of latest (and of changes, which compares against it). */
const READINESS = [
  FundingReadErrors.evidence_not_captured,
  FundingReadErrors.latest_attempt_failed,
  FundingReadErrors.evidence_stale,
  FundingReadErrors.evidence_clock_invalid,
  FundingReadErrors.artifact_verification_failed,
  CoreErrors.storage_unavailable,
];

export const FundingLatest = defineRoute({
  method: 'GET',
  url: '/v1/funding/latest',
  operationId: 'fundingLatest',
  summary: 'The current verified funding evidence packet',
  description:
    'Served only while the newest capture attempt succeeded, is younger than the freshness limit and its stored artifacts still match their manifest; ' +
    'otherwise 503 with Retry-After and a reason code. Strong ETag (SHA-256 of the body); If-None-Match gives 304 only after every check.',
  tags,
  success: { 200: { description: 'The current packet.', content: { [json]: FundingLatestResponse } }, 304: NOT_MODIFIED },
  errors: [...IDENTITY, ...READINESS],
});

export const FundingChanges = defineRoute({
  method: 'GET',
  url: '/v1/funding/changes',
  operationId: 'fundingChanges',
  summary: 'Metric-by-metric differences from an earlier packet to the current one',
  tags,
  querystring: Type.Object({
    since: Type.Optional(Type.String({ description: 'Packet id the client holds (required).' })),
    until: Type.Optional(Type.String({ description: 'The latest packet id the client just saw; 409 if it is no longer the latest.' })),
  }),
  success: { 200: { description: 'The differences.', content: { [json]: FundingChangesResponse } }, 304: NOT_MODIFIED },
  // Without since: the framework's validation list, as the upstream answers it.
  errorBodies: { 422: dataValidationBody },
  errors: [
    FundingReadErrors.since_required,
    ...IDENTITY,
    FundingReadErrors.invalid_packet_id,
    ...READINESS,
    FundingReadErrors.latest_changed,
    FundingReadErrors.since_outside_archive,
    FundingReadErrors.since_after_latest,
    FundingReadErrors.changes_comparison_failed,
  ],
});

export const FundingHistory = defineRoute({
  method: 'GET',
  url: '/v1/funding/history',
  operationId: 'fundingHistory',
  summary: 'What this forward archive held as of a moment (pages backwards with before/limit)',
  description: 'Readable even while latest is unavailable. as_of defaults to now.',
  tags,
  querystring: Type.Object({
    as_of: Type.Optional(Type.String({ description: 'ISO 8601 with a zone (Z or ±HH:MM), not in the future.' })),
    before: Type.Optional(Type.String({ description: 'Packet id: list only packets archived before it.' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: HISTORY_MAX_LIMIT, default: HISTORY_MAX_LIMIT })),
  }),
  success: { 200: { description: 'The archive as of the moment.', content: { [json]: FundingHistoryResponse } }, 304: NOT_MODIFIED },
  errors: [
    ...IDENTITY,
    FundingReadErrors.invalid_as_of,
    FundingReadErrors.invalid_packet_id,
    FundingReadErrors.history_cursor_not_found,
    CoreErrors.storage_unavailable,
  ],
});

export const FundingPacketFile = defineRoute({
  method: 'GET',
  url: '/packets/:packet_id/:file',
  operationId: 'fundingPacketFile',
  summary: 'One immutable packet file: manifest.json, review.json or observations.csv',
  description: 'Verified against the manifest on every request; cached immutably with a strong ETag.',
  tags,
  params: Type.Object({
    packet_id: Type.String({ description: 'YYYYMMDDTHHMMSS.ffffffZ-<32 lowercase hex>' }),
    file: Type.String({ description: 'manifest.json, review.json or observations.csv' }),
  }),
  success: {
    200: {
      description: 'The exact stored bytes of the file.',
      content: { [json]: Type.Union([PacketManifestDocument, PacketReviewDocument]), 'text/csv': Type.String({ description: 'observations.csv' }) },
    },
    304: NOT_MODIFIED,
  },
  errors: [
    FundingReadErrors.packet_file_not_found,
    FundingReadErrors.invalid_packet_id,
    FundingReadErrors.packet_not_found,
    FundingReadErrors.artifact_verification_failed,
    CoreErrors.storage_unavailable,
    // An empty file segment (`/packets/<id>/`) matches no route at all.
    CoreErrors.route_not_found,
  ],
});

export const FundingSourceTerms = defineRoute({
  method: 'GET',
  url: FUNDING_SOURCES_PATH,
  operationId: 'fundingSourceTerms',
  summary: 'Where the funding figures come from and whose terms apply',
  tags,
  success: { 200: { description: 'A short plain-text page.', content: { 'text/plain': Type.String() } } },
  errors: [],
});

export const FundingOpenBBWidgets = defineRoute({
  method: 'GET',
  url: '/widgets.json',
  operationId: 'fundingOpenbbWidgets',
  summary: 'OpenBB Workspace widgets: the current packet as a table (backend base URL: /funding-evidence)',
  tags,
  prefixOnly: true,
  success: { 200: { description: 'widgets.json, keyed by widget id.', content: { [json]: FundingWidgetsSchema } } },
  errors: [],
});

export const FundingOpenBBApps = defineRoute({
  method: 'GET',
  url: '/apps.json',
  operationId: 'fundingOpenbbApps',
  summary: 'OpenBB Workspace app showing the current packet',
  tags,
  prefixOnly: true,
  success: { 200: { description: 'apps.json.', content: { [json]: FundingAppsSchema } } },
  errors: [],
});

export const FUNDING_ROUTES = [FundingLatest, FundingChanges, FundingHistory, FundingPacketFile, FundingSourceTerms, FundingOpenBBWidgets, FundingOpenBBApps] as const;
