// Tables of the consent-based application keys and their usage measurement.
//
// Privacy by construction: an application is a random id, the SHA-256 of its token and
// UTC calendar days. No column can hold an address, a user agent, a referrer or any text
// a client chose; days are `YYYY-MM-DD` strings so they compare in calendar order.

/** Trust labels an application (or one request) can carry. */
export type TrafficClass = 'unverified' | 'internal' | 'synthetic' | 'external_verified';
/** Aggregates also count requests made without a key. */
export type AggregateClass = TrafficClass | 'anonymous';
export type UsageOutcome = 'data_response' | 'not_modified' | 'data_query' | 'data_query_not_modified';

export interface ApplicationsTable {
  /** 32 lowercase hex characters. */
  id: string;
  /** Hex SHA-256 of the full token text (including `fe_`); unique. */
  token_hash: string;
  created_day: string;
  last_seen_day: string;
  traffic_class: TrafficClass;
  /** SHA-256 of the operator's evidence file for `external_verified`, else null. */
  evidence_sha256: string | null;
}

export interface CompletionsTable {
  application: string;
  day: string;
  /** The latest packet id at the time of the read. */
  packet: string;
  traffic_class: TrafficClass;
}

export interface CohortsTable {
  application: string;
  traffic_class: TrafficClass;
  first_day: string;
}

export interface AggregatesTable {
  day: string;
  traffic_class: AggregateClass;
  outcome: UsageOutcome;
  count: number;
}

/** One consented browser event: a keyed hash of the visitor, a UTC date, a packet, a kind. */
export interface BrowserEventsTable {
  /** Hex HMAC-SHA-256 of the visitor id under the `browser-visitor` secret. */
  visitor_hash: string;
  day: string;
  packet: string;
  kind: string;
}

/** Secrets the service creates for itself (hex), shared by every instance on the store. */
export interface ServiceSecretsTable {
  name: string;
  value_hex: string;
}

/** A measured data-query read (group C): one per application, UTC date and response digest. */
export interface DataReadsTable {
  application: string;
  day: string;
  digest: string;
  traffic_class: TrafficClass;
}

export interface ApplicationTables {
  browser_events: BrowserEventsTable;
  service_secrets: ServiceSecretsTable;
  applications: ApplicationsTable;
  data_reads: DataReadsTable;
  completions: CompletionsTable;
  cohorts: CohortsTable;
  aggregates: AggregatesTable;
}
