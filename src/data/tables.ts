// Storage tables of the data group (C).
//
// Retrievals are the fetch cache and the record of every attempt; documents live in the
// content-addressed blob table shared with the funding archive (funding_publisher_blobs).
// A snapshot names the retrievals one dataset was projected from; its id is derived from
// them, so instances that see the same retrievals name the same snapshot without talking
// to each other. Clocks are epoch microseconds in bigint columns; booleans are 0/1.

export interface DataRetrievalsTable {
  retrieval_id: string;
  /** Store-wide order, assigned under the blob lock: "newer" never depends on clocks. */
  seq: number;
  /** 'live' or 'sample'. */
  mode: string;
  source_key: string;
  source_url: string;
  started_at_us: number;
  retrieved_at_us: number;
  ok: number;
  resolved_url: string | null;
  bytes: number | null;
  /** Hex SHA-256 naming the document in funding_publisher_blobs (ok retrievals). */
  content_sha256: string | null;
  error: string | null;
}

export interface DataSnapshotsTable {
  snapshot_id: string;
  mode: string;
  dataset: string;
  /** When an instance first formed this snapshot (retention and pinning count from here). */
  created_at_us: number;
  /** The newest retrieval clock among its sources: the snapshot's "retrieved at". */
  retrieved_at_us: number;
  /** SHA-256 over each source's URL, outcome and document hash: equal keys, equal rows but clocks. */
  content_key: string;
  row_count: number;
  transport_status: string;
}

export interface DataSnapshotSourcesTable {
  snapshot_id: string;
  position: number;
  source_key: string;
  retrieval_id: string;
}

export interface DataTables {
  data_retrievals: DataRetrievalsTable;
  data_snapshots: DataSnapshotsTable;
  data_snapshot_sources: DataSnapshotSourcesTable;
}
