// Downloading publisher documents through the platform fetcher (src/platform/fetch.ts),
// with the capture's limits and User-Agent. Every failure becomes a
// PublisherUnavailableError naming the document, with the same reason tokens the capture
// has always recorded.

import { SERVICE_NAME, SERVICE_VERSION } from '../core/build-info.js';
import { fetchBytes, type FetchFailureReason, type UrlPolicy } from '../platform/fetch.js';
import { PublisherUnavailableError, type PublisherFetchFailure } from './errors.js';
import type { PublisherBases } from './publishers/catalogue.js';
import type { PublisherKey } from './publishers/types.js';

export const FETCH_LIMITS = Object.freeze({
  maxBytes: 2_000_000,
  /** Per socket phase: connect, response headers, gap between body chunks. */
  socketTimeoutMs: 20_000,
  /** Whole request, first byte sent to last byte read. */
  deadlineMs: 30_000,
});

export const USER_AGENT =
  `${SERVICE_NAME}/${SERVICE_VERSION} (funding evidence archive; retrieves each public document at most a few times per hour)`;

export interface FetchLimits {
  maxBytes: number;
  socketTimeoutMs: number;
  deadlineMs: number;
}

/** The origins of the configured publisher bases; http only where a base is configured so. */
export function publisherUrlPolicy(bases: PublisherBases): UrlPolicy {
  const urls = Object.values(bases).map((base) => new URL(base));
  return { allowedOrigins: urls.map((u) => u.origin), allowHttp: urls.some((u) => u.protocol === 'http:') };
}

/**
 * The URL's own origin. Publisher URLs are built from the configured bases only
 * (publisherUrl), so this admits exactly what the configuration names; callers that hold
 * the bases can pass publisherUrlPolicy(bases) instead.
 */
function policyOf(url: string): UrlPolicy {
  try {
    const parsed = new URL(url);
    return { allowedOrigins: [parsed.origin], allowHttp: parsed.protocol === 'http:' };
  } catch {
    return { allowedOrigins: [] };
  }
}

// Reason tokens recorded on capture attempts: refused URLs and media types never reach a
// publisher document, so they count as transport failures.
const REASONS: Readonly<Record<FetchFailureReason, PublisherFetchFailure>> = {
  url_refused: 'fetch_transport',
  transport: 'fetch_transport',
  timeout: 'fetch_timeout',
  redirect: 'fetch_redirect',
  http_status: 'fetch_http_status',
  content_encoding: 'fetch_encoding',
  content_type: 'fetch_transport',
  too_large: 'fetch_too_large',
};

/** Downloads one document; every failure is a PublisherUnavailableError naming the document. */
export async function downloadDocument(
  key: PublisherKey,
  url: string,
  limits: FetchLimits = FETCH_LIMITS,
  policy: UrlPolicy = policyOf(url),
): Promise<Uint8Array> {
  const outcome = await fetchBytes(url, {
    policy,
    maxBytes: limits.maxBytes,
    connectTimeoutMs: limits.socketTimeoutMs,
    readTimeoutMs: limits.socketTimeoutMs,
    deadlineMs: limits.deadlineMs,
    userAgent: USER_AGENT,
  });
  if (!outcome.ok) {
    throw new PublisherUnavailableError(key, REASONS[outcome.reason], outcome.detail, outcome.status === undefined ? {} : { httpStatus: outcome.status });
  }
  return outcome.body;
}
