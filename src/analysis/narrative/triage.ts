// narrative_triage: groups repeated wording among the supplied reports, keeps every report
// visible, flags event keys told in different words or numbers, and queues clusters for a
// reader by conflict, source kind and recency. Pure: no I/O, no clock, input untouched.
import { AppError } from '../../core/errors.js';
import { cloneJson, LoneSurrogateError, sha256OfDigestJson } from '../../core/json.js';
import { compareCodePoints } from '../../core/strings.js';
import { parseUtcTimestamp, secondsBetween, type Instant } from '../../core/time.js';
import { AnalysisErrors } from '../errors.js';
import { loneSurrogateError } from '../validate.js';
import { clusterIdOf } from './cluster-id.js';
import { greedyClusters } from './cluster.js';
import { declaredFamily } from './families.js';
import { NARRATIVE_LIMITS } from './limits.js';
import { applyNarrativePolicy, narrativePolicyDigest } from './policy.js';
import { compareForQueue, compareForRepresentative, conflictCandidates } from './rank.js';
import { WordingAnalyser } from './similarity.js';
import type {
  ClusterSummary,
  EventEntry,
  EventStatus,
  NarrativeEvent,
  NarrativeRequest,
  NarrativeTriageResult,
  Relevance,
} from './types.js';

export const NARRATIVE_SCHEMA = 'noisefloor.narrative-triage.v1';

interface Prepared {
  readonly event: NarrativeEvent;
  readonly published: Instant;
  readonly available: Instant;
  status: EventStatus | 'candidate';
  clusterId: string | null;
}

function timestamp(text: string, path: string): Instant {
  const instant = parseUtcTimestamp(text);
  // The schema layer has already checked the format; this only guards direct callers.
  if (instant === null) throw new AppError(AnalysisErrors.invalid_input, `${path} is not a UTC timestamp`, { path });
  return instant;
}

/** §4.1: the caller's events and clock, plus `focus` and `policy` only when sent. */
function requestDigest(request: NarrativeRequest): string {
  const digested: Record<string, unknown> = { events: request.events, as_of: request.as_of };
  if (request.focus !== undefined) digested.focus = request.focus;
  if (request.policy !== undefined) digested.policy = request.policy;
  try {
    return sha256OfDigestJson(digested);
  } catch (error) {
    if (!(error instanceof LoneSurrogateError)) throw error;
    // Upstream answers with a raw codec message; say which field is at fault instead.
    throw loneSurrogateError(request, error);
  }
}

function sortedDistinct(values: Iterable<string>): string[] {
  return [...new Set(values)].sort(compareCodePoints);
}

