// The two digests that close market and spectral results: request_sha256 over the request
// as received (request-digest.ts) and policy_sha256 over the applied policy.
import { AppError } from '../core/errors.js';
import { LoneSurrogateError, sha256OfDigestJson } from '../core/json.js';
import { AnalysisErrors } from './errors.js';
import { seriesRequestSha256 } from './request-digest.js';

export interface SeriesDigests {
  request_sha256: string;
  policy_sha256: string;
}

/** Validation refuses unpaired surrogates first; this covers callers that skip it. */
function digest(compute: () => string): string {
  try {
    return compute();
  } catch (error) {
    if (!(error instanceof LoneSurrogateError)) throw error;
    throw new AppError(AnalysisErrors.lone_surrogate, 'a string in the request holds an unpaired UTF-16 surrogate, so it cannot be digested', {
      cause: error,
    });
  }
}

/** `body` followed by its two digests; `request` is the body as received. */
export function withSeriesDigests<B extends { policy: unknown }>(
  request: { series: unknown; as_of: unknown; policy?: unknown },
  body: B,
): B & SeriesDigests {
  return {
    ...body,
    request_sha256: digest(() => seriesRequestSha256(request)),
    policy_sha256: digest(() => sha256OfDigestJson(body.policy)),
  };
}
