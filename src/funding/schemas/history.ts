// Body of GET /v1/funding/history (`financial-evidence.forward-coverage.v1`).
import { Type, type Static } from 'typebox';
import { Bool, closed, Hex64, IsoDate, PacketId, SampleFlag, Str, Timestamp, oneOf } from './common.js';

export const HistoryPacketSchema = closed({
  packet_id: PacketId,
  archived_at: Timestamp,
  source_captured_at: Timestamp,
  review_asof: Type.Union([IsoDate, Type.Null()]),
  ready_at_capture: Bool,
  source_manifest_sha256: Hex64,
  manifest_sha256: Hex64,
});

export const HistoryAttemptSchema = closed({
  recorded_at: Timestamp,
  packet_id: Type.Union([PacketId, Type.Null()]),
  error: Type.Union([Str, Type.Null()]),
  outcome: oneOf(['packet_created', 'packet_reverified', 'failed'] as const),
});

export const FundingHistoryResponse = closed(
  {
    schema: Type.Literal('financial-evidence.forward-coverage.v1'),
    as_of: Timestamp,
    knowledge_time_basis: Str,
    scope: Type.Literal('observed_packets_only_not_complete_publisher_vintages'),
    first_archived_at: Type.Union([Timestamp, Type.Null()]),
    last_archived_at: Type.Union([Timestamp, Type.Null()]),
    packet_count: Type.Integer({ minimum: 0 }),
    packets: Type.Array(HistoryPacketSchema),
    truncated: Bool,
    limit: Type.Integer({ minimum: 1 }),
    next_before: Type.Union([PacketId, Type.Null()], { description: 'Pass as before= to read the previous page.' }),
    latest_attempt: Type.Union([HistoryAttemptSchema, Type.Null()]),
    sample: SampleFlag,
  },
  'What the archive held as of a moment: counts, one page of packets, the newest attempt.',
);

export type FundingHistory = Static<typeof FundingHistoryResponse>;
export type HistoryAttempt = Static<typeof HistoryAttemptSchema>;
