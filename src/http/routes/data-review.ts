// Group C contracts (issue 12): the funding review from our own archive and its CSV,
// the agent routes with revisions, and the research kit download.
import { Type, type TSchema } from 'typebox';
import { CoreErrors } from '../../core/errors.js';
import { AgentQueryResultSchema, AgentReviewResultSchema } from '../../data/agent-schema.js';
import { AGENT_QUERY_LIMITS, REVIEW_DEFAULT_LIMIT, REVIEW_MAXIMUM_LIMIT } from '../../data/agent.js';
import { DATASET_IDS } from '../../data/datasets.js';
import { DataErrors } from '../../data/errors.js';
import { FundingReviewSchema } from '../../data/funding-review-schema.js';
import { ReviewErrors } from '../../data/review-errors.js';
import { FundingReadErrors } from '../../funding/read-errors.js';
import { defineRoute } from '../contract.js';
import { dataValidationBody } from './data.js';

const json = 'application/json';
const NOT_MODIFIED = { description: 'Not Modified: the If-None-Match tag names this representation.' };
const SampleMark = Type.Optional(Type.Literal(true, { description: 'Present only in sample mode.' }));

/** The CSV's 503: the group's error body plus the upstream's two members. */
function csvUnavailableBody(codes: readonly string[]): TSchema {
  return Type.Object({
    status: Type.Optional(Type.Literal('capture_unavailable_or_stale')),
    review: Type.Optional(Type.String({ description: 'Where the review explains why (path on this service).' })),
    detail: Type.String(),
    code: Type.Enum([...codes]),
    path: Type.Optional(Type.String()),
    sample: SampleMark,
  }, { additionalProperties: false });
}

const REVIEW_TAGS = ['data: funding review'];
const AGENT_TAGS = ['data: agents'];

export const FundingReview = defineRoute({
  method: 'GET',
  url: '/api/v1/funding-review',
  operationId: 'fundingReview',
  summary: 'The USD funding review, from this service\'s own funding archive',
  description:
    'Composed on every request from the newest capture attempt, the packet it names and a fresh verification of that packet\'s stored hashes. ' +
    'Always 200: when the newest attempt failed, is stale or its packet no longer verifies, available/ready are false and issues say why; ' +
    'an earlier packet is never shown instead. Nothing is fetched from a source.',
  tags: REVIEW_TAGS,
  success: { 200: { description: 'The review.', content: { [json]: FundingReviewSchema } }, 304: NOT_MODIFIED },
  errors: [],
});

export const FundingReviewCsv = defineRoute({
  method: 'GET',
  url: '/api/v1/funding-review.csv',
  operationId: 'fundingReviewCsv',
  summary: 'The review\'s nine rows as CSV: the current packet\'s verified observations.csv bytes',
  description: 'Served only while the review is ready, with a strong ETag (SHA-256 of the bytes); otherwise 503 with Retry-After and the reason code.',
  tags: REVIEW_TAGS,
  success: { 200: { description: 'The CSV bytes.', content: { 'text/csv': Type.String() } }, 304: NOT_MODIFIED },
  errors: [
    FundingReadErrors.evidence_not_captured,
    FundingReadErrors.latest_attempt_failed,
    FundingReadErrors.evidence_stale,
    FundingReadErrors.evidence_clock_invalid,
    FundingReadErrors.artifact_verification_failed,
    CoreErrors.storage_unavailable,
  ],
  errorBodies: { 503: csvUnavailableBody },
});

const Revision = Type.String({ pattern: '^(?:[0-9a-f]{64})?$', description: 'The revision of an earlier answer; unchanged evidence then comes back without rows.' });

