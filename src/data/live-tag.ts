// The validator of an answer that reports ages as of the moment it is made: the current
// snapshot's `cache` member per source (`hit`, `age_seconds`) and the funding review's
// `age_seconds`. Two such answers over the same stored content differ only in those
// members, so their bytes (and any strong tag) change every time; a weak tag over
// everything else lets a client revalidate (README §2: ETag and 304 on every GET) without
// claiming byte equality. If-None-Match compares weakly (RFC 9110 §13.1.2), so a 304
// means "what you hold still says the same"; its ages are those of when it was fetched.
import { sha256Hex } from '../core/hash.js';

/** `W/"<SHA-256>"` of the body's JSON text with every age-at-answer member left out. */
export function liveTagOf(body: unknown): string {
  const text = JSON.stringify(body, (key, value: unknown) => {
    if (key === 'age_seconds') return undefined;
    if (key === 'cache' && typeof value === 'object' && value !== null && !Array.isArray(value)) return undefined;
    return value;
  });
  return weakTag(sha256Hex(text ?? ''));
}

export function weakTag(hex: string): string {
  return `W/"${hex}"`;
}
