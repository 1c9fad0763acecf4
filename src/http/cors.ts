// Cross-origin reads for the groups browsers call directly (funding, data): each group lists
// what a preflight may ask for and what a response exposes, and registers the policy in its
// own plugin context so other groups' preflights are not answered for them.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, CoreErrors } from '../core/errors.js';
import { FundingReadErrors } from '../funding/read-errors.js';

/** The web origins allowed to read cross-origin (the upstream's list; OpenBB Workspace among them). */
export const CORS_ALLOWED_ORIGINS: readonly string[] = ['https://beepboop2025.github.io', 'https://pro.openbb.co', 'https://my.openbb.co'];

export interface CorsPolicy {
  /** Methods a preflight may ask for. */
  methods: readonly string[];
  /** The `Access-Control-Allow-Methods` value a granted preflight carries. */
  allowMethods: string;
  requestHeaders: readonly string[];
  /** The `Access-Control-Expose-Headers` value of every response to an allowed origin. */
  exposed: string;
  maxAgeSeconds: string;
  /** The status of a granted preflight (group C's upstream answers 200, as its framework does). */
  preflightStatus: 200 | 204;
}

export function allowedOrigin(request: FastifyRequest): string | undefined {
  const origin = request.headers.origin;
  return typeof origin === 'string' && CORS_ALLOWED_ORIGINS.includes(origin) ? origin : undefined;
}

type OptionsHandler = (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>;

/**
 * Adds the response headers to this context's routes and returns the OPTIONS handler of a
 * route serving `method`. Only a preflight (Origin and Access-Control-Request-Method) is a
 * CORS question; any other OPTIONS asks for an operation the path lacks, so it is answered
 * 405 with the path's methods, as the upstreams' framework does.
 */
export function useCors(app: FastifyInstance, policy: CorsPolicy): (route: { method: string }) => OptionsHandler {
  // A callback hook: an async one costs every request a promise and a microtask.
  app.addHook('onRequest', (request, reply, done) => {
    const origin = allowedOrigin(request);
    if (origin) {
      reply.header('access-control-allow-origin', origin);
      reply.header('access-control-expose-headers', policy.exposed);
    }
    done();
  });
  const allowedHeaders = policy.requestHeaders.map((h) => h.toLowerCase());
  return (route) => {
    const allow = route.method === 'GET' ? 'GET, HEAD' : route.method;
    return async (request, reply) => {
      const method = request.headers['access-control-request-method'];
      if (request.headers.origin === undefined || method === undefined) {
        throw new AppError(CoreErrors.method_not_allowed, `this path accepts ${allow} (OPTIONS is answered only as a CORS preflight)`, { headers: { allow } });
      }
      const origin = allowedOrigin(request);
      const asked = String(request.headers['access-control-request-headers'] ?? '')
        .split(',')
        .map((h) => h.trim().toLowerCase())
        .filter((h) => h !== '');
      reply.header('vary', 'Origin');
      if (!origin || typeof method !== 'string' || !policy.methods.includes(method) || !asked.every((h) => allowedHeaders.includes(h))) {
        throw new AppError(FundingReadErrors.cors_preflight_refused, 'this cross-origin request is not allowed (origin, method or headers)');
      }
      reply.header('access-control-allow-methods', policy.allowMethods);
      reply.header('access-control-allow-headers', policy.requestHeaders.join(', '));
      reply.header('access-control-max-age', policy.maxAgeSeconds);
      return reply.code(policy.preflightStatus).send();
    };
  };
}
