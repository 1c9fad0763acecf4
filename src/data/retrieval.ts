// A retrieval: one attempt to fetch one source document, successful or not, as stored.
import type { SourceKey } from '../core/config.js';
import { formatInstantZ } from '../core/time.js';

export interface Retrieval {
  retrievalId: string;
  /** Store-wide order of retrievals (assigned under the blob lock). */
  seq: number;
  mode: string;
  sourceKey: SourceKey;
  sourceUrl: string;
  startedAtUs: number;
  retrievedAtUs: number;
  ok: boolean;
  resolvedUrl: string | null;
  bytes: number | null;
  /** Lowercase hex SHA-256 of the document bytes (ok retrievals). */
  contentSha256: string | null;
  /** `<kind>: <message>` for failed retrievals; never holds response bodies or addresses. */
  error: string | null;
}

/** `YYYY-MM-DDTHH:MM:SSZ`: retrieval clocks are published at second precision. */
export function secondsZ(us: number): string {
  const whole = BigInt(us) - (((BigInt(us) % 1_000_000n) + 1_000_000n) % 1_000_000n);
  return formatInstantZ(whole);
}

export function prefixedSha(hex: string | null): string | null {
  return hex === null ? null : `sha256:${hex}`;
}
