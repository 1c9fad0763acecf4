// Result body of POST /v1/narrative/triage (`noisefloor.narrative-triage.v1`), members
// in the order the body carries them.
import { Type, type Static } from 'typebox';
import { closed, False, Int, Num, Sha256, Str, nullable, oneOf } from './results-common.js';

export const NarrativePolicyResult = closed({ max_age_seconds: Num, max_items: Int, similarity_threshold: Num });

export const NarrativeSourceResult = closed({
  id: Str,
  kind: oneOf(['primary', 'reporting', 'commentary'] as const),
  url: Type.Optional(Str),
  family: Type.Optional(Str),
});

export const ClusterSummarySchema = closed({
  cluster_id: Str,
  representative_id: Str,
  title: Str,
  entities: Type.Array(Str),
  published_at: Str,
  source: NarrativeSourceResult,
  member_ids: Type.Array(Str),
  report_count: Int,
  declared_source_families: Type.Array(Str),
  independence_verified: False,
  truth_assessed: False,
  impact_assessed: False,
  relevance: oneOf(['unmapped', 'matches_focus', 'not_filtered'] as const),
  event_keys: Type.Array(Str),
});

export const EventEntrySchema = closed({
  id: Str,
  status: oneOf(['representative', 'repeated_wording', 'unmapped_entity', 'stale', 'not_yet_available', 'outside_focus'] as const),
  cluster_id: nullable(Str),
  published_at: Str,
  available_at: nullable(Str),
  source: NarrativeSourceResult,
  entities: Type.Array(Str),
  title: Str,
});

export const ConflictCandidateSchema = closed({
  event_key: Str,
  cluster_ids: Type.Array(Str),
  reason: Type.Literal('different_wording_or_quantities_requires_review'),
});

export const TriageCountsSchema = closed({
  supplied: Int,
  eligible_for_triage: Int,
  distinct_wording_clusters: Int,
  repeated_wording: Int,
  queued: Int,
  deferred: Int,
});

export const NarrativeResponse = closed(
  {
    schema: Type.Literal('noisefloor.narrative-triage.v1'),
    as_of: Str,
    focus: Type.Array(Str),
    status: oneOf(['triaged', 'insufficient_visibility'] as const),
    policy: NarrativePolicyResult,
    attention_queue: Type.Array(ClusterSummarySchema),
    clusters: Type.Array(ClusterSummarySchema),
    events: Type.Array(EventEntrySchema),
    conflict_candidates: Type.Array(ConflictCandidateSchema),
    deferred_cluster_ids: Type.Array(Str),
    counts: TriageCountsSchema,
    limits: Type.Array(Str),
    source_universe_complete: False,
    execution_authority: False,
    request_sha256: Sha256,
    policy_sha256: Sha256,
  },
  'Wording clusters ranked for review; every supplied event is listed once.',
);

export type NarrativeTriageResult = Static<typeof NarrativeResponse>;
