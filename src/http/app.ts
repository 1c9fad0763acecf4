// The HTTP shell: builds the Fastify application without listening, so tests drive it
// with `inject` and the CLI decides where it listens. Groups are plugins; the shell owns
// body parsing, error shapes, unknown routes, 405s, load shedding, docs and privacy.

import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import underPressure from '@fastify/under-pressure';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { CoreErrors, AppError } from '../core/errors.js';
import { parseStrictJson } from '../core/json.js';
import type { AppDeps } from './deps.js';
import { errorBody, groupErrorHandler, sendError, type ErrorShape } from './errors.js';
import { GROUPS } from './groups.js';
import { systemPlugin } from './plugins/system.js';
import { loggerOptions } from './logging.js';
import { SERVICE_VERSION } from '../core/build-info.js';

const CREDENTIAL_PARAMS = ['token', 'api_key', 'apikey', 'access_token', 'key'];
const MAX_QUERY_LENGTH = 1024;
const MAX_GUARDED_HEADER = 1024;

interface KnownRoute {
  method: string;
  pattern: RegExp;
}

function routePattern(url: string): RegExp {
  const escaped = url
    .split('/')
    .map((part) => (part.startsWith(':') ? '[^/]+' : part === '*' ? '.*' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${escaped}/?$`);
}

function shapeForPath(path: string): ErrorShape {
  for (const group of GROUPS) {
    if (group.prefix && (path === group.prefix || path.startsWith(group.prefix + '/'))) return group.shape;
    if (group.ownsPath?.(path)) return group.shape;
  }
  return 'any';
}

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config } = deps;
  const options: FastifyServerOptions = {
    logger: deps.logger ?? loggerOptions(config.logLevel),
    bodyLimit: config.bodyLimit,
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength: 256 },
    return503OnClosing: true,
    disableRequestLogging: false,
    requestIdHeader: false,
    trustProxy: false,
    exposeHeadRoutes: true,
  };
  const app = Fastify(options).withTypeProvider<TypeBoxTypeProvider>();

  // Strict JSON for every group: duplicate keys, NaN and friends are refused, and number
  // kinds survive for digests. Parsed from the raw bytes so invalid UTF-8 is caught.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => {
    const bytes = body as Buffer;
    if (bytes.length === 0) {
      done(new AppError(CoreErrors.empty_body, 'this operation needs a non-empty JSON request body'), undefined);
      return;
    }
    try {
      done(null, parseStrictJson(bytes));
    } catch (error) {
      done(error as Error, undefined);
    }
  });

  const known: KnownRoute[] = [];
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) known.push({ method: String(method).toUpperCase(), pattern: routePattern(route.url) });
  });

  // Guards that hold for every route, before any group sees the request.
  app.addHook('onRequest', async (request, reply) => {
    const raw = request.raw.url ?? '/';
    const q = raw.indexOf('?');
    if (q !== -1) {
      const query = raw.slice(q + 1);
      if (query.length > MAX_QUERY_LENGTH) throw new AppError(CoreErrors.query_too_long, 'the query string is longer than 1024 characters');
      const params = new URLSearchParams(query);
      for (const name of params.keys()) {
        if (CREDENTIAL_PARAMS.includes(name.toLowerCase())) {
          throw new AppError(CoreErrors.credentials_in_url, `credentials are never accepted in the URL (parameter ${name}); send them in the Authorization header`);
        }
      }
    }
    for (const header of ['authorization', 'if-none-match']) {
      const value = request.headers[header];
      if (typeof value === 'string' && value.length > MAX_GUARDED_HEADER) {
        throw new AppError(CoreErrors.header_too_large, `the ${header} header is longer than 1024 characters`);
      }
    }
    if (config.mode === 'sample') reply.header('x-evidence-mode', 'sample');
    reply.header('x-content-type-options', 'nosniff');
  });

  const sample = config.mode === 'sample';
  app.setErrorHandler((error, request, reply) => sendError(reply, shapeForPath(request.url.split('?')[0]), error, sample));

  app.setNotFoundHandler((request, reply) => {
    const path = (request.raw.url ?? '/').split('?')[0];
    const shape = shapeForPath(path);
    const allowed = [...new Set(known.filter((r) => r.pattern.test(path)).map((r) => r.method))];
    if (allowed.length > 0 && !allowed.includes(request.method)) {
      const allow = allowed.includes('GET') && !allowed.includes('HEAD') ? [...allowed, 'HEAD'] : allowed;
      reply.header('allow', allow.sort().join(', '));
      return reply
        .code(405)
        .header('content-type', 'application/json; charset=utf-8')
        .send(JSON.stringify(errorBody(shape, { code: CoreErrors.method_not_allowed.code, message: `this path accepts ${allow.join(', ')}` }, sample)));
    }
    return reply
      .code(404)
      .header('content-type', 'application/json; charset=utf-8')
      .send(JSON.stringify(errorBody(shape, { code: CoreErrors.route_not_found.code, message: 'route not found' }, sample)));
  });

  if (config.maxEventLoopDelay > 0) {
    await app.register(underPressure, {
      maxEventLoopDelay: config.maxEventLoopDelay,
      retryAfter: 1,
      sampleInterval: Math.max(20, Math.min(500, Math.floor(config.maxEventLoopDelay / 2))),
      exposeStatusRoute: false,
      pressureHandler: (request, reply, type, value) => {
        reply.header('retry-after', '1');
        reply
          .code(503)
          .header('content-type', 'application/json; charset=utf-8')
          .send(JSON.stringify(errorBody(shapeForPath(request.url), {
            code: CoreErrors.overloaded.code,
            message: `the service is saturated (${type} ${typeof value === 'number' ? Math.round(value) : value}); retry shortly`,
          }, sample)));
      },
    });
  }

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Evidence Desk',
        version: SERVICE_VERSION,
        description: [
          'Descriptive market analytics on your own data, hash-verified USD funding-market evidence packets, and provenance-preserving research datasets.',
          config.mode === 'sample'
            ? '**SAMPLE MODE**: this instance serves bundled, made-up publisher documents so every route has content offline. Nothing it returns is real market data.'
            : 'Live mode: funding evidence is captured from the original publishers.',
        ].join('\n\n'),
      },
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { docExpansion: 'list', deepLinking: true } });

  await app.register(systemPlugin, { deps });
  for (const group of GROUPS) {
    for (const mount of ['', group.prefix]) {
      await app.register(
        async (scope) => {
          scope.setErrorHandler(groupErrorHandler(group.shape, sample));
          await scope.register(group.plugin, { deps, mountedAt: mount, hideFromDocs: mount !== '' });
        },
        { prefix: mount },
      );
    }
  }

  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  return app;
}
