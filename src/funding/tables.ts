// Storage tables of the funding evidence archive (group B).
//
// Immutable things (publisher bodies, packets, attempts) are only ever inserted. Clocks
// are microseconds since the epoch in `bigint` columns (exact below 2^53, about year
// 2255), booleans are 0/1 integers so both dialects read them the same way, and every
// artifact is kept as the exact bytes that were hashed.

/** One publisher body, named by the SHA-256 of its bytes. */
export interface PublisherBlobsTable {
  sha256: string;
  bytes: Uint8Array;
  size: number;
  first_stored_at_us: number;
}

/** One packet: the three artifacts and the facts the read routes list without parsing. */
export interface PacketsTable {
  packet_id: string;
  /** Position in this archive (1, 2, …); assigned inside the archive lock. */
  seq: number;
  /** 'live' or 'sample': a packet made from bundled documents is never served as live. */
  mode: string;
  archived_at_us: number;
  source_captured_at_us: number;
  review_asof: string | null;
  review_scope: string;
  ready_at_capture: number;
  manifest_sha256: string;
  source_manifest_sha256: string;
  manifest: Uint8Array;
  review: Uint8Array;
  csv: Uint8Array;
}

/** One capture attempt, successful or not. The newest (highest seq) is the live pointer. */
export interface AttemptsTable {
  attempt_id: string;
  seq: number;
  mode: string;
  started_at_us: number;
  recorded_at_us: number;
  /** 'packet_created', 'packet_reverified' or 'failed'. */
  outcome: string;
  packet_id: string | null;
  /** SHA-256 of the packet manifest this attempt created or re-verified. */
  manifest_sha256: string | null;
  review_asof: string | null;
  /** Registry code of the failure, e.g. publisher_unavailable. */
  error_code: string | null;
  /** `<code>: <message>`, bounded; never carries credentials or response bodies. */
  error: string | null;
  /** Canonical JSON of the publisher receipts gathered before success or failure. */
  receipts_json: string | null;
  /** Sample day directory used in sample mode. */
  sample_day: string | null;
}

/**
 * One row (id 1) whose revision triggers bump on every write to packets and attempts: the
 * cheap "did anything change?" question of the readers' in-memory cache.
 */
export interface RevisionTable {
  id: number;
  revision: number;
}

export interface FundingTables {
  funding_publisher_blobs: PublisherBlobsTable;
  funding_packets: PacketsTable;
  funding_attempts: AttemptsTable;
  funding_revision: RevisionTable;
}
