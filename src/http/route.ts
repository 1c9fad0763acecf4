// Binding a handler to its contract. A group plugin calls `serveRoute` once per contract;
// the route's Fastify schema (validation and the OpenAPI operation, error answers
// included) is derived from the contract, and the handler's request is typed from the
// contract's TypeBox schemas through the TypeBox type provider.
import type {
  ContextConfigDefault,
  FastifyRequest,
  preValidationHookHandler,
  FastifyBaseLogger,
  FastifyInstance,
  FastifySchema,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
  RouteShorthandOptions,
} from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errorsOf, servedAt, type RouteContract } from './contract.js';
import type { AppDeps } from './deps.js';
import { errorBodySchema, type ErrorShape } from './error-schemas.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set on contract routes, so the shell can check every contract is served. */
    operationId?: string;
  }
}

/** Options every group plugin receives (one copy per mount). */
export interface GroupPluginOptions {
  deps: AppDeps;
  /** '' at the root, or the upstream prefix ('/noisefloor', …) this copy is mounted under. */
  mountedAt: string;
  /** Prefixed copies stay out of the OpenAPI document (same operations, other path). */
  hideFromDocs: boolean;
  /** The group's error body shape. */
  shape: ErrorShape;
}

/** The request schemas of a contract, as Fastify's type provider reads them. */
interface RequestSchemas<C extends RouteContract> extends FastifySchema {
  querystring: C['querystring'];
  params: C['params'];
  body: C['body'];
}

/** A handler whose `request.query`, `.params` and `.body` are typed from the contract. */
export type ContractHandler<C extends RouteContract> = RouteHandlerMethod<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  RouteGenericInterface,
  ContextConfigDefault,
  RequestSchemas<C>,
  TypeBoxTypeProvider,
  FastifyBaseLogger
>;

/** Route options a plugin may add to a contract (guards, a tighter body limit). */
export type RouteExtras = Pick<RouteShorthandOptions, 'onRequest' | 'preValidation' | 'bodyLimit'>;

// Operations that check their own body or query: Fastify must accept whatever parsed.
const acceptAll = () => () => true;

/** The statuses the HTTP parser answers with (src/http/edge.ts), and what it refuses with each. */
const PARSER_REFUSALS: Readonly<Record<number, string>> = {
  400: 'A request line, header line or framing that is not valid HTTP/1.1',
  408: 'A request whose headers or body do not arrive in time',
  431: 'A header section beyond 16 KiB',
};

/** The Fastify schema of a contract: request schemas and every documented answer. */
export function routeSchema(contract: RouteContract, shape: ErrorShape, hide: boolean): FastifySchema & Record<string, unknown> {
  const response: Record<string, unknown> = {};
  for (const [status, spec] of Object.entries(contract.success)) {
    response[status] = spec.content
      ? { description: spec.description, content: Object.fromEntries(Object.entries(spec.content).map(([type, schema]) => [type, { schema }])) }
      : { description: spec.description, type: 'null' };
  }
  for (const [status, defs] of errorsOf(contract)) {
    const codes = defs.map((d) => d.code);
    let schema = contract.errorBodies?.[status]?.(codes) ?? errorBodySchema(shape, codes);
    // What the HTTP parser refuses is refused before the path is read, so those answers come
    // in the neutral shape (both message keys); the shell's and the route's are the group's.
    const parserNote = shape === 'any' ? undefined : PARSER_REFUSALS[status];
    let note = '';
    if (parserNote !== undefined) {
      schema = Type.Union([schema, errorBodySchema('any', codes)]);
      note = `\n\n${parserNote} is refused by the HTTP parser before the path is known: that answer has the neutral shape (\`error\` and \`detail\`).`;
    }
    response[status] = {
      description: defs.map((d) => `\`${d.code}\`: ${d.meaning}`).join('\n\n') + note,
      content: { 'application/json': { schema } },
    };
  }
  const schema: FastifySchema & Record<string, unknown> = {
    operationId: contract.operationId,
    summary: contract.summary,
    tags: [...contract.tags],
    response,
    hide,
  };
  if (contract.description !== undefined) schema.description = contract.description;
  if (contract.querystring) schema.querystring = contract.querystring;
  if (contract.params) schema.params = contract.params;
  if (contract.body) schema.body = contract.body;
  return schema;
}

// Fastify's validator turns query text into an integer as JavaScript's Number() does, so
// `0x10`, `0b11`, `1e1`, `10.0` or a lone space (as 0) passed as integers. An integer
// parameter is written in decimal digits with an optional sign; any other text gets the
// refusal `abc` gets.
const DECIMAL_INTEGER = /^[+-]?[0-9]+$/;

/** The members of a contract's query schema that are integers. */
function integerQueryMembers(contract: RouteContract): string[] {
  if (!contract.querystring || contract.queryCheckedByOperation) return [];
  const members = (contract.querystring as { properties?: Record<string, { type?: unknown }> }).properties ?? {};
  return Object.entries(members).filter(([, schema]) => schema.type === 'integer').map(([name]) => name);
}

function notDecimalInteger(request: FastifyRequest, names: readonly string[]): Error | undefined {
  const query = request.query as Record<string, unknown>;
  const name = names.find((n) => typeof query[n] === 'string' && !DECIMAL_INTEGER.test(query[n]));
  if (name === undefined) return undefined;
  // Shaped as the framework's own validation failure, so it is answered exactly as `abc` is.
  return Object.assign(new Error(`querystring/${name} must be integer`), {
    statusCode: 400,
    validationContext: 'querystring',
    validation: [{ instancePath: `/${name}`, schemaPath: `#/properties/${name}/type`, keyword: 'type', params: { type: 'integer' }, message: 'must be integer' }],
  });
}

/** The route's own preValidation hooks, then the check of its integer query members as written. */
function withIntegerCheck(contract: RouteContract, extras: RouteExtras): RouteExtras {
  const names = integerQueryMembers(contract);
  if (names.length === 0) return extras;
  const check: preValidationHookHandler = (request, _reply, done) => done(notDecimalInteger(request, names));
  const own = extras.preValidation;
  return { ...extras, preValidation: own === undefined ? [check] : [...(Array.isArray(own) ? own : [own]), check] };
}

/** Registers `handler` as the implementation of `contract` in a group plugin. */
export function serveRoute<C extends RouteContract>(
  app: FastifyInstance,
  options: GroupPluginOptions,
  contract: C,
  handler: ContractHandler<C>,
  extras: RouteExtras = {},
): void {
  // At the root the path is another group's: the upstream prefix is its only home, and the
  // copy there is the documented one.
  if (!servedAt(contract, options.mountedAt)) return;
  app.route({
    method: contract.method,
    url: contract.url,
    schema: routeSchema(contract, options.shape, options.hideFromDocs && !contract.prefixOnly),
    ...(contract.bodyCheckedByOperation || contract.queryCheckedByOperation ? { validatorCompiler: acceptAll } : {}),
    ...withIntegerCheck(contract, extras),
    config: { operationId: contract.operationId },
    handler: handler as RouteHandlerMethod,
  });
}
