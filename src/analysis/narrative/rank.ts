// Ordering rules after clustering: which report represents a cluster, which clusters are
// flagged as conflicting, and the order of the attention queue. Repetition count takes no
// part in any of them, so ten copies of a commentary never outrank one primary report.
import { compareCodePoints } from '../../core/strings.js';
import type { Instant } from '../../core/time.js';
import type { ConflictCandidate, SourceKind } from './types.js';

export const KIND_RANK: Readonly<Record<SourceKind, number>> = { primary: 0, reporting: 1, commentary: 2 };

function compareInstants(a: Instant, b: Instant): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export interface RankedReport {
  readonly id: string;
  readonly kind: SourceKind;
  readonly published: Instant;
}

/**
 * Best source kind first, then the newest publication instant, then id (code points).
 * Note: the newest, not the earliest, report of the best kind represents the cluster —
 * upstream's rule, kept for parity.
 */
export function compareForRepresentative(a: RankedReport, b: RankedReport): number {
  return KIND_RANK[a.kind] - KIND_RANK[b.kind] || compareInstants(b.published, a.published) || compareCodePoints(a.id, b.id);
}

export interface RankedCluster {
  readonly clusterId: string;
  readonly conflicting: boolean;
  readonly representative: RankedReport;
}

/** Conflicting clusters first, then representative's kind, newest first, then cluster id. */
export function compareForQueue(a: RankedCluster, b: RankedCluster): number {
  return (
    Number(!a.conflicting) - Number(!b.conflicting) ||
    KIND_RANK[a.representative.kind] - KIND_RANK[b.representative.kind] ||
    compareInstants(b.representative.published, a.representative.published) ||
    compareCodePoints(a.clusterId, b.clusterId)
  );
}

/**
 * Every event key carried by more than one cluster, with those clusters in creation
 * order; the list is sorted by event key (code points).
 */
export function conflictCandidates(
  clustersInCreationOrder: ReadonlyArray<{ clusterId: string; eventKeys: readonly string[] }>,
): ConflictCandidate[] {
  const byKey = new Map<string, string[]>();
  for (const { clusterId, eventKeys } of clustersInCreationOrder) {
    for (const key of eventKeys) {
      const list = byKey.get(key);
      if (list === undefined) byKey.set(key, [clusterId]);
      else list.push(clusterId);
    }
  }
  return [...byKey.entries()]
    .filter(([, ids]) => ids.length > 1)
    .sort(([a], [b]) => compareCodePoints(a, b))
    .map(([event_key, cluster_ids]) => ({
      event_key,
      cluster_ids,
      reason: 'different_wording_or_quantities_requires_review' as const,
    }));
}
