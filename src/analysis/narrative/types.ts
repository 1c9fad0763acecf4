// Request and response shapes of `narrative_triage`. The request reaching the domain code
// has already passed the HTTP layer's schema validation.

export type SourceKind = 'primary' | 'reporting' | 'commentary';

export interface NarrativeSource {
  id: string;
  kind: SourceKind;
  url?: string;
  family?: string;
}

export interface NarrativeEvent {
  id: string;
  title: string;
  published_at: string;
  available_at?: string;
  entities: string[];
  source: NarrativeSource;
  event_key?: string;
}

export interface NarrativePolicyInput {
  max_age_seconds?: number;
  max_items?: number;
  similarity_threshold?: number;
}

export interface NarrativeRequest {
  events: NarrativeEvent[];
  as_of: string;
  focus?: string[];
  policy?: NarrativePolicyInput;
}

export interface NarrativePolicy {
  max_age_seconds: number;
  max_items: number;
  similarity_threshold: number;
}

export type EventStatus =
  | 'representative'
  | 'repeated_wording'
  | 'unmapped_entity'
  | 'stale'
  | 'not_yet_available'
  | 'outside_focus';

export type Relevance = 'unmapped' | 'matches_focus' | 'not_filtered';

export interface ClusterSummary {
  cluster_id: string;
  representative_id: string;
  title: string;
  entities: string[];
  published_at: string;
  source: NarrativeSource;
  member_ids: string[];
  report_count: number;
  declared_source_families: string[];
  independence_verified: false;
  truth_assessed: false;
  impact_assessed: false;
  relevance: Relevance;
  event_keys: string[];
}

export interface EventEntry {
  id: string;
  status: EventStatus;
  cluster_id: string | null;
  published_at: string;
  available_at: string | null;
  source: NarrativeSource;
  entities: string[];
  title: string;
}

export interface ConflictCandidate {
  event_key: string;
  cluster_ids: string[];
  reason: 'different_wording_or_quantities_requires_review';
}

export interface TriageCounts {
  supplied: number;
  eligible_for_triage: number;
  distinct_wording_clusters: number;
  repeated_wording: number;
  queued: number;
  deferred: number;
}

export interface NarrativeTriageResult {
  schema: 'noisefloor.narrative-triage.v1';
  as_of: string;
  focus: string[];
  status: 'triaged' | 'insufficient_visibility';
  policy: NarrativePolicy;
  attention_queue: ClusterSummary[];
  clusters: ClusterSummary[];
  events: EventEntry[];
  conflict_candidates: ConflictCandidate[];
  deferred_cluster_ids: string[];
  counts: TriageCounts;
  limits: string[];
  source_universe_complete: false;
  execution_authority: false;
  request_sha256: string;
  policy_sha256: string;
}
