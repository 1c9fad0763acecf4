// JSON logs that are safe to ship: no request bodies, no headers (so no Authorization or
// cookies), and URLs without their query string and without path segments shaped like a
// credential (where a careless client may put a key).
import type { FastifyServerOptions } from 'fastify';
import type { LogLevel } from '../core/config.js';

export function pathOnly(url: string | undefined): string {
  if (!url) return '/';
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

export const REDACTED_SEGMENT = '[redacted]';

// An application key (`fe_` + base64url), or a long run of base64url characters that looks
// random: one holding a digit (`sk_live_…`, hex in any case, UUIDs, JWT parts), or a longer
// one mixing upper- and lowercase. Route words are lowercase letters and short. Only this
// service's own identifiers stay readable, whole segments of exactly their shape: lowercase
// hex (snapshot ids, digests) and packet ids.
const KEY_SHAPED = /(?:^|[^A-Za-z0-9_-])fe_[A-Za-z0-9_-]{8,}/;
const OWN_ID = /^(?:[0-9a-f]+|\d{8}T\d{6}\.\d{6}Z-[0-9a-f]{32})$/;
const RUN = /[A-Za-z0-9_-]{16,}/g;
const MIXED_CASE_RUN = 24;

function secretShaped(text: string): boolean {
  if (KEY_SHAPED.test(text)) return true;
  if (OWN_ID.test(text)) return false;
  for (const [run] of text.matchAll(RUN)) {
    if (/[0-9]/.test(run)) return true;
    if (run.length >= MIXED_CASE_RUN && /[a-z]/.test(run) && /[A-Z]/.test(run)) return true;
  }
  return false;
}

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The path of a request URL as it may be logged: no query, credential-shaped segments replaced. */
export function loggablePath(url: string | undefined): string {
  return pathOnly(url)
    .split('/')
    .map((segment) => (secretShaped(segment) || secretShaped(decoded(segment)) ? REDACTED_SEGMENT : segment))
    .join('/');
}

export function loggerOptions(level: LogLevel): FastifyServerOptions['logger'] {
  return {
    level,
    base: { service: 'evidence-desk' },
    redact: { paths: ['req.headers', 'headers.authorization', '*.authorization', '*.token', 'token'], remove: true },
    serializers: {
      req(request: { method?: string; url?: string; id?: string }) {
        return { method: request.method, url: loggablePath(request.url), id: request.id };
      },
      res(reply: { statusCode?: number }) {
        return { statusCode: reply.statusCode };
      },
    },
  };
}
