// The HTTP shell: builds the Fastify application without listening, so tests drive it
// with `inject` and the CLI decides where it listens. Groups are plugins; the shell owns
// body parsing, error shapes, unknown routes, 405s, load shedding, docs and privacy.

import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import Fastify, { type FastifyError, type FastifyHttpOptions, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import underPressure from '@fastify/under-pressure';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { CoreErrors, AppError } from '../core/errors.js';
import { parseStrictJson } from '../core/json.js';
import { namespaceOf, servedAt } from './contract.js';
import type { AppDeps } from './deps.js';
import { groupErrorHandler, screenJsonBody, sendError, type ErrorShape } from './errors.js';
import { GROUPS, type GroupDefinition } from './groups.js';
import { MCP_MOUNTS, mcpPlugin, toolContextOf } from './plugins/mcp.js';
import { loggerOptions } from './logging.js';
import { originForm, routerPath } from './target.js';
import { createEdge, onlyRefuses, securityHeaders, type Edge } from './edge.js';
import { Revalidation } from './revalidation.js';
import { parseQueryString } from './query-string.js';
import { sendOpenApi } from './openapi-document.js';
import { SERVICE_VERSION } from '../core/build-info.js';
import { EvidenceRowSchema, QueryResultSchema } from '../data/schemas.js';

/** Content-Security-Policy of /docs and its Swagger UI files, all served from this origin. */
export const DOCS_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "script-src-attr 'none'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

// The upstreams' limit (funding-upstream §6: 414 above 1024 characters on any route)...
export const MAX_QUERY_LENGTH = 1024;
// ...except for group C, whose longest valid query does not fit it: `entity` and `bank` of
// 100 characters each, up to 12 encoded bytes per character (`%F0%9F%98%80`), beside its
// other parameters.
export const DATA_MAX_QUERY_LENGTH = 4096;
const DATA_PATH = /^(?:\/openbb)?\/api\/v1\//;

/** The longest query string a request to `path` may carry (slashes collapsed, as the router reads them). */
export function maxQueryLengthFor(path: string): number {
  return DATA_PATH.test(path.replace(/\/{2,}/g, '/')) ? DATA_MAX_QUERY_LENGTH : MAX_QUERY_LENGTH;
}
export const MAX_GUARDED_HEADER = 1024;

const CREDENTIAL_PARAMS = ['token', 'api_key', 'apikey', 'access_token', 'key'];
// The same names in a raw query: without `%` or `+` a name reads exactly as written, so
// this scan decides without decoding (URLSearchParams runs only when something is encoded).
const CREDENTIAL_NAME = new RegExp(`(?:^|&)(${CREDENTIAL_PARAMS.join('|')})(?:[=&]|$)`, 'i');

/** The first query parameter whose name (decoded as URLSearchParams does, any case) is a credential name. */
export function credentialParamOf(query: string): string | undefined {
  // URLSearchParams drops one leading `?`.
  const text = query.startsWith('?') ? query.slice(1) : query;
  if (!/[%+]/.test(text)) return CREDENTIAL_NAME.exec(text)?.[1];
  for (const name of new URLSearchParams(query).keys()) if (CREDENTIAL_PARAMS.includes(name.toLowerCase())) return name;
  return undefined;
}

/** The guard refusal a request earns before any group sees it, if any. */
function guardRefusal(request: FastifyRequest): AppError | undefined {
  const raw = request.raw.url ?? '/';
  const q = raw.indexOf('?');
  if (q !== -1) {
    const query = raw.slice(q + 1);
    const limit = maxQueryLengthFor(raw.slice(0, q));
    if (query.length > limit) return new AppError(CoreErrors.query_too_long, `the query string is longer than ${limit} characters`);
    const name = credentialParamOf(query);
    if (name !== undefined) {
      return new AppError(CoreErrors.credentials_in_url, `credentials are never accepted in the URL (parameter ${name}); send them in the Authorization header`);
    }
  }
  for (const header of ['authorization', 'if-none-match']) {
    const value = request.headers[header];
    if (typeof value === 'string' && value.length > MAX_GUARDED_HEADER) {
      return new AppError(CoreErrors.header_too_large, `the ${header} header is longer than ${MAX_GUARDED_HEADER} characters`);
    }
  }
  return undefined;
}

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

const within = (path: string, base: string) => path === base || path.startsWith(base + '/');

/**
 * The group that owns a path: the one whose prefix, or whose operations' root namespace
 * (`/v1/funding` for `/v1/funding/latest`), holds it; undefined for paths no group owns.
 */
function ownerResolver(groups: readonly GroupDefinition[]): (path: string) => GroupDefinition | undefined {
  const namespaces = groups.flatMap((group) => group.routes.filter((route) => !route.prefixOnly && !route.rootOnly).map((route) => ({ namespace: namespaceOf(route.url), group })));
  return (path) => {
    for (const group of groups) if (group.prefix && within(path, group.prefix)) return group;
    for (const { namespace, group } of namespaces) if (within(path, namespace)) return group;
    return undefined;
  };
}

/**
 * Mounts one copy of a group and checks it against its contracts: every contract is
 * served at its path with its method, and nothing visible is served without one
 * (preflights and hidden aliases aside). A mismatch stops the build.
 */
async function mountGroup(app: FastifyInstance, group: GroupDefinition, mount: string, deps: AppDeps, sample: boolean): Promise<void> {
  await app.register(
    async (scope) => {
      scope.setErrorHandler(groupErrorHandler(group.shape, sample));
      const served = new Set<string>();
      scope.addHook('onRoute', (route) => {
        const methods = (Array.isArray(route.method) ? route.method : [route.method]).map(String);
        if (methods.every((m) => m === 'OPTIONS' || m === 'HEAD')) return;
        const operationId = route.config?.operationId;
        const contract = group.routes.find((c) => c.operationId === operationId);
        if (!contract) {
          if (route.schema?.hide === true) return;
          throw new Error(`${methods.join(',')} ${route.url} is served by group ${group.name} without a route contract`);
        }
        if (route.url !== mount + contract.url || !methods.includes(contract.method)) {
          throw new Error(`operation ${contract.operationId} is served as ${methods.join(',')} ${route.url}, not as its contract says`);
        }
        served.add(contract.operationId);
      });
      await scope.register(group.plugin, { deps, mountedAt: mount, hideFromDocs: mount !== '', shape: group.shape });
      const missing = group.routes.filter((c) => !served.has(c.operationId) && servedAt(c, mount)).map((c) => c.operationId);
      if (missing.length > 0) throw new Error(`group ${group.name} does not serve ${missing.join(', ')} under '${mount}'`);
    },
    { prefix: mount },
  );
}

/** A schema as a named component: plain JSON, without the `$id` its inline copies carry. */
function componentOf(schema: object): Record<string, unknown> {
  return JSON.parse(JSON.stringify(schema, (key, value: unknown) => (key === '$id' ? undefined : value))) as Record<string, unknown>;
}

/**
 * What the load shedder measured, in words. A loop so busy that no delay sample completed
 * in an interval is reported by the sampler as a non-finite delay, which says nothing as a
 * number.
 */
export function pressureText(type: string, value: unknown): string {
  if (type === 'eventLoopDelay') {
    return typeof value === 'number' && Number.isFinite(value) ? `event loop delay ${Math.round(value)} ms` : 'event loop busy for a whole sampling interval';
  }
  return typeof value === 'number' && Number.isFinite(value) ? `${type} ${Math.round(value)}` : type;
}

/** Puts the revalidation answers in front of Fastify's request listener (app.inject() does not pass here). */
function answerRevalidationsFirst(server: Server, revalidation: Revalidation, edge: Edge): void {
  const routed = server.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[];
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    // Past its connection's pipelining limit a request is neither run nor answered: it does
    // not reach the router (src/http/pipelining.ts).
    if (edge.dropped(req)) return;
    // A Host the instance does not answer for is refused by the router's hooks, never revalidated here.
    if (edge.answersHost(req) && revalidation.tryAnswer(req, res)) return;
    for (const listener of routed) listener.call(server, req, res);
  });
}

