// The two JSON files of a packet: manifest.json (`financial-evidence.public-packet.v1`)
// and review.json (`financial-evidence.original-publisher-review.v1`).
import { Type, type Static } from 'typebox';
import { IORB_SOURCES } from '../publishers/catalogue.js';
import { Bool, byMetric, byPublisher, closed, Hex64, IsoDate, ObservationRowSchema, PacketArtifacts, PacketId, SampleFlag, Str, Timestamp } from './common.js';

/** IORB only: which of its sources was read. */
const IorbSourceId = Type.Union([Type.Literal(IORB_SOURCES[0]), Type.Literal(IORB_SOURCES[1])]);

const receiptMembers = {
  source_url: Str,
  retrieved_at: Timestamp,
  sha256: Hex64,
  bytes: Type.Integer({ minimum: 0 }),
};
export const PublisherReceiptSchema = closed(receiptMembers);
/** The IORB receipt also says which of IORB's sources was read. */
export const IorbReceiptSchema = closed({ ...receiptMembers, source_id: IorbSourceId });

/** An operation on a used date that was not part of the value, and why. */
export const ExcludedOperationSchema = closed({
  operation_id: Str,
  close_time: Type.Union([Str, Type.Null()]),
  note: Type.Union([Str, Type.Null()]),
  reason: Type.Union([Type.Literal('unscheduled_close_time'), Type.Literal('small_value_exercise')]),
});

export const PacketManifestDocument = closed(
  {
    schema: Type.Literal('financial-evidence.public-packet.v1'),
    packet_id: PacketId,
    archived_at: Timestamp,
    source_captured_at: Timestamp,
    source_manifest_sha256: Hex64,
    knowledge_time_basis: Str,
    producer_source_commit: Str,
    producer_modules_sha256: Type.Record(Type.String(), Hex64),
    method_version: Str,
    review_asof: IsoDate,
    review_scope: Type.Literal('common_sofr_iorb_horizon'),
    latest_per_instrument: Type.Literal(false),
    ready_at_capture: Bool,
    artifacts: PacketArtifacts,
    publisher_receipts: closed({ ...byPublisher(PublisherReceiptSchema).properties, iorb: IorbReceiptSchema }),
    value_basis: Str,
    sample: SampleFlag,
  },
  'manifest.json: what the packet holds and where each publisher document came from.',
);

export const FreshnessAssessmentSchema = closed({
  basis: Str,
  canonical_latest_asof: IsoDate,
  newer_observation_available: Bool,
});

const lineageMembers = {
  ...receiptMembers,
  field: Str,
  source: Str,
  original_publisher_acquisition: Bool,
};
export const LineageSchema = closed(lineageMembers);
/** IORB's lineage carries its receipt's source_id. */
const IorbLineageSchema = closed({ ...lineageMembers, source_id: IorbSourceId });
/** Operations rows list the same-day operations left out of the value, on days that had any. */
const OperationsLineageSchema = closed({
  ...lineageMembers,
  excluded_operations: Type.Optional(Type.Array(ExcludedOperationSchema, { minItems: 1 })),
});

export const PacketReviewDocument = closed(
  {
    schema: Type.Literal('financial-evidence.original-publisher-review.v1'),
    capture_id: PacketId,
    captured_at: Timestamp,
    ready: Bool,
    available: Type.Literal(true),
    stale: Type.Literal(false),
    data_readiness: Type.Literal('checks_passed'),
    review_asof: IsoDate,
    review_scope: Type.Literal('common_sofr_iorb_horizon'),
    latest_per_instrument: Type.Literal(false),
    results: Type.Array(ObservationRowSchema, { minItems: 9, maxItems: 9 }),
    freshness_assessments: byMetric(FreshnessAssessmentSchema),
    issues: Type.Array(Str),
    original_publisher_acquired_at: Timestamp,
    publisher_lineage: closed({
      ...byMetric(LineageSchema).properties,
      'policy.iorb': IorbLineageSchema,
      'liquidity.on_rrp': OperationsLineageSchema,
      'liquidity.srf': OperationsLineageSchema,
    }),
    value_basis: Str,
    method_version: Str,
    transformations: Type.Array(Str),
    source_terms: Type.Record(Type.String(), Str),
    publisher_notice: Str,
    sample: SampleFlag,
  },
  'review.json: our review of the seven publisher documents, row by row with lineage.',
);

export type PacketManifest = Static<typeof PacketManifestDocument>;
export type PacketReview = Static<typeof PacketReviewDocument>;
/** A receipt as the capture builds it: `source_id` only on IORB's. */
export type PublisherReceipt = Static<typeof PublisherReceiptSchema> & { source_id?: Static<typeof IorbSourceId> };
export type LineageEntry = Static<typeof OperationsLineageSchema> & { source_id?: Static<typeof IorbSourceId> };
