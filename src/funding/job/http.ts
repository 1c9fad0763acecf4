// The job's HTTP layer: GET only, 20 s per request, no redirects, bodies capped at
// 256 KiB, and at most three attempts for transient answers (429, 502, 503, 504) and
// transport failures. Waits honour a numeric Retry-After (capped at 20 s), else 2 s then
// 4 s. An oversize body is never retried. Sleeping is injectable for tests.

import { request, type Dispatcher } from 'undici';
import { JobError } from './errors.js';

export const REQUEST_TIMEOUT_MS = 20_000;
export const RESPONSE_MAX_BYTES = 256 * 1024;
export const MAX_ATTEMPTS = 3;
const RETRY_STATUSES = new Set([429, 502, 503, 504]);
const FALLBACK_WAITS_MS = [2_000, 4_000];
const RETRY_AFTER_CAP_S = 20;

export interface HttpResult {
  status: number;
  headers: Record<string, string | undefined>;
  body: Buffer;
}

export interface JobHttpOptions {
  headers: Record<string, string>;
  sleep?: (ms: number) => Promise<void>;
  timeoutMs?: number;
  maxBytes?: number;
  dispatcher?: Dispatcher;
  /** Called before each retry wait (progress reporting). */
  onRetry?: (info: { url: string; attempt: number; waitMs: number; reason: string }) => void;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Milliseconds to wait for a numeric Retry-After (capped), or null when absent or not a number. */
export function retryAfterMs(value: string | undefined): number | null {
  if (value === undefined || !/^[0-9]+$/.test(value.trim())) return null;
  return Math.min(Number(value.trim()), RETRY_AFTER_CAP_S) * 1000;
}

function flatten(headers: Record<string, string | string[] | undefined>): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(headers)) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  return out;
}

export class JobHttp {
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly timeoutMs: number;
  private readonly maxBytes: number;

  constructor(private readonly options: JobHttpOptions) {
    this.sleep = options.sleep ?? defaultSleep;
    this.timeoutMs = options.timeoutMs ?? REQUEST_TIMEOUT_MS;
    this.maxBytes = options.maxBytes ?? RESPONSE_MAX_BYTES;
  }

  /** GET with retries; the result may carry any status (callers decide what they accept). */
  async get(url: string, extraHeaders: Record<string, string> = {}): Promise<HttpResult> {
    for (let attempt = 1; ; attempt++) {
      let result: HttpResult;
      try {
        result = await this.once(url, extraHeaders);
      } catch (error) {
        if (error instanceof JobError) throw error; // oversize: not retried
        if (attempt >= MAX_ATTEMPTS) {
          throw new JobError('transport', `GET ${url} failed after ${attempt} attempts: ${describe(error, this.timeoutMs)}`, { cause: error });
        }
        await this.wait(url, attempt, FALLBACK_WAITS_MS[attempt - 1], describe(error, this.timeoutMs));
        continue;
      }
      if (RETRY_STATUSES.has(result.status) && attempt < MAX_ATTEMPTS) {
        const wait = retryAfterMs(result.headers['retry-after']) ?? FALLBACK_WAITS_MS[attempt - 1];
        await this.wait(url, attempt, wait, `HTTP ${result.status}`);
        continue;
      }
      return result;
    }
  }

  private async wait(url: string, attempt: number, waitMs: number, reason: string): Promise<void> {
    this.options.onRetry?.({ url, attempt, waitMs, reason });
    await this.sleep(waitMs);
  }

  private async once(url: string, extraHeaders: Record<string, string>): Promise<HttpResult> {
    const signal = AbortSignal.timeout(this.timeoutMs);
    const response = await request(url, {
      method: 'GET',
      headers: { ...this.options.headers, ...extraHeaders, 'accept-encoding': 'identity' },
      headersTimeout: this.timeoutMs,
      bodyTimeout: this.timeoutMs,
      signal,
      dispatcher: this.options.dispatcher,
    });
    const headers = flatten(response.headers);
    const declared = headers['content-length'];
    if (declared !== undefined && /^[0-9]+$/.test(declared) && Number(declared) > this.maxBytes) {
      response.body.destroy();
      throw new JobError('response_too_large', `GET ${url}: the response declares ${declared} bytes, more than ${this.maxBytes}`);
    }
    const chunks: Buffer[] = [];
    let total = 0;
    for await (const chunk of response.body) {
      const buffer = chunk as Buffer;
      total += buffer.length;
      if (total > this.maxBytes) {
        response.body.destroy();
        throw new JobError('response_too_large', `GET ${url}: the response is larger than ${this.maxBytes} bytes`);
      }
      chunks.push(buffer);
    }
    return { status: response.statusCode, headers, body: Buffer.concat(chunks) };
  }
}

/** What went wrong, for the operator: a system or undici code, or that no answer came in time. */
function describe(error: unknown, timeoutMs: number): string {
  const e = error as { code?: unknown; name?: unknown };
  // The request's deadline aborts it with a DOMException whose `code` is a legacy number (23).
  // undici's own header deadline is the same one.
  if (e?.name === 'TimeoutError' || e?.code === 'UND_ERR_HEADERS_TIMEOUT') return `no answer within ${timeoutMs} ms`;
  if (e?.code === 'UND_ERR_BODY_TIMEOUT') return `the body stalled for ${timeoutMs} ms`;
  if (typeof e?.code === 'string') return e.code;
  if (typeof e?.name === 'string') return e.name;
  return String(error);
}
