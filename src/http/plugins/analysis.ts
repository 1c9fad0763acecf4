// Group A over REST: the four analysis operations, the ten tools under /v1/tools/<name>,
// their discovery document and, under the upstream prefix, the group's health routes.
//
// Every tool route runs the dispatcher (the one behind MCP and the CLI too) on the analysis
// worker pool (src/http/analysis/offload.ts), from the raw body bytes:
// the published schemas checked with the upstream's messages and order (the contracts mark
// bodies bodyCheckedByOperation: Fastify's own validator differs in integer, string-length
// and error-order semantics), results encoded with Python's separators and number
// formatting so bodies are byte-compatible with the reference service.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { AppError, isAppError } from '../../core/errors.js';
import { encodePythonBody, JsonSyntaxError } from '../../core/json.js';
import { implementationSha256 } from '../../core/build-info.js';
import {
  MAX_DYSON_DIMENSION,
  MAX_DYSON_STEPS,
  MAX_EVENTS,
  MAX_OBSERVATIONS_PER_SERIES,
  MAX_SERIES,
  MAX_SPECTRAL_WINDOWS,
  MAX_SPECTRAL_WINDOW_POINTS,
} from '../../analysis/schemas/index.js';
import type { Capabilities, ToolName } from '../../analysis/schemas/capabilities.js';
import { analysisToolSpec, defaultsOf, toolListing, type AnalysisToolName } from '../../analysis/tools/catalogue.js';
import { ToolErrors } from '../../analysis/tools/errors.js';
import { MAX_RPC_BATCH } from '../../mcp/limits.js';
import type { RouteContract } from '../contract.js';
import { createAnalysisRunner, type AnalysisRunner } from '../analysis/offload.js';
import type { Reservation } from '../../platform/worker-pool.js';
import { runJob } from '../analysis/job.js';
import { receiveBody } from '../analysis/body.js';
import { releaseNow } from '../../platform/release.js';
import { requireRawBody, screenJsonBody } from '../errors.js';
import { serviceHealthBytes } from '../health.js';
import { releaseIdentity } from '../../data/release.js';
import { sendOpenApi } from '../openapi-document.js';
import { serveRoute, type GroupPluginOptions } from '../route.js';
import { ANALYSIS_TOOLS, Capabilities as CapabilitiesRoute, TOOL_ROUTE_ENTRIES } from '../routes/analysis.js';

export const ANALYSIS_PREFIX = '/noisefloor';

/** The reference's discovery paths that the service answers at its root too. */
export const ANALYSIS_DISCOVERY_PATHS: ReadonlySet<string> = new Set(['/healthz', '/health', '/openapi.json']);

const CORS_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': 'Content-Type, Accept, Authorization, Mcp-Session-Id, MCP-Protocol-Version',
};

/**
 * The reference's CORS and caching headers, which every response of its handler carries:
 * this group's own routes, and the answers given outside it for its paths (the root health
 * routes, a 404 or 405 under its namespaces).
 */
export function setAnalysisHeaders(reply: FastifyReply): void {
  reply.headers(CORS_HEADERS);
  reply.header('cache-control', 'no-store');
}

/** The order the capabilities `rest` member lists the operations in (the upstream's). */
const REST_ORDER: readonly ToolName[] = ['market_assessment', 'narrative_triage', 'spectral_assessment', 'dyson_reference'];

/** How the analysis tools can be reached, in the reference's order (it also had `python`). */
const TRANSPORTS: Capabilities['transports'] = ['cli', 'stdio', 'streamable-http', 'rest', 'mcp'];

const POSTURE = {
  offline_computation: true,
  fetches_sources: false,
  executes_trades: false,
  persists_submitted_data: false,
  market_assessment: 'descriptive',
  narrative_triage: 'review_priority_not_truth',
  spectral_assessment: 'research_descriptive',
  dyson_reference: 'synthetic_reference_not_market_evidence',
};

