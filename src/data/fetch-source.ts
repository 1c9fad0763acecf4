// How the data group reads a source document: the `SourceFetch` interface the cache
// depends on (sample mode implements it from bundled files), and its live implementation,
// an adapter over the platform fetcher (src/platform/fetch.ts: one GET, no redirects,
// identity encoding, byte cap on Content-Length and on every chunk, connect/read timeouts
// and an overall deadline). The adapter only translates the fetcher's outcome into the
// group's failure kinds and messages, which end up in public bodies: they name what went
// wrong, never a response body, an address or a header value.

import { SERVICE_NAME, SERVICE_VERSION } from '../core/build-info.js';
import { fetchBytes, type FetchFailure, type UrlPolicy } from '../platform/fetch.js';

export type FetchFailureKind = 'transport' | 'timeout' | 'http_status' | 'redirect' | 'too_large' | 'content_type' | 'encoding' | 'not_allowed';

export class SourceFetchError extends Error {
  constructor(readonly kind: FetchFailureKind, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SourceFetchError';
  }
}

export interface SourceFetchRequest {
  url: string;
  maxBytes: number;
  /** Socket-phase timeout (connect, response headers, each gap between body chunks). */
  timeoutMs: number;
  /** Whole request. */
  deadlineMs: number;
}

export interface SourceFetchResult {
  /** The URL the bytes came from (equal to the request URL: redirects are not followed). */
  url: string;
  /** The declared media type, without parameters; null when none was declared. */
  contentType: string | null;
  body: Uint8Array;
}

/** Throws SourceFetchError for every failure it recognises. */
export type SourceFetch = (request: SourceFetchRequest) => Promise<SourceFetchResult>;

export const SOURCE_USER_AGENT = `${SERVICE_NAME}/${SERVICE_VERSION} (research data tables; each public document is read at most about once a minute)`;

/** The media types a source document may be labelled with (upstream §1.1). */
export const JSON_MEDIA_TYPES: readonly string[] = ['application/json', 'application/ld+json', '*+json'];

/** Deadline for a whole fetch: the socket timeout bounds each phase, this the sum. */
export function deadlineFor(timeoutMs: number): number {
  return timeoutMs * 3;
}

/** The transport error label the fetcher put in parentheses (`ECONNREFUSED`), if any. */
function label(failure: FetchFailure): string {
  const match = /\(([A-Za-z0-9_]{1,60})\)$/.exec(failure.detail);
  return match ? match[1] : 'error';
}

function toError(failure: FetchFailure, request: SourceFetchRequest): SourceFetchError {
  const answered = failure.status !== undefined;
  switch (failure.reason) {
    case 'url_refused':
      return new SourceFetchError('not_allowed', 'the source URL is not an allowed https source of this service');
    case 'timeout':
      return answered
        ? new SourceFetchError('timeout', 'the body did not arrive within the time allowed')
        : new SourceFetchError('timeout', `no answer within ${request.timeoutMs / 1000} s`);
    case 'transport':
      return answered
        ? new SourceFetchError('transport', `the body could not be read (${label(failure)})`)
        : new SourceFetchError('transport', `the source could not be reached (${label(failure)})`);
    case 'redirect':
      return new SourceFetchError('redirect', `the source answered ${failure.status}; redirects are not followed`);
    case 'http_status':
      return new SourceFetchError('http_status', `the source answered HTTP ${failure.status}`);
    case 'content_encoding':
      return new SourceFetchError('encoding', 'the source sent an encoded body although identity was requested');
    case 'content_type':
      return new SourceFetchError('content_type', 'the source did not label its body as JSON');
    case 'too_large': {
      const announced = /^announced ([0-9]+) bytes/.exec(failure.detail);
      return announced
        ? new SourceFetchError('too_large', `the source announced ${announced[1]} bytes, more than the ${request.maxBytes} accepted`)
        : new SourceFetchError('too_large', `the source sent more than the ${request.maxBytes} bytes accepted`);
    }
  }
}

/** Live fetching through the platform fetcher, limited to `policy` (the registry's origins). */
export function platformSourceFetch(policy: UrlPolicy): SourceFetch {
  return async (request) => {
    const outcome = await fetchBytes(request.url, {
      policy,
      accept: JSON_MEDIA_TYPES,
      maxBytes: request.maxBytes,
      connectTimeoutMs: request.timeoutMs,
      readTimeoutMs: request.timeoutMs,
      deadlineMs: request.deadlineMs,
      userAgent: SOURCE_USER_AGENT,
    });
    if (!outcome.ok) throw toError(outcome, request);
    return { url: outcome.url, contentType: outcome.mediaType, body: outcome.body };
  };
}

/** The fetch policy of a set of source URLs: their origins; plain http only if one is http (loopback, checked by the configuration). */
export function sourcePolicy(urls: readonly string[]): UrlPolicy {
  const parsed = urls.flatMap((u) => {
    try {
      return [new URL(u)];
    } catch {
      return [];
    }
  });
  return {
    allowedOrigins: [...new Set(parsed.map((u) => u.origin))],
    allowHttp: parsed.some((u) => u.protocol === 'http:'),
  };
}
