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

// An application key (`fe_` + base64url), or any long base64url run that mixes letters and
// digits: random secrets look like that. This service's own identifiers in paths (packet
// ids, digests) are built from lowercase hex, which is set aside first so they stay readable.
const KEY_SHAPED = /(?:^|[^A-Za-z0-9_-])fe_[A-Za-z0-9_-]{8,}/;
const OWN_HEX = /[0-9a-f]{16,}/g;
const LONG_RUN = /[A-Za-z0-9_-]{32,}/g;

function secretShaped(text: string): boolean {
  if (KEY_SHAPED.test(text)) return true;
  for (const [run] of text.replace(OWN_HEX, '.').matchAll(LONG_RUN)) {
    if (/[0-9]/.test(run) && /[A-Za-z]/.test(run) && !/^[0-9a-fA-F-]+$/.test(run)) return true;
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
