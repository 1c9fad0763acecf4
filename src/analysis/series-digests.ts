// The two digests that close market and spectral results: request_sha256 over the request
// as received (request-digest.ts) and policy_sha256 over the applied policy.
import { LoneSurrogateError, sha256OfDigestJson } from '../core/json.js';
import { seriesRequestSha256 } from './request-digest.js';
import { loneSurrogateError } from './validate.js';

export interface SeriesDigests {
  request_sha256: string;
  policy_sha256: string;
}

// An unpaired surrogate fails here, as the reference's UTF-8 encoding of the digested text
// does: after the schema and domain checks (the validator passes it for these tools).
function digest(request: unknown, compute: () => string): string {
  try {
    return compute();
  } catch (error) {
    if (!(error instanceof LoneSurrogateError)) throw error;
    throw loneSurrogateError(request, error);
  }
}

/** `body` followed by its two digests; `request` is the body as received. */
export function withSeriesDigests<B extends { policy: unknown }>(
  request: { series: unknown; as_of: unknown; policy?: unknown },
  body: B,
): B & SeriesDigests {
  return {
    ...body,
    request_sha256: digest(request, () => seriesRequestSha256(request)),
    policy_sha256: digest(request, () => sha256OfDigestJson(body.policy)),
  };
}