export const AgentQuery = defineRoute({
  method: 'GET',
  url: '/api/v1/agent-query',
  operationId: 'agentQuery',
  summary: 'One page of a dataset for an agent, with a content revision',
  description: 'The query result plus revision, change_status, freshness_status, financial_authority and instructions. Every parameter is checked before anything is fetched.',
  tags: AGENT_TAGS,
  querystring: Type.Object({
    dataset: Type.Union(DATASET_IDS.map((id) => Type.Literal(id)), { description: 'Required.' }),
    entity: Type.Optional(Type.String({ maxLength: 100, description: 'Case-insensitive substring of entity_id or entity_name.' })),
    start_date: Type.Optional(Type.String({ description: 'YYYY-MM-DD; keeps dated rows on or after it.' })),
    end_date: Type.Optional(Type.String({ description: 'YYYY-MM-DD; keeps dated rows on or before it.' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: AGENT_QUERY_LIMITS.maximumLimit, default: AGENT_QUERY_LIMITS.defaultLimit })),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 100000, default: 0 })),
    previous_revision: Type.Optional(Revision),
    snapshot: Type.Optional(Type.String({ pattern: '^[0-9a-f]{32}$', description: 'Answer from this stored snapshot (the snapshot_id of an earlier answer).' })),
    as_retrieved_at: Type.Optional(Type.String({ description: 'Answer from the newest stored snapshot retrieved at or before this UTC instant.' })),
  }),
  queryCheckedByOperation: true,
  success: { 200: { description: 'The page with its revision.', content: { [json]: AgentQueryResultSchema } }, 304: NOT_MODIFIED },
  errors: [
    DataErrors.dataset_required, DataErrors.unknown_dataset, DataErrors.entity_too_long, DataErrors.invalid_date, DataErrors.date_range_reversed,
    DataErrors.invalid_limit, DataErrors.invalid_offset, DataErrors.invalid_snapshot_id, DataErrors.snapshot_not_stored, DataErrors.invalid_instant,
    DataErrors.no_snapshot_at_or_before, DataErrors.conflicting_parameters, ReviewErrors.invalid_revision,
    DataErrors.snapshot_unreadable, CoreErrors.storage_unavailable, CoreErrors.storage_busy,
  ],
  errorBodies: { 422: dataValidationBody },
});

export const AgentReview = defineRoute({
  method: 'GET',
  url: '/api/v1/agent-review',
  operationId: 'agentReview',
  summary: 'Money markets, covered banks and market liquidity for an agent, with a content revision',
  description: 'Three sections in this order (money_markets, bank_risk filtered by bank, market_liquidity), each the first page of its dataset; each source is retrieved once.',
  tags: AGENT_TAGS,
  querystring: Type.Object({
    bank: Type.Optional(Type.String({ maxLength: 100, description: 'Filters the bank_risk section only.' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: REVIEW_MAXIMUM_LIMIT, default: REVIEW_DEFAULT_LIMIT, description: 'Rows per section.' })),
    previous_revision: Type.Optional(Revision),
    snapshot: Type.Optional(Type.String({ pattern: '^[0-9a-f]{32},[0-9a-f]{32},[0-9a-f]{32}$', description: 'The snapshot_id of an earlier review: answer from exactly those three snapshots.' })),
  }),
  queryCheckedByOperation: true,
  success: { 200: { description: 'The review with its revision.', content: { [json]: AgentReviewResultSchema } }, 304: NOT_MODIFIED },
  errors: [
    DataErrors.entity_too_long, DataErrors.invalid_limit, ReviewErrors.invalid_revision, DataErrors.invalid_snapshot_id, DataErrors.snapshot_not_stored,
    DataErrors.snapshot_unreadable, CoreErrors.storage_unavailable, CoreErrors.storage_busy,
  ],
  errorBodies: { 422: dataValidationBody },
});

export const ResearchKitZip = defineRoute({
  method: 'GET',
  url: '/api/v1/research-kit.zip',
  operationId: 'researchKitZip',
  summary: 'Everything a researcher needs to capture a dataset completely, without this repository',
  description: 'A byte-reproducible zip: README, this OpenAPI document, example requests, a dependency-free Python capture script and SHA256SUMS. Strong ETag.',
  tags: ['data: research kit'],
  success: { 200: { description: 'The zip.', content: { 'application/zip': Type.String() } }, 304: NOT_MODIFIED },
  errors: [],
});

export const DATA_REVIEW_ROUTES = [FundingReview, FundingReviewCsv, AgentQuery, AgentReview, ResearchKitZip] as const;
