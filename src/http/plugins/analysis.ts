// Group A over REST: the four analysis operations, their discovery document and, under the
// upstream prefix, the group's health routes.
//
// Request bodies are validated by src/analysis/validate.ts against the published schemas
// (the route schemas are there for the OpenAPI document; Fastify's own validator is
// switched off for them because its integer, string-length and error-order semantics
// differ). Results are encoded with Python's separators and number formatting so bodies
// are byte-compatible with the reference service.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import { AppError, isAppError } from '../../core/errors.js';
import { cloneJson, copyMember, encodePythonBody, LoneSurrogateError } from '../../core/json.js';
import { implementationSha256 } from '../../core/build-info.js';
import { AnalysisErrors } from '../../analysis/errors.js';
import { compileValidator, type Validator } from '../../analysis/validate.js';
import {
  DysonRequestSchema,
  MarketRequestSchema,
  NarrativeRequestSchema,
  SpectralRequestSchema,
  MAX_DYSON_DIMENSION,
  MAX_DYSON_STEPS,
  MAX_EVENTS,
  MAX_OBSERVATIONS_PER_SERIES,
  MAX_SERIES,
  MAX_SPECTRAL_WINDOWS,
  MAX_SPECTRAL_WINDOW_POINTS,
  MarketPolicySchema,
  NarrativePolicySchema,
  SpectralPolicySchema,
  type DysonRequestInput,
  type MarketRequestInput,
  type NarrativeRequestInput,
  type SpectralRequestInput,
} from '../../analysis/schemas/index.js';
import { assessMarket } from '../../analysis/market.js';
import { triageNarrative } from '../../analysis/narrative/triage.js';
import { assessSpectral } from '../../analysis/spectral.js';
import { dysonReference } from '../../analysis/dyson.js';
import type { GroupPluginOptions } from '../deps.js';
import { healthBody } from '../health.js';
import {
  AnalysisErrorResponse,
  CapabilitiesResponse,
  DysonResponse,
  MarketResponse,
  NarrativeResponse,
  SpectralResponse,
} from './analysis-responses.js';

export const ANALYSIS_PREFIX = '/noisefloor';

const CORS_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': 'Content-Type, Accept, Authorization, Mcp-Session-Id, MCP-Protocol-Version',
};

interface Tool {
  name: string;
  path: string;
  description: string;
  schema: object;
  /** Policy object schema whose `default`s the operation applies, or the request schema itself. */
  defaultsFrom: object;
  response: object;
  validator: Validator<unknown>;
  run(body: unknown): unknown;
}

function tool<T>(spec: Omit<Tool, 'validator' | 'run'> & { run(body: T): unknown }): Tool {
  return { ...spec, validator: compileValidator<T>(spec.schema), run: spec.run as (body: unknown) => unknown };
}

// Sorted by name, the order capabilities lists them in.
const TOOLS: readonly Tool[] = [
  tool<DysonRequestInput>({
    name: 'dyson_reference',
    path: '/v1/research/dyson',
    description:
      'Generate a seeded, synthetic real-symmetric matrix Brownian motion and report its ordered eigenvalue path, a reference picture of eigenvalue repulsion. It is simulated, not evidence about any market and not a covariance forecast.',
    schema: DysonRequestSchema,
    defaultsFrom: DysonRequestSchema,
    response: DysonResponse,
    run: (body) => dysonReference(body),
  }),
  tool<MarketRequestInput>({
    name: 'market_assessment',
    path: '/v1/market/assess',
    description:
      'Review caller-supplied market series at an explicit as-of clock: source, freshness and rights gates, robust moves, volatility, persistence and measurement coverage. The output describes what the data show; it is not a trading signal and carries no guarantee.',
    schema: MarketRequestSchema,
    defaultsFrom: MarketPolicySchema,
    response: MarketResponse,
    run: (body) => assessMarket(body),
  }),
  tool<NarrativeRequestInput>({
    name: 'narrative_triage',
    path: '/v1/narrative/triage',
    description:
      'Cluster caller-supplied headlines that repeat the same wording and order the clusters for human review. Titles are treated as untrusted text; repetition, novelty or source variety say nothing about whether a story is true.',
    schema: NarrativeRequestSchema,
    defaultsFrom: NarrativePolicySchema,
    response: NarrativeResponse,
    run: (body) => triageNarrative(body),
  }),
  tool<SpectralRequestInput>({
    name: 'spectral_assessment',
    path: '/v1/spectral/assess',
    description:
      'Align a panel of caller-supplied series and describe its correlation spectrum over rolling windows: eigenvalues, concentration, an idealised iid noise band and changes between windows. A research description only, with no significance test and no trading claim.',
    schema: SpectralRequestSchema,
    defaultsFrom: SpectralPolicySchema,
    response: SpectralResponse,
    run: (body) => assessSpectral(body, body),
  }),
];

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
export function capabilitiesBody(maxBodyBytes: number): Record<string, unknown> {
  const rest: Record<string, string> = {};
  for (const path of ['/v1/market/assess', '/v1/narrative/triage', '/v1/spectral/assess', '/v1/research/dyson']) {
    rest[path] = TOOLS.find((t) => t.path === path)!.name;
  }
  const defaults: Record<string, unknown> = {};
  for (const t of TOOLS) defaults[t.name] = defaultsOf(t.defaultsFrom);
  return {
    schema_version: 'noisefloor.capabilities.v1',
    name: 'noisefloor',
    version: '0.4.0',
    implementation_sha256: implementationSha256(),
    transports: ['rest'],
    tools: TOOLS.map((t) => ({ name: t.name, description: t.description, input_schema: cloneJson(t.schema) })),
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
    defaults,
  };
}