/** The discovery document. Built per call so a caller can never alter the next one. */
export function capabilitiesBody(maxBodyBytes: number): Capabilities {
  const rest: Record<string, ToolName> = {};
  for (const name of REST_ORDER) rest[analysisToolSpec(name)!.restPath!] = name;
  const defaults: Record<string, unknown> = {};
  for (const contract of ANALYSIS_TOOLS) defaults[contract.operationId] = defaultsOf(contract.operationId);
  return {
    schema_version: 'noisefloor.capabilities.v1',
    name: 'noisefloor',
    version: '0.4.0',
    implementation_sha256: implementationSha256(),
    transports: [...TRANSPORTS],
    tools: toolListing() as Capabilities['tools'],
    rest,
    openapi: '/openapi.json',
    limits: {
      max_body_bytes: maxBodyBytes,
      max_series: MAX_SERIES,
      max_observations_per_series: MAX_OBSERVATIONS_PER_SERIES,
      max_events: MAX_EVENTS,
      max_rpc_batch: MAX_RPC_BATCH,
      max_spectral_windows: MAX_SPECTRAL_WINDOWS,
      max_spectral_window_points: MAX_SPECTRAL_WINDOW_POINTS,
      max_dyson_dimension: MAX_DYSON_DIMENSION,
      max_dyson_steps: MAX_DYSON_STEPS,
      // No connection cap here; the member stays (we never drop one), saying so.
      max_http_connections_per_process: null,
    },
    posture: { ...POSTURE },
    // Each tool's defaults are read from its published schema (number kinds kept).
    defaults: defaults as Capabilities['defaults'],
  };
}

function sendJson(reply: FastifyReply, body: string | Uint8Array): FastifyReply {
  // As bytes, so Fastify keeps the reference's bare `application/json` (it appends a
  // charset to JSON strings).
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  return reply.code(200).header('content-type', 'application/json').send(bytes);
}

/** Whether a request came through a proxy (the reference's `origin` of an activation). */
export function activationOrigin(request: FastifyRequest): 'direct' | 'edge' {
  return request.headers['x-forwarded-for'] === undefined ? 'direct' : 'edge';
}

/** Runs a tool for a REST route and sends its body; one log line per activation, never a value. */
async function answerTool(runner: AnalysisRunner, request: FastifyRequest, reply: FastifyReply, name: string): Promise<FastifyReply> {
  const origin = activationOrigin(request);
  const tool = analysisToolSpec(name)?.name ?? 'unknown';
  let body: Uint8Array;
  try {
    body = await runner.run(name, requireRawBody(request), reserved.get(request));
  } catch (error) {
    // A body that is not strict JSON is refused before the tool runs: no activation.
    if (error instanceof JsonSyntaxError) throw error;
    request.log.info({ tool, outcome: 'error', surface: 'rest', origin, code: isAppError(error) ? error.code : 'internal_error' }, 'tool activation');
    throw error;
  }
  request.log.info({ tool, outcome: 'success', surface: 'rest', origin }, 'tool activation');
  return sendJson(reply, body);
}

/** The worker-pool room each request with a stated body length holds until it is answered. */
const reserved = new WeakMap<FastifyRequest, Reservation>();

/**
 * Reserves room on the pool for a POST body of stated length before a byte of it is read,
 * or refuses the request at once (503 `overloaded`): under overload the refused bodies are
 * never buffered, so memory stays bounded whatever the number of clients. The room goes
 * back when the answer is out or the connection ends, if the job did not take it.
 */
function reserveBodyRoom(runner: AnalysisRunner, request: FastifyRequest, reply: FastifyReply): void {
  if (request.method !== 'POST' || request.is404) return;
  const declared = Number(request.headers['content-length']);
  if (!Number.isInteger(declared) || declared <= 0 || declared > request.routeOptions.bodyLimit) return;
  const reservation = runner.reserve(declared);
  reserved.set(request, reservation);
  reply.raw.once('close', reservation.release);
}

/**
 * Reads a refused request's body to its end, freeing each chunk as it comes. Node would
 * drain it too (to keep the connection), but into chunks left for the collector: under
 * overload, clients retrying at once sent bodies faster than collections came (16 clients
 * posting maximum analyses piled up ~60 MiB of them). Reading it here also tells Node the
 * body is taken care of, so it keeps this listener instead of its own.
 */
