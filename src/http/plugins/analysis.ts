// Group A over REST: the four analysis operations, their discovery document and, under the
// upstream prefix, the group's health routes.
//
// Request bodies are validated by src/analysis/validate.ts against the published schemas
// (the contracts in src/http/routes/analysis.ts mark them bodyCheckedByOperation: Fastify's
// own validator differs in integer, string-length and error-order semantics). Results are
// encoded with Python's separators and number formatting so bodies are byte-compatible
// with the reference service.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, CoreErrors, isAppError } from '../../core/errors.js';
import { cloneJson, copyMember, encodePythonBody, JsonSyntaxError, LoneSurrogateError } from '../../core/json.js';
import { implementationSha256 } from '../../core/build-info.js';
import { AnalysisErrors } from '../../analysis/errors.js';
import { compileValidator, type Validator } from '../../analysis/validate.js';
import {
  MarketPolicySchema,
  NarrativePolicySchema,
  SpectralPolicySchema,
  MAX_DYSON_DIMENSION,
  MAX_DYSON_STEPS,
  MAX_EVENTS,
  MAX_OBSERVATIONS_PER_SERIES,
  MAX_SERIES,
  MAX_SPECTRAL_WINDOWS,
  MAX_SPECTRAL_WINDOW_POINTS,
  type DysonRequestInput,
  type MarketRequestInput,
  type NarrativeRequestInput,
  type SpectralRequestInput,
} from '../../analysis/schemas/index.js';
import type { Capabilities, ToolName } from '../../analysis/schemas/capabilities.js';
import { assessMarket } from '../../analysis/market.js';
import { triageNarrative } from '../../analysis/narrative/triage.js';
import { assessSpectral } from '../../analysis/spectral.js';
import { dysonReference } from '../../analysis/dyson.js';
import type { RouteContract } from '../contract.js';
import { createAnalysisRunner } from '../analysis/offload.js';
import { runJob } from '../analysis/job.js';
import { healthBody } from '../health.js';
import { serveRoute, type GroupPluginOptions } from '../route.js';
import { ANALYSIS_TOOLS, Capabilities as CapabilitiesRoute, DysonReference, MarketAssessment, NarrativeTriage, SpectralAssessment } from '../routes/analysis.js';

export const ANALYSIS_PREFIX = '/noisefloor';

const CORS_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': 'Content-Type, Accept, Authorization, Mcp-Session-Id, MCP-Protocol-Version',
};

interface Tool {
  contract: RouteContract & { body: object };
  /** Policy object schema whose `default`s the operation applies, or the request schema itself. */
  defaultsFrom: object;
  validator: Validator<unknown>;
  run(body: unknown): unknown;
}

function tool<T>(contract: Tool['contract'], defaultsFrom: object, run: (body: T) => unknown): Tool {
  return { contract, defaultsFrom, validator: compileValidator<T>(contract.body), run };
}

// In ANALYSIS_TOOLS order (sorted by name), the order capabilities lists them in.
export const TOOLS: readonly Tool[] = [
  tool<DysonRequestInput>(DysonReference, DysonReference.body, (body) => dysonReference(body)),
  tool<MarketRequestInput>(MarketAssessment, MarketPolicySchema, (body) => assessMarket(body)),
  tool<NarrativeRequestInput>(NarrativeTriage, NarrativePolicySchema, (body) => triageNarrative(body)),
  tool<SpectralRequestInput>(SpectralAssessment, SpectralPolicySchema, (body) => assessSpectral(body, body)),
];
if (TOOLS.some((t, i) => t.contract !== ANALYSIS_TOOLS[i])) throw new Error('analysis tools and their contracts are out of order');

/** The order the capabilities `rest` member lists the operations in (the upstream's). */
const REST_ORDER: readonly ToolName[] = ['market_assessment', 'narrative_triage', 'spectral_assessment', 'dyson_reference'];

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

/** The `default` of every member of a policy (or request) schema, keeping number kinds. */
function defaultsOf(schema: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const properties = (schema as { properties: Record<string, Record<string, unknown>> }).properties;
  for (const [name, member] of Object.entries(properties)) {
    if (member.default !== undefined) copyMember(out, name, member, 'default');
  }
  return out;
}

