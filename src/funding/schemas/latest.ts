// Body of GET /v1/funding/latest (`financial-evidence.funding.v1`).
import { Type, type Static } from 'typebox';
import { closed, Hex64, IsoDate, ObservationRowSchema, PacketArtifacts, PacketId, SampleFlag, Str, Timestamp } from './common.js';

export const FundingLatestResponse = closed(
  {
    schema: Type.Literal('financial-evidence.funding.v1'),
    dataset: Type.Literal('usd-funding'),
    ready: Type.Literal(true),
    packet_id: PacketId,
    source_captured_at: Timestamp,
    archived_at: Timestamp,
    review_asof: IsoDate,
    review_scope: Str,
    latest_per_instrument: Type.Literal(false),
    value_basis: Str,
    knowledge_time_basis: Str,
    observations: Type.Array(ObservationRowSchema, { minItems: 9, maxItems: 9 }),
    manifest_sha256: Hex64,
    artifacts: PacketArtifacts,
    links: closed({ 'manifest.json': Str, 'observations.csv': Str, 'review.json': Str }),
    sample: SampleFlag,
  },
  'The current verified packet: nine observations and the hashes of its files.',
);

export type FundingLatest = Static<typeof FundingLatestResponse>;
