// The one way this service reads a document from another server. Every request names
// its own policy (which origins, which media types, how many bytes, how long), and every
// outcome is a value — a success with the exact bytes, or a failure with a reason token
// and a one-line detail — so callers (the funding capture, a source cache) can record,
// cache or map it without catching exceptions.
//
// What is enforced, before and while the body streams:
// - the URL's origin is on the request's allowlist, https only unless the policy allows
//   plain http (local test servers), no credentials in the URL;
// - one GET, no redirect followed (a moved document must be looked at, not followed);
// - status 200, identity encoding, an accepted media type when the caller lists some;
// - a byte cap checked against Content-Length and again on every chunk;
// - a connect timeout, a read timeout (response headers and every gap between body
//   chunks) and an overall deadline;
// - a User-Agent that says who we are.

import { Agent, request, type Dispatcher } from 'undici';
import { SERVICE_NAME, SERVICE_VERSION } from '../core/build-info.js';

export interface UrlPolicy {
  /** Origins (`https://host[:port]`) a request may go to; any other URL is refused unsent. */
  readonly allowedOrigins: readonly string[];
  /** Plain http is refused unless this is true (local servers in tests and demos). */
  readonly allowHttp?: boolean;
}

export interface FetchOptions {
  readonly policy: UrlPolicy;
  /**
   * Accepted media types: exact (`application/json`), structured-suffix (`*+json`) or
   * wildcard subtype (`text/*`). Absent: any media type is accepted.
   */
  readonly accept?: readonly string[];
  readonly maxBytes: number;
  readonly connectTimeoutMs: number;
  /** Longest wait for the response headers and between two body chunks. */
  readonly readTimeoutMs: number;
  /** Whole request, first byte sent to last byte read. */
  readonly deadlineMs: number;
  /** Defaults to DEFAULT_USER_AGENT. */
  readonly userAgent?: string;
}

export type FetchFailureReason =
  | 'url_refused'
  | 'transport'
  | 'timeout'
  | 'redirect'
  | 'http_status'
  | 'content_encoding'
  | 'content_type'
  | 'too_large';

export interface FetchSuccess {
  readonly ok: true;
  readonly url: string;
  /** The media type the server declared (lower case, without parameters), or null. */
  readonly mediaType: string | null;
  readonly body: Uint8Array;
}

export interface FetchFailure {
  readonly ok: false;
  readonly url: string;
  readonly reason: FetchFailureReason;
  /** One line for logs and attempt records; never a body or a credential. */
  readonly detail: string;
  /** The HTTP status, when the server answered. */
  readonly status?: number;
}

export type FetchOutcome = FetchSuccess | FetchFailure;

export const DEFAULT_USER_AGENT = `${SERVICE_NAME}/${SERVICE_VERSION}`;

// Agents are keyed by connect timeout (an agent-level setting); each keeps its sockets
// alive briefly so the documents of one capture share connections.
const agents = new Map<number, Agent>();

function agentFor(connectTimeoutMs: number): Dispatcher {
  let agent = agents.get(connectTimeoutMs);
  if (!agent) {
    agent = new Agent({ connect: { timeout: connectTimeoutMs }, keepAliveTimeout: 4_000 });
    agents.set(connectTimeoutMs, agent);
  }
  return agent;
}

/** Why `url` may not be requested under `policy`, or null when it may. */
export function refusal(url: string, policy: UrlPolicy): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'is not an absolute URL';
  }
  if (parsed.protocol !== 'https:' && !(parsed.protocol === 'http:' && policy.allowHttp === true)) {
    return `uses ${parsed.protocol.slice(0, -1)}, and only https is allowed`;
  }
  if (parsed.username !== '' || parsed.password !== '') return 'carries credentials';
  const allowed = policy.allowedOrigins.some((origin) => {
    try {
      return new URL(origin).origin === parsed.origin;
    } catch {
      return false;
    }
  });
  return allowed ? null : `is outside the allowed origins (${parsed.origin})`;
}

/** True when `mediaType` (lower case, no parameters) matches one of `accept`. */
export function mediaTypeAccepted(mediaType: string | null, accept: readonly string[]): boolean {
  if (mediaType === null) return false;
  const [type, subtype = ''] = mediaType.split('/');
  return accept.some((pattern) => {
    const p = pattern.toLowerCase();
    if (p.startsWith('*+')) return subtype.endsWith(p.slice(1));
    if (p.endsWith('/*')) return type === p.slice(0, -2);
    return p === mediaType;
  });
}