/** The discovery document. Built per call so a caller can never alter the next one. */
export function capabilitiesBody(maxBodyBytes: number): Capabilities {
  const rest: Record<string, ToolName> = {};
  for (const name of REST_ORDER) rest[TOOLS.find((t) => t.contract.operationId === name)!.contract.url] = name;
  const defaults: Record<string, unknown> = {};
  for (const t of TOOLS) defaults[t.contract.operationId] = defaultsOf(t.defaultsFrom);
  return {
    schema_version: 'noisefloor.capabilities.v1',
    name: 'noisefloor',
    version: '0.4.0',
    implementation_sha256: implementationSha256(),
    transports: ['rest'],
    tools: TOOLS.map((t) => ({ name: t.contract.operationId as ToolName, description: t.contract.summary, input_schema: cloneJson(t.contract.body) as Record<string, unknown> })),
    rest,
    openapi: '/openapi.json',
    limits: {
      max_body_bytes: maxBodyBytes,
      max_series: MAX_SERIES,
      max_observations_per_series: MAX_OBSERVATIONS_PER_SERIES,
      max_events: MAX_EVENTS,
      max_spectral_windows: MAX_SPECTRAL_WINDOWS,
      max_spectral_window_points: MAX_SPECTRAL_WINDOW_POINTS,
      max_dyson_dimension: MAX_DYSON_DIMENSION,
      max_dyson_steps: MAX_DYSON_STEPS,
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

/**
 * Runs an operation on a validated body and encodes its result. A non-finite number in a
 * result is the caller's scale problem, not an internal failure; an unpaired surrogate is
 * caught by validation first, but is mapped here too should a digest ever meet one.
 */
export function runEncoded<R = string>(t: Tool, body: unknown, encode: (result: unknown) => R = encodePythonBody as (result: unknown) => R): R {
  try {
    return encode(t.run(body));
  } catch (error) {
    if (error instanceof RangeError) {
      throw new AppError(AnalysisErrors.derived_statistic_overflow, 'a derived statistic is not a finite number; rescale the input units', { cause: error });
    }
    if (error instanceof LoneSurrogateError) {
      throw new AppError(AnalysisErrors.lone_surrogate, 'a string in the request holds an unpaired UTF-16 surrogate, which is not valid Unicode text', { cause: error });
    }
    throw error;
  }
}

export const analysisPlugin: FastifyPluginAsync<GroupPluginOptions> = async (app, options) => {
  const { deps, mountedAt } = options;
  // Every group A response, errors included, carries the reference's CORS and caching headers.
  app.addHook('onRequest', async (_request, reply) => {
    reply.headers(CORS_HEADERS);
    reply.header('cache-control', 'no-store');
  });

  const preflight = async (_request: FastifyRequest, reply: FastifyReply) => {
    reply.code(204).removeHeader('content-type');
    return reply.send();
  };
  const preflightAt = (url: string) => app.options(url, { schema: { hide: true } }, preflight);

  // Request bodies reach the handler as bytes: reading, validation, computation and
  // encoding run together on the worker pool (src/http/analysis/offload.ts).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, bytes, done) => {
    if ((bytes as Buffer).length === 0) done(new AppError(CoreErrors.empty_body, 'this operation needs a non-empty JSON request body'), undefined);
    else done(null, bytes);
  });
  const runner = createAnalysisRunner(deps.config, (job) => runJob(TOOLS, runEncoded, job));

  for (const t of TOOLS) {
    serveRoute(app, options, t.contract, async (request, reply) => {
      const origin = request.headers['x-forwarded-for'] === undefined ? 'direct' : 'edge';
      const name = t.contract.operationId;
      let body: Uint8Array;
      try {
        body = await runner.run(name, request.body as Buffer);
      } catch (error) {
        // A body that is not strict JSON is refused before the operation runs: no activation.
        if (error instanceof JsonSyntaxError) throw error;
        // Only the tool name and outcome are logged: never a submitted value.
        request.log.info({ tool: name, outcome: 'error', surface: 'rest', origin, code: isAppError(error) ? error.code : 'internal_error' }, 'tool activation');
        throw error;
      }
      request.log.info({ tool: name, outcome: 'success', surface: 'rest', origin }, 'tool activation');
      return sendJson(reply, body);
    });
    preflightAt(t.contract.url);
  }

  serveRoute(app, options, CapabilitiesRoute, async (_request, reply) => sendJson(reply, encodePythonBody(capabilitiesBody(deps.config.bodyLimit))));
  preflightAt(CapabilitiesRoute.url);

  if (mountedAt !== '') {
    // The root copies of these are the shell's; the reference also answered them under
    // its prefix. Aliases: hidden from the OpenAPI document.
    const health = { schema: { hide: true } };
    app.get('/healthz', health, async (_request, reply) => sendJson(reply, encodePythonBody(healthBody())));
    app.get('/health', health, async (_request, reply) => sendJson(reply, encodePythonBody(healthBody())));
    app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  }
  // Preflights for the discovery paths, at the root too (their GETs are the shell's).
  preflightAt('/healthz');
  preflightAt('/health');
  preflightAt('/openapi.json');
};
