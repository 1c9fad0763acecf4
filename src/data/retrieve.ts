// One retrieval attempt (upstream §1.1): only registry URLs, https (or an explicitly
// configured loopback http URL), JSON media types, the source's byte cap, strict JSON
// (duplicate keys, NaN/Infinity and literals that overflow a double such as 1e999 are
// refused), and an object or array at the root. The outcome is data, never an exception:
// a failure becomes a recorded retrieval and a placeholder row, not an HTTP error.

import { JsonSyntaxError, parseStrictJson } from '../core/json.js';
import { deadlineFor, SourceFetchError, type SourceFetch } from './fetch-source.js';
import type { SourceEntry, SourceRegistry } from './registry.js';

export type AttemptOutcome =
  | { ok: true; resolvedUrl: string; body: Uint8Array; document: unknown }
  | { ok: false; error: string };

const JSON_TYPE = /^(application\/json|application\/ld\+json|[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+\+json)$/;

/** `application/json`, `application/ld+json` or any `*\/*+json`, parameters ignored. */
export function isJsonMediaType(contentType: string | null): boolean {
  if (contentType === null) return false;
  const essence = contentType.split(';')[0].trim().toLowerCase();
  return JSON_TYPE.test(essence);
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

function schemeAllowed(url: string, mode: SourceRegistry['mode']): boolean {
  if (mode === 'sample') return url.startsWith('sample:');
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || (parsed.protocol === 'http:' && LOOPBACK.has(parsed.hostname));
  } catch {
    return false;
  }
}

const fail = (kind: string, message: string): AttemptOutcome => ({ ok: false, error: `${kind}: ${message}` });

export async function attemptRetrieval(entry: SourceEntry, registry: SourceRegistry, fetch: SourceFetch): Promise<AttemptOutcome> {
  if (!registry.allows(entry.url) || !schemeAllowed(entry.url, registry.mode)) {
    return fail('not_allowed', 'the source URL is not an allowed https source of this service');
  }
  let result;
  try {
    result = await fetch({
      url: entry.url,
      maxBytes: entry.maxBytes,
      timeoutMs: entry.timeoutMs,
      deadlineMs: deadlineFor(entry.timeoutMs),
    });
  } catch (error) {
    if (error instanceof SourceFetchError) return fail(error.kind, error.message);
    return fail('transport', 'the source could not be read');
  }
  if (result.url !== entry.url) return fail('redirect', 'the document came from another URL than the configured one');
  if (!isJsonMediaType(result.contentType)) return fail('content_type', 'the source did not label its body as JSON');
  if (result.body.byteLength > entry.maxBytes) return fail('too_large', `the document is larger than the ${entry.maxBytes} bytes accepted`);
  let document: unknown;
  try {
    // Python keeps an integer beyond the double range as an int: only that value is lost (upstream §8 item 3).
    document = parseStrictJson(result.body, { hugeIntegers: true });
  } catch (error) {
    if (error instanceof JsonSyntaxError) return fail('invalid_json', error.message.slice(0, 200));
    return fail('invalid_json', 'the body is not strict JSON');
  }
  if (typeof document !== 'object' || document === null) return fail('invalid_json', 'the document root is neither an object nor an array');
  return { ok: true, resolvedUrl: result.url, body: result.body, document };
}
