// What the usage measurement needs to know about a query answer (upstream §2.2): whether it
// carried published evidence, and a digest of that evidence for de-duplication. The digest
// covers the dataset, the (source_url, content_sha256) pairs and each row's entity, metric,
// as_of and value — not clocks or cache ages, so the same evidence read twice is one read.
import { encodeDigestJson } from '../core/json.js';
import { sha256Hex } from '../core/hash.js';
import { compareCodePoints } from '../core/strings.js';
import type { QueryResult } from './schemas.js';

const PUBLISHED = new Set(['published', 'available']);

/** Eligible: transport complete, rows present, not source_health, some published non-null value. */
export function measurementEligible(result: QueryResult): boolean {
  if (result.transport_status !== 'complete' || result.results.length === 0 || result.dataset === 'source_health') return false;
  return result.results.some((row) => row.value !== null && PUBLISHED.has(row.availability.toLowerCase()));
}

export function evidenceDigest(result: QueryResult): string {
  const sources = result.sources
    .map((s) => [s.source_url, s.ok ? s.content_sha256 : null] as const)
    .sort((a, b) => compareCodePoints(a[0], b[0]) || compareCodePoints(a[1] ?? '', b[1] ?? ''));
  const rows = result.results.map((r) => [r.entity_id, r.metric, r.as_of, r.value]);
  return sha256Hex(encodeDigestJson({ dataset: result.dataset, sources, rows }));
}
