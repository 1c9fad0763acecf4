// JSON logs that are safe to ship: no request bodies, no headers (so no Authorization or
// cookies), and URLs without their query string (where a careless client may put a key).
import type { FastifyServerOptions } from 'fastify';
import type { LogLevel } from '../core/config.js';

export function pathOnly(url: string | undefined): string {
  if (!url) return '/';
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

export function loggerOptions(level: LogLevel): FastifyServerOptions['logger'] {
  return {
    level,
    base: { service: 'evidence-desk' },
    redact: { paths: ['req.headers', 'headers.authorization', '*.authorization', '*.token', 'token'], remove: true },
    serializers: {
      req(request: { method?: string; url?: string; id?: string }) {
        return { method: request.method, url: pathOnly(request.url), id: request.id };
      },
      res(reply: { statusCode?: number }) {
        return { statusCode: reply.statusCode };
      },
    },
  };
}
