// The outbound fetch the data group depends on, as an interface, and a thin undici
// implementation of it. (The platform layer is getting one hardened fetcher for every
// area; when it lands, `undiciSourceFetch` is replaced by an adapter over it and nothing
// else here changes.)
//
// Rules enforced here: one GET, redirects never followed (a 3xx is a failure), only
// status 200, identity encoding, a byte cap checked against Content-Length and while the
// body streams, a socket-phase timeout (connect, headers, each gap between chunks — the
// upstream's rule) plus an overall deadline so a slow drip cannot hold a fetch slot
// forever. Failure messages name what went wrong, never a body, an address or a header.

import { Agent, request, type Dispatcher } from 'undici';
import { SERVICE_NAME, SERVICE_VERSION } from '../core/build-info.js';

export type FetchFailureKind = 'transport' | 'timeout' | 'http_status' | 'redirect' | 'too_large' | 'content_type' | 'encoding';

export class SourceFetchError extends Error {
  constructor(readonly kind: FetchFailureKind, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SourceFetchError';
  }
}

export interface SourceFetchRequest {
  url: string;
  maxBytes: number;
  /** Socket-phase timeout. */
  timeoutMs: number;
  /** Whole request. */
  deadlineMs: number;
  /** Refuse before reading the body when the declared media type is not acceptable. */
  acceptsContentType(contentType: string | null): boolean;
}

export interface SourceFetchResult {
  /** The URL the bytes came from (equal to the request URL: redirects are not followed). */
  url: string;
  contentType: string | null;
  body: Uint8Array;
}

/** Throws SourceFetchError for every failure it recognises. */
export type SourceFetch = (request: SourceFetchRequest) => Promise<SourceFetchResult>;

export const SOURCE_USER_AGENT = `${SERVICE_NAME}/${SERVICE_VERSION} (research data tables; each public document is read at most about once a minute)`;

/** Deadline for a whole fetch: the socket timeout bounds each phase, this the sum. */
export function deadlineFor(timeoutMs: number): number {
  return timeoutMs * 3;
}

let sharedAgent: Agent | undefined;

function agent(): Dispatcher {
  sharedAgent ??= new Agent({ connect: { timeout: 10_000 }, keepAliveTimeout: 4_000 });
  return sharedAgent;
}

function isTimeout(error: unknown): boolean {
  const code = (error as { code?: string })?.code ?? '';
  const name = (error as { name?: string })?.name ?? '';
  return name === 'TimeoutError' || name === 'AbortError' || /TIMEOUT/.test(code);
}

function describe(error: unknown): string {
  const e = error as { code?: string; name?: string };
  return String(e?.code ?? e?.name ?? 'error').replace(/[^A-Za-z0-9_]/g, '').slice(0, 40) || 'error';
}

function discard(body: Dispatcher.ResponseData['body']): void {
  body.on('error', () => undefined);
  body.destroy();
}

export const undiciSourceFetch: SourceFetch = async (req) => {
  const signal = AbortSignal.timeout(req.deadlineMs);
  let response: Dispatcher.ResponseData;
  try {
    response = await request(req.url, {
      method: 'GET',
      dispatcher: agent(),
      signal,
      headersTimeout: req.timeoutMs,
      bodyTimeout: req.timeoutMs,
      headers: { 'user-agent': SOURCE_USER_AGENT, accept: 'application/json', 'accept-encoding': 'identity' },
    });
  } catch (error) {
    if (isTimeout(error)) throw new SourceFetchError('timeout', `no answer within ${req.timeoutMs / 1000} s`, { cause: error });
    throw new SourceFetchError('transport', `the source could not be reached (${describe(error)})`, { cause: error });
  }
  const { statusCode, headers, body } = response;
  if (statusCode >= 300 && statusCode < 400) {
    discard(body);
    throw new SourceFetchError('redirect', `the source answered ${statusCode}; redirects are not followed`);
  }
  if (statusCode !== 200) {
    discard(body);
    throw new SourceFetchError('http_status', `the source answered HTTP ${statusCode}`);
  }
  const encoding = headers['content-encoding'];
  if (encoding !== undefined && String(encoding).trim().toLowerCase() !== 'identity') {
    discard(body);
    throw new SourceFetchError('encoding', 'the source sent an encoded body although identity was requested');
  }
  const rawType = headers['content-type'];
  const contentType = rawType === undefined ? null : String(Array.isArray(rawType) ? rawType[0] : rawType);
  if (!req.acceptsContentType(contentType)) {
    discard(body);
    throw new SourceFetchError('content_type', `the source sent ${contentType === null ? 'no media type' : JSON.stringify(contentType.slice(0, 80))}, not JSON`);
  }
  const declared = Number(headers['content-length']);
  if (Number.isFinite(declared) && declared > req.maxBytes) {
    discard(body);
    throw new SourceFetchError('too_large', `the source announced ${declared} bytes, more than the ${req.maxBytes} accepted`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      size += (chunk as Buffer).length;
      if (size > req.maxBytes) {
        discard(body);
        throw new SourceFetchError('too_large', `the source sent more than the ${req.maxBytes} bytes accepted`);
      }
      chunks.push(chunk as Buffer);
    }
  } catch (error) {
    if (error instanceof SourceFetchError) throw error;
    if (isTimeout(error)) throw new SourceFetchError('timeout', `the body did not arrive within the time allowed`, { cause: error });
    throw new SourceFetchError('transport', `the body could not be read (${describe(error)})`, { cause: error });
  }
  return { url: req.url, contentType, body: new Uint8Array(Buffer.concat(chunks, size)) };
};
