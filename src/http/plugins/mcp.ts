// MCP over Streamable HTTP, stateless: POST /mcp (and under the upstream prefixes) runs a
// fresh SDK server and transport per request, in JSON response mode. The body is read
// raw and parsed strictly here (src/mcp/envelope.ts) so parse errors answer JSON-RPC
// -32700 and each member of a batch stands alone; the shell's body limit and load
// shedding apply as on every route. Sessions are not used: GET and DELETE answer 405.
//
// The MCP SDK (and the schema library it validates messages with) is loaded on the first
// POST /mcp, not at start: it is tens of MiB resident that a service nobody asks over MCP
// never needs.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { RequestId } from '@modelcontextprotocol/sdk/types.js';
import { AppError, CoreErrors } from '../../core/errors.js';
import type { RpcErrorReply, Screened } from '../../mcp/envelope.js';
import type { McpToolContext } from '../../mcp/tools.js';
import { dataContextFor } from '../data-context.js';
import type { AppDeps } from '../deps.js';
import { requireRawBody } from '../errors.js';
import { activationOrigin, ANALYSIS_PREFIX, setAnalysisHeaders } from './analysis.js';

/** Where /mcp is served: the root and the upstream prefixes whose services had one. */
export const MCP_MOUNTS = ['', '/noisefloor', '/openbb'] as const;

const CORS_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'POST, OPTIONS',
  'access-control-allow-headers': 'Content-Type, Accept, Authorization, Mcp-Session-Id, MCP-Protocol-Version',
  'access-control-max-age': '600',
};

/**
 * The tool context of one application: its store and clock, and the same group C service
 * the REST routes use (one single flight and document cache per application).
 */
export function toolContextOf(deps: AppDeps): McpToolContext {
  return { config: deps.config, storage: deps.storage, clock: deps.clock, data: () => dataContextFor(deps) };
}

/** The modules that need the SDK, loaded once on first use. */
type McpRuntime = typeof import('../../mcp/envelope.js') & typeof import('../../mcp/server.js') & typeof import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js');
let runtime: Promise<McpRuntime> | undefined;
function mcpRuntime(): Promise<McpRuntime> {
  runtime ??= Promise.all([
    import('../../mcp/envelope.js'),
    import('../../mcp/server.js'),
    import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'),
  ]).then(([envelope, server, transport]) => ({ ...envelope, ...server, ...transport }));
  return runtime;
}

export interface McpPluginOptions {
  deps: AppDeps;
  tools: McpToolContext;
}

export const mcpPlugin: FastifyPluginAsync<McpPluginOptions> = async (app, options) => {
  // The raw bytes: the strict parse happens in the handler so a syntax error is a JSON-RPC reply.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  // Where the analysis upstream had its /mcp (its root, and /noisefloor here), every answer
  // carries that service's headers (analysis upstream §2.3: GET, POST, OPTIONS and no-store).
  const analysisMount = app.prefix === '' || app.prefix === ANALYSIS_PREFIX;
  const corsHeaders = (reply: FastifyReply) => {
    for (const [name, value] of Object.entries(CORS_HEADERS)) reply.header(name, value);
    if (analysisMount) setAnalysisHeaders(reply);
    // A JSON-RPC answer is for its request alone.
    else reply.header('cache-control', 'no-store');
  };

  // Every answer of this endpoint, refusals made before a handler runs (413, 415) included,
  // is readable by the browser clients the headers admit.
  app.addHook('onRequest', (_request, reply, done) => {
    corsHeaders(reply);
    done();
  });

  app.post('/mcp', { schema: { hide: true } }, async (request, reply) => {
    const bytes = requireRawBody(request);
    const mcp = await mcpRuntime();
    const screened = mcp.screenBody(bytes);
    if (!screened.ok) return sendJson(reply, screened.status, screened.reply);
    const forwarded = screened.messages.flatMap((m) => (m.kind === 'message' ? [m] : []));
    const outcome: SdkOutcome = forwarded.length > 0 ? await runSdk(mcp, request, options.tools, forwarded, screened.batch) : { ok: true, replies: [] };
    if (!outcome.ok) return sendJson(reply, outcome.status, outcome.body);
    const replies = ordered(screened.messages, outcome.replies);
    if (replies.length === 0) return reply.code(202).send();
    const body = screened.batch ? `[${replies.map((r) => mcp.encodeReply(r)).join(', ')}]` : mcp.encodeReply(replies[0]);
    return reply.code(200).header('content-type', 'application/json').send(body);
  });

  // These two only refuse (with their own Allow), so a 405 for another method does not list them.
  app.get('/mcp', { schema: { hide: true }, config: { onlyRefuses: true } }, async () => {
    throw new AppError(CoreErrors.method_not_allowed, 'POST required: this MCP endpoint is stateless and opens no event stream', { headers: { allow: 'OPTIONS, POST' } });
  });
  app.delete('/mcp', { schema: { hide: true }, config: { onlyRefuses: true } }, async () => {
    throw new AppError(CoreErrors.method_not_allowed, 'sessions are not used, so there is none to end', { headers: { allow: 'OPTIONS, POST' } });
  });
  // Routed here rather than left to the shell's 405, so they pass this plugin's CORS hook
  // too; refused at the request's start, so a body they carry is never parsed (a 415 must not
  // win over the 405).
  const postOnly = () => new AppError(CoreErrors.method_not_allowed, 'this MCP endpoint takes POST only', { headers: { allow: 'OPTIONS, POST' } });
  app.route({
    method: ['PUT', 'PATCH'],
    url: '/mcp',
    schema: { hide: true },
    config: { onlyRefuses: true },
    onRequest: (_request, _reply, done) => done(postOnly()),
    handler: async () => {
      throw postOnly();
    },
  });
  // A known path of the analysis upstream: its OPTIONS answer (§2.1).
  app.options('/mcp', { schema: { hide: true } }, async (_request, reply) => {
    return reply.code(204).header('content-length', '0').send();
  });
};