export function triageNarrative(request: NarrativeRequest): NarrativeTriageResult {
  const policy = applyNarrativePolicy(request.policy);
  const now = timestamp(request.as_of, '/as_of');
  const events = request.events;

  const seen = new Set<string>();
  events.forEach((event, i) => {
    if (seen.has(event.id)) {
      throw new AppError(
        AnalysisErrors.duplicate_event_id,
        `event ids must be unique, but ${JSON.stringify(event.id)} is used more than once`,
        { path: `/events/${i}/id` },
      );
    }
    seen.add(event.id);
  });

  const prepared: Prepared[] = events.map((event, i) => {
    const published = timestamp(event.published_at, `/events/${i}/published_at`);
    const available =
      event.available_at === undefined ? published : timestamp(event.available_at, `/events/${i}/available_at`);
    if (available < published) {
      throw new AppError(
        AnalysisErrors.availability_precedes_publication,
        `${JSON.stringify(event.id)}: its available_at precedes its published_at`,
        { path: `/events/${i}/available_at` },
      );
    }
    return { event, published, available, status: 'candidate', clusterId: null };
  });

  const request_sha256 = requestDigest(request);
  const policy_sha256 = narrativePolicyDigest(policy);

  // Classification (input order).
  const focus = new Set(request.focus ?? []);
  const focusing = focus.size > 0;
  for (const item of prepared) {
    const { event } = item;
    if (item.published > now || item.available > now) item.status = 'not_yet_available';
    else if (secondsBetween(now, item.published) > policy.max_age_seconds) item.status = 'stale';
    else if (focusing && event.entities.length > 0 && !event.entities.some((e) => focus.has(e))) item.status = 'outside_focus';
    else if (focusing && event.entities.length === 0) item.status = 'unmapped_entity';
  }
  const eligible = prepared.filter((p) => p.status === 'candidate' || p.status === 'unmapped_entity');

  // Divergence from upstream: order by the publication instant, so `…00Z`, `…00+00:00`
  // and `…00.5Z` sort by time; the raw text and then the id only break ties.
  eligible.sort(
    (a, b) =>
      (a.published < b.published ? -1 : a.published > b.published ? 1 : 0) ||
      compareCodePoints(a.event.published_at, b.event.published_at) ||
      compareCodePoints(a.event.id, b.event.id),
  );
  const analyser = new WordingAnalyser();
  const groups = greedyClusters(
    eligible.map((p) => analyser.features(p.event)),
    policy.similarity_threshold,
  );

  const built = groups.map((indices) => {
    const members = indices.map((i) => eligible[i]);
    const representative = [...members].sort((a, b) =>
      compareForRepresentative(
        { id: a.event.id, kind: a.event.source.kind, published: a.published },
        { id: b.event.id, kind: b.event.source.kind, published: b.published },
      ),
    )[0];
    const memberIds = members.map((m) => m.event.id).sort(compareCodePoints);
    const clusterId = clusterIdOf(memberIds);
    for (const member of members) {
      member.clusterId = clusterId;
      if (member.status === 'candidate') member.status = member === representative ? 'representative' : 'repeated_wording';
    }
    const rep = representative.event;
    const relevance: Relevance = !focusing ? 'not_filtered' : rep.entities.length === 0 ? 'unmapped' : 'matches_focus';
    const eventKeys = sortedDistinct(
      members.flatMap((m) => (m.event.event_key !== undefined && m.event.event_key !== '' ? [m.event.event_key] : [])),
    );
    const summary: ClusterSummary = {
      cluster_id: clusterId,
      representative_id: rep.id,
      title: rep.title,
      entities: cloneJson(rep.entities),
      published_at: rep.published_at,
      source: cloneJson(rep.source),
      member_ids: memberIds,
      report_count: members.length,
      declared_source_families: sortedDistinct(members.map((m) => declaredFamily(m.event.source))),
      independence_verified: false,
      truth_assessed: false,
      impact_assessed: false,
      relevance,
      event_keys: eventKeys,
    };
    return { summary, representative };
  });

  const conflicts = conflictCandidates(built.map((b) => ({ clusterId: b.summary.cluster_id, eventKeys: b.summary.event_keys })));
  const conflicting = new Set(conflicts.flatMap((c) => c.cluster_ids));
  const ranked = built
    .map((b) => ({
      summary: b.summary,
      key: {
        clusterId: b.summary.cluster_id,
        conflicting: conflicting.has(b.summary.cluster_id),
        representative: { id: b.representative.event.id, kind: b.representative.event.source.kind, published: b.representative.published },
      },
    }))
    .sort((a, b) => compareForQueue(a.key, b.key))
    .map((r) => r.summary);
  const queued = ranked.slice(0, policy.max_items);
  const deferred = ranked.slice(policy.max_items).map((s) => s.cluster_id);

  const entries: EventEntry[] = [...prepared]
    .sort((a, b) => compareCodePoints(a.event.id, b.event.id))
    .map(({ event, status, clusterId }) => ({
      id: event.id,
      // Every event is either filtered out or placed in a cluster by now.
      status: status as EventStatus,
      cluster_id: clusterId,
      published_at: event.published_at,
      available_at: event.available_at ?? null,
      source: cloneJson(event.source),
      entities: cloneJson(event.entities),
      title: event.title,
    }));

  return {
    schema: NARRATIVE_SCHEMA,
    as_of: request.as_of,
    focus: sortedDistinct(focus),
    status: eligible.length > 0 ? 'triaged' : 'insufficient_visibility',
    policy,
    // Separate copies, so a consumer editing one list cannot change the other.
    attention_queue: queued.map((s) => cloneJson(s)),
    clusters: ranked,
    events: entries,
    conflict_candidates: conflicts,
    deferred_cluster_ids: deferred,
    counts: {
      supplied: events.length,
      eligible_for_triage: eligible.length,
      distinct_wording_clusters: ranked.length,
      repeated_wording: eligible.length - ranked.length,
      queued: queued.length,
      deferred: deferred.length,
    },
    limits: [...NARRATIVE_LIMITS],
    source_universe_complete: false,
    execution_authority: false,
    request_sha256,
    policy_sha256,
  };
}
