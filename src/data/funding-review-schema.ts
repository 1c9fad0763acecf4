// Body of GET /api/v1/funding-review (`liquidity-lab.funding-review.v1`): the upstream's
// field names, states and row columns, composed here from our own funding archive.
// Every member is always present (the upstream leaves some out when unavailable); the
// few we add (`latest_attempt`, `sample`) are marked as ours.
import { Type, type Static, type TSchema } from 'typebox';
import { Hex64, IsoDate, PacketId, Timestamp, closed, oneOf } from '../funding/schemas/common.js';
import { METRIC_IDS, PUBLISHER_KEYS } from '../funding/publishers/types.js';

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const REVIEW_STATUSES = ['checks_passed', 'attention_required', 'stale_capture', 'release_identity_mismatch', 'capture_unavailable'] as const;
export const REVIEW_SCOPES = ['common_sofr_iorb_horizon', 'captured_observations', 'unknown'] as const;
export const DATA_READINESS = ['checks_passed', 'attention_required', 'not_evaluated'] as const;
export const RELEASE_IDENTITY_STATES = ['matched', 'observed', 'not_requested', 'unavailable', 'mismatch'] as const;
export const RUNTIME_RELEASE_STATES = ['matched', 'mismatch', 'not_configured', 'not_checked'] as const;

/** One of the nine rows; also the CSV columns, in this order. */
export const FundingReviewRowSchema = closed({
  metric_id: oneOf(METRIC_IDS),
  value: Nullable(Type.Number({ description: 'Null unless value_state is available.' })),
  unit: oneOf(['%', '$B'] as const),
  observation_date: Nullable(IsoDate),
  source: Type.String(),
  cadence: oneOf(['daily', 'weekly'] as const),
  publisher_freshness: Type.String(),
  value_state: oneOf(['available', 'unavailable', 'restricted', 'duplicate'] as const),
  evaluated_at: Timestamp,
  review_status: oneOf(REVIEW_STATUSES),
  review_asof: Nullable(IsoDate),
  review_scope: oneOf(REVIEW_SCOPES),
  latest_per_instrument: Nullable(Type.Literal(false)),
  canonical_latest_asof: Nullable(IsoDate),
  newer_observation_available: Nullable(Type.Boolean()),
}, 'One metric of the review. review_status is overridden to stale_capture or capture_unavailable on every row when the capture is not current.');

const Short = Nullable(Type.String({ maxLength: 240 }));

export const FreshnessAssessmentSchema = closed({
  publisher_freshness: Short,
  basis: Short,
  instrument: Short,
  asof: Nullable(IsoDate),
  expected_next_update: Short,
  calendar_scope: Short,
  atlas_source: Short,
  canonical_latest_asof: Nullable(IsoDate),
  latest_observation_basis: Short,
  newer_observation_available: Nullable(Type.Boolean()),
}, 'How current one metric is: the newest date its publisher document held, and whether it is newer than the observation used.');

const optionalKeys = <S extends TSchema>(keys: readonly string[], member: S) =>
  closed(Object.fromEntries(keys.map((k) => [k, Type.Optional(member)])));

export const RuntimeReleaseSchema = closed({
  schema: Type.Literal('financial-evidence.workspace-release.v1'),
  release_id: Type.String(),
  source_commit: Nullable(Type.String({ pattern: '^[0-9a-f]{40}$' })),
  workspace_version: Type.String(),
  package_version: Type.String(),
  contract: Type.Literal('financial-evidence.workspace.v1'),
}, 'The release identity of the service answering (GET /api/v1/release).');

export const FundingReviewIssueSchema = closed({
  code: Type.String({ maxLength: 240, description: 'Registry code (docs/errors.md) of what keeps the review from being ready.' }),
  subject: Type.String({ maxLength: 240, description: 'What it concerns: funding_review (the archive), capture (the newest attempt) or packet (its stored artifacts).' }),
});

export const LatestAttemptSchema = closed({
  outcome: oneOf(['packet_created', 'packet_reverified', 'failed'] as const),
  recorded_at: Timestamp,
  error_code: Nullable(Type.String({ description: 'Registry code of the failure; the message itself is in /v1/funding/history.' })),
}, 'Ours: the newest capture attempt the review was composed from.');

export const FundingReviewSchema = closed({
  schema: Type.Literal('liquidity-lab.funding-review.v1'),
  policy_id: Nullable(Type.String({ description: 'Name of the method whose checks the packet passed; null without a packet.' })),
  review_asof: Nullable(IsoDate),
  review_scope: oneOf(REVIEW_SCOPES),
  latest_per_instrument: Nullable(Type.Literal(false)),
  available: Type.Boolean({ description: 'The newest capture attempt succeeded and its packet verifies against its stored hashes.' }),
  ready: Type.Boolean({ description: 'Available, not stale and without issues: the CSV is served.' }),
  stale: Nullable(Type.Boolean({ description: 'The newest attempt is older than max_age_seconds, or dated more than 300 s in the future.' })),
  captured_at: Nullable(Timestamp),
  age_seconds: Nullable(Type.Number({ description: 'Seconds since the newest attempt confirmed the packet against the publishers (3 decimals).' })),
  max_age_seconds: Type.Integer({ minimum: 1 }),
  capture_id: Nullable(PacketId),
  availability: oneOf(['available', 'unavailable'] as const),
  data_readiness: oneOf(DATA_READINESS),
  release_identity: oneOf(RELEASE_IDENTITY_STATES),
  capture_release_identity: oneOf(RELEASE_IDENTITY_STATES),
  runtime_release_identity: oneOf(RUNTIME_RELEASE_STATES),
  runtime_release: RuntimeReleaseSchema,
  issues: Type.Array(FundingReviewIssueSchema, { maxItems: 200 }),
  results: Type.Array(FundingReviewRowSchema, { description: 'Exactly nine rows in the fixed metric order, or none.' }),
  freshness_assessments: optionalKeys(METRIC_IDS, FreshnessAssessmentSchema),
  measurement: closed({}, 'Scheduled probe counters: not kept here (always empty).'),
  scope: Type.Literal('captured_operator_checks_not_continuous_uptime_or_point_in_time_history'),
  manifest_sha256: Nullable(Hex64),
  input_sha256: optionalKeys(PUBLISHER_KEYS, Hex64),
  source_urls: optionalKeys(PUBLISHER_KEYS, Type.String()),
  observed_release: closed({}, 'No backend release is observed at capture here (always empty).'),
  latest_attempt: Nullable(LatestAttemptSchema),
  sample: Type.Optional(Type.Literal(true, { description: 'Present (true) only in sample mode: made-up documents.' })),
}, 'The current USD funding review, composed on every request from this service\'s own funding archive.');

export type FundingReviewBody = Static<typeof FundingReviewSchema>;
export type FundingReviewRow = Static<typeof FundingReviewRowSchema>;
export type FreshnessAssessment = Static<typeof FreshnessAssessmentSchema>;
