// The source family a report declares: what the caller says, not a verified ownership or
// syndication relation (the response says so with `independence_verified: false`).
import { foldedUrlHost } from './hostname.js';
import type { NarrativeSource } from './types.js';

/**
 * `source.family` when given and non-empty; else the URL host (lower-cased, case-folded,
 * one leading `www.` removed) when the URL splits and has a host; else `source.id`.
 *
 * The steps run in the reference's order: whether there is a host is decided before
 * `www.` is removed, so a host that is only `www.` declares the family "" (it does not
 * fall back to the source id).
 */
export function declaredFamily(source: NarrativeSource): string {
  if (source.family !== undefined && source.family !== '') return source.family;
  if (source.url !== undefined) {
    const host = foldedUrlHost(source.url);
    if (host !== null) return host.startsWith('www.') ? host.slice(4) : host;
  }
  return source.id;
}