function drainReleasing(request: FastifyRequest): void {
  request.raw.on('data', (chunk: Buffer) => releaseNow(chunk));
}

export const analysisPlugin: FastifyPluginAsync<GroupPluginOptions> = async (app, options) => {
  const { deps, mountedAt } = options;
  // Every group A response, errors included, carries the reference's CORS and caching headers.
  app.addHook('onRequest', (_request, reply, done) => {
    setAnalysisHeaders(reply);
    done();
  });

  // §2.1: 204, `Content-Length: 0`, no body and no Content-Type.
  const preflight = async (_request: FastifyRequest, reply: FastifyReply) => {
    reply.code(204).removeHeader('content-type').header('content-length', '0');
    return reply.send();
  };
  const preflightAt = (url: string) => app.options(url, { schema: { hide: true } }, preflight);

  // Request bodies reach the handler as bytes: reading, validation, computation and
  // encoding run together on the worker pool (src/http/analysis/offload.ts).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', (request, payload, done) => {
    receiveBody(request, payload, request.routeOptions.bodyLimit, (error, bytes) => {
      if (error) return done(error, undefined);
      const screened = screenJsonBody(request, bytes!.length);
      if (screened === 'read') done(null, bytes);
      else done(screened === 'skip' ? null : screened, undefined);
    });
  });
  const runner = createAnalysisRunner(deps.config, runJob);
  app.addHook('onRequest', (request, reply, done) => {
    try {
      reserveBodyRoom(runner, request, reply);
    } catch (error) {
      drainReleasing(request);
      done(error as Error);
      return;
    }
    done();
  });

  const operations: ReadonlyArray<[RouteContract, AnalysisToolName]> = [
    ...ANALYSIS_TOOLS.map((c): [RouteContract, AnalysisToolName] => [c, c.operationId]),
    ...TOOL_ROUTE_ENTRIES.map(({ contract, tool }): [RouteContract, AnalysisToolName] => [contract, tool]),
  ];
  for (const [contract, name] of operations) {
    serveRoute(app, options, contract, (request, reply) => answerTool(runner, request, reply, name));
    preflightAt(contract.url);
  }
  // Any other name under /v1/tools is a tool that does not exist (hidden: not an operation).
  // Refused at its headers: no body is read (or 100 Continue sent) for a tool nobody runs.
  const unknownTool: onRequestAsyncHookHandler = async (request) => {
    const { name } = request.params as { name: string };
    throw new AppError(ToolErrors.unknown_tool, `there is no analysis tool called ${JSON.stringify(name)}`);
  };
  // The hook always refuses: the handler is never reached.
  app.post('/v1/tools/:name', { schema: { hide: true }, onRequest: [unknownTool] }, async (_request, reply) => reply);

  serveRoute(app, options, CapabilitiesRoute, async (_request, reply) => sendJson(reply, encodePythonBody(capabilitiesBody(deps.config.bodyLimit))));
  preflightAt(CapabilitiesRoute.url);

  if (mountedAt !== '') {
    // The root copies of these are the shell's; the reference also answered them under
    // its prefix. Aliases: hidden from the OpenAPI document.
    const health = { schema: { hide: true } };
    // The same body as the root's (the upstream's /noisefloor/X is its /X), in the reference's encoding.
    const healthBytes = serviceHealthBytes(releaseIdentity(deps.config).release_id);
    app.get('/healthz', health, async (_request, reply) => sendJson(reply, healthBytes));
    app.get('/health', health, async (_request, reply) => sendJson(reply, healthBytes));
    app.get('/openapi.json', { schema: { hide: true } }, async (request, reply) => sendOpenApi(request, reply, () => app.swagger()));
  }
  // Preflights for the discovery paths, at the root too (their GETs are the shell's).
  for (const path of ANALYSIS_DISCOVERY_PATHS) preflightAt(path);
};
