// The source family a report declares: what the caller says, not a verified ownership or
// syndication relation (the response says so with `independence_verified: false`).
import { foldedUrlHost } from './hostname.js';
import type { NarrativeSource } from './types.js';

/**
 * `source.family` when given and non-empty; else the URL host (lower-cased, case-folded,
 * one leading `www.` removed) when the URL splits and has one and something is left;
 * else `source.id`.
 */
export function declaredFamily(source: NarrativeSource): string {
  if (source.family !== undefined && source.family !== '') return source.family;
  if (source.url !== undefined) {
    let host = foldedUrlHost(source.url);
    if (host !== null && host.startsWith('www.')) host = host.slice(4);
    // A host that was only `www.` leaves nothing to name a family with.
    if (host !== null && host !== '') return host;
  }
  return source.id;
}