function sendJson(reply: FastifyReply, status: number, body: unknown): FastifyReply {
  return reply.code(status).header('content-type', 'application/json').send(JSON.stringify(body));
}

type SdkOutcome = { ok: true; replies: { id?: RequestId }[] } | { ok: false; status: number; body: unknown };

/** Hands the screened messages to a fresh stateless SDK server and collects its replies. */
async function runSdk(mcp: McpRuntime, request: FastifyRequest, tools: McpToolContext, messages: Extract<Screened, { kind: 'message' }>[], batch: boolean): Promise<SdkOutcome> {
  const byId = new Map<RequestId, unknown>();
  for (const m of messages) {
    const strict = mcp.strictArgumentsOf(m.strict);
    if ('id' in m.message && m.message.id !== undefined && strict.found) byId.set(m.message.id, strict.value);
  }
  const server = mcp.createMcpServer(tools, (id) => (byId.has(id) ? { found: true, value: byId.get(id) } : { found: false }), {
    onFault: (error, tool) => request.log.error({ err: error, tool }, 'unexpected failure in an MCP tool'),
    // The reference logs MCP calls over HTTP as activations of its public surface.
    onActivation: (activation) => request.log.info({ ...activation, surface: 'public', origin: activationOrigin(request) }, 'tool activation'),
  });
  const transport = new mcp.WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    const headers = new Headers({ accept: 'application/json, text/event-stream', 'content-type': 'application/json' });
    const version = request.headers['mcp-protocol-version'];
    if (typeof version === 'string') headers.set('mcp-protocol-version', version);
    const webRequest = new Request(`http://mcp.local${request.url}`, { method: 'POST', headers });
    const parsedBody = batch ? messages.map((m) => m.message) : messages[0].message;
    const response = await transport.handleRequest(webRequest, { parsedBody });
    const text = await response.text();
    if (response.status === 202) return { ok: true, replies: [] };
    const body: unknown = text === '' ? null : JSON.parse(text);
    if (response.status !== 200) return { ok: false, status: response.status, body };
    return { ok: true, replies: (Array.isArray(body) ? body : [body]) as { id?: RequestId }[] };
  } finally {
    await server.close();
  }
}

/** The replies in the order of the messages they answer (error replies where they arose). */
function ordered(messages: readonly Screened[], sdkReplies: readonly { id?: RequestId }[]): unknown[] {
  const byId = new Map(sdkReplies.map((r) => [r.id, r]));
  const out: unknown[] = [];
  for (const m of messages) {
    if (m.kind === 'reply') out.push(m.reply satisfies RpcErrorReply);
    else if (m.kind === 'message' && 'id' in m.message && 'method' in m.message) {
      const r = byId.get(m.message.id);
      if (r !== undefined) out.push(r);
    }
  }
  return out;
}