function sendJson(reply: FastifyReply, body: string): FastifyReply {
  // As bytes, so Fastify keeps the reference's bare `application/json` (it appends a
  // charset to JSON strings).
  return reply.code(200).header('content-type', 'application/json').send(Buffer.from(body, 'utf8'));
}

/**
 * Runs an operation on a validated body and encodes its result. A non-finite number in a
 * result is the caller's scale problem, not an internal failure; an unpaired surrogate is
 * caught by validation first, but is mapped here too should a digest ever meet one.
 */
function runEncoded(t: Tool, body: unknown): string {
  try {
    return encodePythonBody(t.run(body));
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

// Routes whose body we validate ourselves: accept everything at Fastify's layer, and pass
// the pre-encoded response string through untouched.
const acceptAll = () => () => true;
const passThrough = () => (data: unknown) => (typeof data === 'string' ? data : JSON.stringify(data));

export const analysisPlugin: FastifyPluginAsync<GroupPluginOptions> = async (app, { deps, mountedAt, hideFromDocs }) => {
  // Every group A response, errors included, carries the reference's CORS and caching headers.
  app.addHook('onRequest', async (_request, reply) => {
    reply.headers(CORS_HEADERS);
    reply.header('cache-control', 'no-store');
  });

  const preflight = async (_request: FastifyRequest, reply: FastifyReply) => {
    reply.code(204).removeHeader('content-type');
    return reply.send();
  };
  const options = (url: string) => app.options(url, { schema: { hide: true } }, preflight);

  const errors = {
    400: { ...AnalysisErrorResponse, description: 'The body is not strict JSON (syntax, duplicate keys, NaN/Infinity, bad UTF-8) or is empty.' },
    413: { ...AnalysisErrorResponse, description: 'The body is larger than the configured limit.' },
    415: { ...AnalysisErrorResponse, description: 'The body is not sent as application/json.' },
    422: { ...AnalysisErrorResponse, description: 'The request breaks the input schema (code invalid_input) or a domain rule.' },
  };

  for (const t of TOOLS) {
    const schema: FastifySchema & Record<string, unknown> = {
      operationId: t.name,
      summary: t.description,
      tags: ['analysis'],
      body: t.schema,
      response: { 200: { ...t.response, description: (t.response as { description?: string }).description ?? 'The result' }, ...errors },
      hide: hideFromDocs,
    };
    app.post(
      t.path,
      { schema, validatorCompiler: acceptAll, serializerCompiler: passThrough },
      async (request, reply) => {
        const origin = request.headers['x-forwarded-for'] === undefined ? 'direct' : 'edge';
        let body: string;
        try {
          t.validator.assert(request.body);
          body = runEncoded(t, request.body);
        } catch (error) {
          // Only the tool name and outcome are logged: never a submitted value.
          request.log.info({ tool: t.name, outcome: 'error', surface: 'rest', origin, code: isAppError(error) ? error.code : 'internal_error' }, 'tool activation');
          throw error;
        }
        request.log.info({ tool: t.name, outcome: 'success', surface: 'rest', origin }, 'tool activation');
        return sendJson(reply, body);
      },
    );
    options(t.path);
  }

  app.get(
    '/v1/capabilities',
    {
      schema: {
        operationId: 'capabilities',
        summary: 'What this analysis service offers: operations with their input schemas, limits, defaults and posture',
        tags: ['analysis'],
        response: { 200: { description: 'The capabilities document', ...CapabilitiesResponse } },
        hide: hideFromDocs,
      },
      serializerCompiler: passThrough,
    },
    async (_request, reply) => sendJson(reply, encodePythonBody(capabilitiesBody(deps.config.bodyLimit))),
  );
  options('/v1/capabilities');

  if (mountedAt !== '') {
    // The root copies of these are the shell's; the reference also answered them under
    // its prefix.
    const health = { schema: { hide: true }, serializerCompiler: passThrough };
    app.get('/healthz', health, async (_request, reply) => sendJson(reply, encodePythonBody(healthBody())));
    app.get('/health', health, async (_request, reply) => sendJson(reply, encodePythonBody(healthBody())));
    app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  }
  // Preflights for the discovery paths, at the root too (their GETs are the shell's).
  options('/healthz');
  options('/health');
  options('/openapi.json');
};

/** Root-mounted paths of this group (for the error body shape of unknown routes). */
export function analysisOwnsPath(path: string): boolean {
  return ['/v1/market', '/v1/narrative', '/v1/spectral', '/v1/research', '/v1/capabilities'].some(
    (prefix) => path === prefix || path.startsWith(prefix + '/'),
  );
}
