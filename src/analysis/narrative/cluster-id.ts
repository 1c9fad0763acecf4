// Narrative cluster ids: "nf-" + the first 16 hex digits of SHA-256 over the canonical
// JSON of the sorted member ids.
import { sha256Hex } from '../../core/hash.js';

/**
 * Canonical JSON (`json.dumps(sort_keys=True, separators=(",", ":"), ensure_ascii=False)`)
 * of a list of strings. For well-formed strings JSON.stringify escapes exactly as Python
 * does (quotes, backslash, \b \f \n \r \t, other C0 controls as lowercase \u00xx; DEL and
 * U+2028/9 raw), and a list needs no key sorting. The general encoder (core/json) gives
 * the same text but sets up a 64 KiB buffer per call, which adds up over 500 clusters;
 * the tests compare the two. Callers must have rejected lone surrogates already.
 */
export function canonicalStringList(items: readonly string[]): string {
  return JSON.stringify(items);
}

export function clusterIdOf(sortedMemberIds: readonly string[]): string {
  return 'nf-' + sha256Hex(canonicalStringList(sortedMemberIds)).slice(0, 16);
}
