// Downloading publisher documents: one GET per document through undici, with a
// connection/header/body timeout, an overall deadline, a byte cap enforced while the body
// streams, no redirects followed (a 3xx is a failure: a moved document must be looked at,
// not silently followed), identity encoding only, and a User-Agent that says who we are.

import { Agent, request, type Dispatcher } from 'undici';
import { SERVICE_NAME, SERVICE_VERSION } from '../core/build-info.js';
import { PublisherUnavailableError } from './errors.js';
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

let sharedAgent: Agent | undefined;

function agent(limits: FetchLimits): Dispatcher {
  if (limits === FETCH_LIMITS) {
    sharedAgent ??= new Agent({ connect: { timeout: FETCH_LIMITS.socketTimeoutMs }, keepAliveTimeout: 4_000 });
    return sharedAgent;
  }
  return new Agent({ connect: { timeout: limits.socketTimeoutMs }, keepAliveTimeout: 1 });
}

function isTimeout(error: unknown): boolean {
  const code = (error as { code?: string; name?: string })?.code;
  const name = (error as { name?: string })?.name;
  return name === 'TimeoutError' || name === 'AbortError' || /TIMEOUT/.test(code ?? '');
}

/** Downloads one document; every failure is a PublisherUnavailableError naming the document. */
export async function downloadDocument(key: PublisherKey, url: string, limits: FetchLimits = FETCH_LIMITS): Promise<Uint8Array> {
  const signal = AbortSignal.timeout(limits.deadlineMs);
  const dispatcher = agent(limits);
  let response: Dispatcher.ResponseData;
  try {
    response = await request(url, {
      method: 'GET',
      dispatcher,
      signal,
      headersTimeout: limits.socketTimeoutMs,
      bodyTimeout: limits.socketTimeoutMs,
      headers: { 'user-agent': USER_AGENT, 'accept-encoding': 'identity', accept: '*/*' },
    });
  } catch (error) {
    if (dispatcher !== sharedAgent) void dispatcher.close().catch(() => undefined);
    const reason = isTimeout(error) ? 'fetch_timeout' : 'fetch_transport';
    throw new PublisherUnavailableError(key, reason, `${reason === 'fetch_timeout' ? 'timed out' : 'could not be reached'} (${describeTransportError(error)})`, { cause: error });
  }
  try {
    const { statusCode, headers, body } = response;
    if (statusCode >= 300 && statusCode < 400) {
      discard(body);
      throw new PublisherUnavailableError(key, 'fetch_redirect', `answered ${statusCode} (redirect to ${describeLocation(headers.location)}); redirects are not followed`, { httpStatus: statusCode });
    }
    if (statusCode !== 200) {
      discard(body);
      throw new PublisherUnavailableError(key, 'fetch_http_status', `answered HTTP ${statusCode}`, { httpStatus: statusCode });
    }
    const encoding = headers['content-encoding'];
    if (encoding !== undefined && String(encoding).trim().toLowerCase() !== 'identity') {
      discard(body);
      throw new PublisherUnavailableError(key, 'fetch_encoding', `sent a ${String(encoding)}-encoded body although identity was requested`, { httpStatus: statusCode });
    }
    const declared = Number(headers['content-length']);
    if (Number.isFinite(declared) && declared > limits.maxBytes) {
      discard(body);
      throw new PublisherUnavailableError(key, 'fetch_too_large', `announced ${declared} bytes, more than the ${limits.maxBytes} accepted`, { httpStatus: statusCode });
    }
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of body) {
        size += (chunk as Buffer).length;
        if (size > limits.maxBytes) {
          discard(body);
          throw new PublisherUnavailableError(key, 'fetch_too_large', `sent more than the ${limits.maxBytes} bytes accepted`, { httpStatus: statusCode });
        }
        chunks.push(chunk as Buffer);
      }
    } catch (error) {
      if (error instanceof PublisherUnavailableError) throw error;
      const reason = isTimeout(error) ? 'fetch_timeout' : 'fetch_transport';
      throw new PublisherUnavailableError(key, reason, `body could not be read (${describeTransportError(error)})`, { cause: error, httpStatus: statusCode });
    }
    return new Uint8Array(Buffer.concat(chunks, size));
  } finally {
    if (dispatcher !== sharedAgent) void dispatcher.close().catch(() => undefined);
  }
}

/** Stops reading a body we refuse; the abort it causes is expected, not an error to report. */
function discard(body: Dispatcher.ResponseData['body']): void {
  body.on('error', () => undefined);
  body.destroy();
}

/** The redirect target, shortened: the operator needs it to decide which URL to configure. */
function describeLocation(location: string | string[] | undefined): string {
  const text = Array.isArray(location) ? location[0] : location;
  if (text === undefined || text === '') return 'no Location';
  const printable = text.replace(/[^\x21-\x7e]/g, '?');
  return printable.length > 120 ? `${printable.slice(0, 120)}…` : printable;
}

function describeTransportError(error: unknown): string {
  const e = error as { code?: string; name?: string; message?: string };
  const text = e?.code ?? e?.name ?? 'error';
  return String(text).slice(0, 60);
}