function isTimeout(error: unknown): boolean {
  const { code, name } = (error ?? {}) as { code?: unknown; name?: unknown };
  return name === 'TimeoutError' || name === 'AbortError' || (typeof code === 'string' && code.includes('TIMEOUT'));
}

function errorLabel(error: unknown): string {
  const { code, name } = (error ?? {}) as { code?: unknown; name?: unknown };
  const label = typeof code === 'string' ? code : typeof name === 'string' ? name : 'error';
  return label.slice(0, 60);
}

/** Stops reading a body we refuse; the abort this causes is expected, not an error to report. */
function discard(body: Dispatcher.ResponseData['body']): void {
  body.on('error', () => undefined);
  body.destroy();
}

/** One GET under `options`; never throws. */
export async function fetchBytes(url: string, options: FetchOptions): Promise<FetchOutcome> {
  const fail = (reason: FetchFailureReason, detail: string, status?: number): FetchFailure =>
    status === undefined ? { ok: false, url, reason, detail } : { ok: false, url, reason, detail, status };

  const refused = refusal(url, options.policy);
  if (refused !== null) return fail('url_refused', `the URL ${refused}; it was not requested`);

  let response: Dispatcher.ResponseData;
  try {
    response = await request(url, {
      method: 'GET',
      dispatcher: agentFor(options.connectTimeoutMs),
      signal: AbortSignal.timeout(options.deadlineMs),
      headersTimeout: options.readTimeoutMs,
      bodyTimeout: options.readTimeoutMs,
      headers: {
        'user-agent': options.userAgent ?? DEFAULT_USER_AGENT,
        'accept-encoding': 'identity',
        accept: options.accept ? options.accept.join(', ') : '*/*',
      },
    });
  } catch (error) {
    return isTimeout(error)
      ? fail('timeout', `timed out (${errorLabel(error)})`)
      : fail('transport', `could not be reached (${errorLabel(error)})`);
  }

  const { statusCode, headers, body } = response;
  if (statusCode >= 300 && statusCode < 400) {
    discard(body);
    return fail('redirect', `answered ${statusCode} (redirect to ${describeLocation(headers.location)}); redirects are not followed`, statusCode);
  }
  if (statusCode !== 200) {
    discard(body);
    return fail('http_status', `answered HTTP ${statusCode}`, statusCode);
  }
  const encoding = headers['content-encoding'];
  if (encoding !== undefined && String(encoding).trim().toLowerCase() !== 'identity') {
    discard(body);
    return fail('content_encoding', `sent a ${String(encoding)}-encoded body although identity was requested`, statusCode);
  }
  const declaredType = headers['content-type'];
  const mediaType = typeof declaredType === 'string' ? declaredType.split(';', 1)[0].trim().toLowerCase() : null;
  if (options.accept && !mediaTypeAccepted(mediaType, options.accept)) {
    discard(body);
    return fail('content_type', `sent ${mediaType ?? 'no media type'}, not one of ${options.accept.join(', ')}`, statusCode);
  }
  const declared = Number(headers['content-length']);
  if (Number.isFinite(declared) && declared > options.maxBytes) {
    discard(body);
    return fail('too_large', `announced ${declared} bytes, more than the ${options.maxBytes} accepted`, statusCode);
  }

  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > options.maxBytes) {
        discard(body);
        return fail('too_large', `sent more than the ${options.maxBytes} bytes accepted`, statusCode);
      }
      chunks.push(chunk);
    }
  } catch (error) {
    return fail(isTimeout(error) ? 'timeout' : 'transport', `body could not be read (${errorLabel(error)})`, statusCode);
  }
  return { ok: true, url, mediaType, body: new Uint8Array(Buffer.concat(chunks, size)) };
}

/** The redirect target, shortened and printable: an operator needs it to decide which URL to configure. */
function describeLocation(location: string | string[] | undefined): string {
  const text = Array.isArray(location) ? location[0] : location;
  if (text === undefined || text === '') return 'no Location';
  const printable = text.replace(/[^\x21-\x7e]/g, '?');
  return printable.length > 120 ? `${printable.slice(0, 120)}…` : printable;
}
