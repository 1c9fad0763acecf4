// The public source records of a query (upstream §1.1, §1.2): the retrieval facts, what
// the source reports about itself, and how old our copy is. Never the document itself.
import type { SourceKey } from '../core/config.js';
import { markFloat } from '../core/json.js';
import { CARRIER_STATE, FINANCIAL_AUTHORITY } from './constants.js';
import { fixedFacts } from './registry.js';
import { prefixedSha, secondsZ, type Retrieval } from './retrieval.js';
import type { CacheInfo, SourceRecord, SourceReported } from './schemas.js';

export type { CacheInfo, SourceRecord };

/** Age of our copy in seconds, 3 decimals (never negative when clocks disagree). */
export function cacheInfo(retrieval: Retrieval, nowUs: number, hit: boolean, ttlSeconds: number): CacheInfo {
  const age = Math.max(0, Math.round((nowUs - retrieval.retrievedAtUs) / 1000) / 1000);
  const info: CacheInfo = { hit, age_seconds: age, ttl_seconds: ttlSeconds };
  markFloat(info, 'age_seconds');
  return info;
}

export function sourceRecord(key: SourceKey, retrieval: Retrieval, reported: SourceReported | null, cache: CacheInfo): SourceRecord {
  const facts = fixedFacts(key);
  const head: Omit<SourceRecord, 'ok' | 'cache' | 'error' | 'resolved_url' | 'bytes' | 'content_sha256' | 'source_reported'> = {
    topic: facts.topic,
    product: facts.product,
    source_url: retrieval.sourceUrl,
    human_scope_url: facts.humanScopeUrl,
    financial_authority: FINANCIAL_AUTHORITY,
    carrier_state: CARRIER_STATE,
    retrieved_at: secondsZ(retrieval.retrievedAtUs),
    evidence_class: facts.evidenceClass,
  };
  if (retrieval.ok) {
    return {
      ...head,
      ok: true,
      resolved_url: retrieval.resolvedUrl!,
      bytes: retrieval.bytes!,
      content_sha256: prefixedSha(retrieval.contentSha256)!,
      source_reported: reported!,
      cache,
    };
  }
  return { ...head, ok: false, error: retrieval.error!, cache };
}
