// Narrative cluster ids: "nf-" + the first 16 hex digits of SHA-256 over the canonical
// JSON of the sorted member ids (callers have rejected lone surrogates already).
import { sha256OfDigestJson } from '../../core/json.js';

export function clusterIdOf(sortedMemberIds: readonly string[]): string {
  return 'nf-' + sha256OfDigestJson(sortedMemberIds).slice(0, 16);
}