export interface BuildOptions {
  /** The groups to serve; every group by default (tests pass their own). */
  groups?: readonly GroupDefinition[];
}

export async function buildApp(deps: AppDeps, build: BuildOptions = {}): Promise<FastifyInstance> {
  const groups = build.groups ?? GROUPS;
  const { config } = deps;
  const edge = createEdge(config);
  const options: FastifyHttpOptions<Server> = {
    ...edge.serverOptions,
    logger: deps.logger ?? loggerOptions(config.logLevel),
    bodyLimit: config.bodyLimit,
    // No parameter is matched by a pattern, so a long one costs only its length: the route, not the
    // router, judges it (a 300-character packet id is 400 invalid_packet_id, not an unrouted 404).
    // Query strings as the upstreams' framework reads them (query-string.ts).
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength: 16 * 1024, querystringParser: parseQueryString },
    disableRequestLogging: false,
    requestIdHeader: false,
    trustProxy: false,
    exposeHeadRoutes: true,
    // An absolute-form target (`GET http://host/healthz`) is routed as its origin form.
    rewriteUrl: (raw) => originForm(raw.url ?? '/'),
  };
  const sample = config.mode === 'sample';
  const ownerOf = ownerResolver(groups);
  const shapeForPath = (path: string): ErrorShape => ownerOf(path)?.shape ?? 'any';
  // The analysis upstream ends the connection after each of its refusals but 422 (its
  // "+ close": 400, 404, 405, 413, 415), so body bytes it did not read are never taken for a
  // next request; its paths here, its /mcp included, do the same.
  const closesAfterRefusal = (url: string | undefined, status: number): boolean => {
    if (status < 400 || status >= 500 || status === 422) return false;
    const path = routerPath(url);
    return path === '/mcp' || ownerOf(path)?.name === 'analysis';
  };
  /** The headers of the group a shell answer is for (its owner's, or a group naming the path). */
  const setGroupHeaders = (reply: FastifyReply, path: string) => {
    const owner = ownerOf(path);
    const group = owner?.answerHeaders ? owner : groups.find((candidate) => candidate.headerPaths?.has(path));
    group?.answerHeaders?.(reply);
  };
  // A path that is not valid percent-encoding never reaches a route; it still gets a registry body.
  const refuseBadUrl = (request: FastifyRequest, reply: FastifyReply, error?: FastifyError) => {
    edge.prepare(request.raw, reply);
    const failure = error === undefined || error.code === 'FST_ERR_BAD_URL' ? new AppError(CoreErrors.malformed_url, 'the request path is not valid percent-encoded UTF-8') : error;
    // Answered outside the hooks, so the edge's onSend never sees it: close here.
    if (closesAfterRefusal(request.raw.url, CoreErrors.malformed_url.status)) edge.closeAfterAnswer(request.raw, reply);
    return sendError(reply, shapeForPath(routerPath(request.raw.url)), failure, sample);
  };
  options.frameworkErrors = (error, request, reply) => {
    void refuseBadUrl(request, reply, error);
  };
  const app = Fastify(options).withTypeProvider<TypeBoxTypeProvider>();
  // First of all hooks: security headers on every answer, guards refusals included.
  edge.install(app, (request, reply) => closesAfterRefusal(request.raw.url, reply.statusCode));
  let pressured = (): boolean => false;
  const revalidation = new Revalidation({
    security: securityHeaders(config),
    log: app.log,
    refusing: () => edge.isClosing() || pressured(),
  });
  app.decorate('revalidation', revalidation);
  // Objects are sent as JSON.stringify writes them: a response schema documents and is
  // checked by the contract test, but never strips, reorders or coerces a body. Group A
  // and B bodies are pre-encoded bytes and are not serialised at all.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));

  // Strict JSON for every group: duplicate keys, NaN and friends are refused, and number
  // kinds survive for digests. Parsed from the raw bytes so invalid UTF-8 is caught.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const bytes = body as Buffer;
    const screened = screenJsonBody(request, bytes.length);
    if (screened !== 'read') {
      done(screened === 'skip' ? null : screened, undefined);
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
    if (onlyRefuses(route)) return;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) known.push({ method: String(method).toUpperCase(), pattern: routePattern(route.url) });
  });

  // Guards that hold for every route, before any group sees the request. A callback hook
  // (an async one costs every request a promise turn), except that a request announcing a
  // body goes on one microtask later: when its framing is broken, Node's parser reports
  // that in the same read, and the framing refusal must win over what routing would say.
  app.addHook('onRequest', (request, _reply, done) => {
    const refusal = guardRefusal(request);
    const headers = request.headers;
    if (refusal === undefined && headers['transfer-encoding'] === undefined && headers['content-length'] === undefined) done();
    else queueMicrotask(() => done(refusal));
  });

  app.setErrorHandler((error, request, reply) => sendError(reply, shapeForPath(routerPath(request.url)), error, sample));

  const answerNotFound = (request: FastifyRequest, reply: FastifyReply) => {
    const path = routerPath(request.raw.url);
    const shape = shapeForPath(path);
    setGroupHeaders(reply, path);
    const allowed = [...new Set(known.filter((r) => r.pattern.test(path)).map((r) => r.method))];
    if (allowed.length > 0 && !allowed.includes(request.method)) {
      const allow = (allowed.includes('GET') && !allowed.includes('HEAD') ? [...allowed, 'HEAD'] : allowed).sort();
      const refusal = new AppError(CoreErrors.method_not_allowed, `this path accepts ${allow.join(', ')}`, { headers: { allow: allow.join(', ') } });
      return sendError(reply, shape, refusal, sample);
    }
    return sendError(reply, shape, new AppError(CoreErrors.route_not_found, 'route not found'), sample);
  };
  app.setNotFoundHandler((request, reply) => {
    // For a method no route has, the main router gives up before decoding the path, and
    // Fastify's 404 router meets the undecodable path instead: it calls this handler at
    // once, skipping every hook (no security headers, no guards). That is the only way
    // here without the edge's headers; answer it as the main router's bad URL above.
    if (!edge.prepared(reply)) return refuseBadUrl(request, reply);
    return answerNotFound(request, reply);
  });
  // A path or method nothing serves is answered before its body is read (nothing would
  // read it): the client is sent no `100 Continue` and its upload is not awaited. A body
  // declared over the limit keeps its 413, decided from the headers too.
  app.addHook('preParsing', (request, reply, payload, done) => {
    if (!request.is404 || Number(request.headers['content-length']) > request.routeOptions.bodyLimit) {
      done(null, payload);
      return;
    }
    void answerNotFound(request, reply);
  });

  if (config.maxEventLoopDelay > 0) {
    await app.register(underPressure, {
      maxEventLoopDelay: config.maxEventLoopDelay,
      retryAfter: 1,
      sampleInterval: Math.max(20, Math.min(500, Math.floor(config.maxEventLoopDelay / 2))),
      exposeStatusRoute: false,
      pressureHandler: (request, reply, type, value) => {
        const overloaded = new AppError(CoreErrors.overloaded, `the service is saturated (${pressureText(type, value)}); retry shortly`, { headers: { 'retry-after': '1' } });
        const path = routerPath(request.url);
        // Shed before any plugin's hooks run: the headers of the group the path belongs to are set here.
        setGroupHeaders(reply, path);
        void sendError(reply, shapeForPath(path), overloaded, sample);
      },
    });
  }

  if (app.hasDecorator('isUnderPressure')) pressured = () => app.isUnderPressure();

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
      // The data API's two row types under their names, as the upstream's document lists them
      // (its acceptance case 27); operations keep their schemas inline.
      components: { schemas: { EvidenceRow: componentOf(EvidenceRowSchema), QueryResult: componentOf(QueryResultSchema) } },
    },
  });
  // The docs page gets the web page's protections: its own origin only, no framing (the
  // "Try it out" forms must not run inside another site), no referrer. Swagger UI sets
  // style attributes from script, hence 'unsafe-inline' for styles only.
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    uiConfig: { docExpansion: 'list', deepLinking: true },
    theme: { title: 'Evidence Desk API documentation' },
    staticCSP: DOCS_CSP,
    uiHooks: {
      onRequest: (_request, reply, done) => {
        reply.header('referrer-policy', 'no-referrer');
        reply.header('x-frame-options', 'DENY');
        done();
      },
    },
  });

  for (const group of groups) {
    for (const mount of new Set(['', group.prefix])) await mountGroup(app, group, mount, deps, sample);
  }
  // MCP serves every group's tools, so it sits beside the groups (JSON-RPC, not in OpenAPI).
  const tools = toolContextOf(deps);
  for (const mount of MCP_MOUNTS) await app.register(mcpPlugin, { prefix: mount, deps, tools });

  // Readable from any origin, as its preflight (answered by the analysis group) promises.
  app.get('/openapi.json', { schema: { hide: true } }, async (request, reply) => {
    setGroupHeaders(reply, '/openapi.json');
    return sendOpenApi(request, reply, () => app.swagger());
  });
  answerRevalidationsFirst(app.server, revalidation, edge);
  return app;
}
