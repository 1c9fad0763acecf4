// One MCP server definition for every transport (HTTP at /mcp, stdio): tools/list and
// tools/call over the tools of src/mcp/tools.ts, built on the SDK's low-level Server so
// results carry exactly the REST bodies. The SDK re-parses messages into new objects and
// would lose the int/float kind of number tokens, so tools/call takes its arguments from
// the strict parse the transport made of the same message (looked up by request id).
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema, ErrorCode, GetPromptRequestSchema, ListPromptsRequestSchema, ListResourcesRequestSchema, ListToolsRequestSchema,
  type CallToolResult, type RequestId, type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { SERVICE_VERSION } from '../core/build-info.js';
import { AppError, CoreErrors } from '../core/errors.js';
import { errorAnswer } from '../http/errors.js';
import { mcpPrompt, MCP_PROMPTS } from './prompts.js';
import { mcpTool, mcpTools, type McpTool, type McpToolContext } from './tools.js';
import { RpcRefusal } from './envelope.js';

const INSTRUCTIONS = [
  'Evidence Desk answers with descriptive statistics on numbers you send (the analysis tools), hash-verified USD funding-market evidence packets (funding_*) and provenance-preserving research datasets (data_*, with funding_review and agent_review over them).',
  'Every result is the body of the matching REST operation. None of it is a trading signal or a claim that a number is true; a tool that cannot answer says so with isError and a registry code.',
  'For a number that moved, use real_or_sampling (a rate with its sample size) or did_it_change (a series); their statistics are not e-values, so never feed them to which_metrics_matter, whose e-BH procedure takes e-values only. Use ab_test for the arms of an experiment.',
].join(' ');

/** Where tools/call finds the strictly parsed arguments of a request. */
export type StrictArguments = (id: RequestId) => { found: true; value: unknown } | { found: false };

/** A running service the tools are answered by instead of the embedded store (`mcp --base`). */
export interface RemoteTools {
  list(): Promise<Tool[]>;
  /** `requestId` is the agent's id for the call (the remote may forward the request as written). */
  call(name: string, args: unknown, requestId: RequestId): Promise<CallToolResult>;
}

export interface McpServerOptions {
  /** Tools only this transport offers (funding_update on stdio). */
  extraTools?: readonly McpTool[];
  remote?: RemoteTools;
  /** Told of a tool failure that is a fault of the service, not of the request (the caller gets internal_error). */
  onFault?: (error: unknown, tool: string) => void;
  /** Told of every tools/call, as REST logs its activations: the tool (`unknown` for a name no tool has) and outcome, never a value. */
  onActivation?: (activation: ToolActivation) => void;
}

export interface ToolActivation {
  tool: string;
  outcome: 'success' | 'error';
  /** The refusal's registry code, for an error. */
  code?: string;
}

/** The tools a server built with `options` lists, sorted by name. */
export function listedTools(options: McpServerOptions = {}): McpTool[] {
  return [...mcpTools(), ...(options.extraTools ?? [])].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

export function createMcpServer(ctx: McpToolContext, strictArguments: StrictArguments, options: McpServerOptions = {}): Server {
  const server = new Server(
    { name: 'evidence-desk', title: 'Evidence Desk', version: SERVICE_VERSION },
    // Resources: none are offered, but resources/list answers (with an empty list) as the analysis upstream's does.
    { capabilities: { tools: { listChanged: false }, prompts: { listChanged: false }, resources: {} }, instructions: INSTRUCTIONS },
  );
  const tools = listedTools(options);
  const extra = new Map((options.extraTools ?? []).map((t) => [t.name, t]));

  const describe = (tool: McpTool): Tool => ({
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: tool.inputSchema as { type: 'object' },
    outputSchema: { type: 'object' as const, additionalProperties: true },
    annotations: { title: tool.title, readOnlyHint: true, idempotentHint: true, destructiveHint: false, openWorldHint: false },
  });
  const remote = options.remote;

  server.setRequestHandler(ListToolsRequestSchema, async () => {
    if (remote === undefined) return { tools: tools.map(describe) };
    const listed = [...(await remote.list()), ...(options.extraTools ?? []).map(describe)];
    return { tools: listed.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)) };
  });

  server.setRequestHandler(CallToolRequestSchema, async (request, handlerExtra): Promise<CallToolResult> => {
    const { name } = request.params;
    const strict = strictArguments(handlerExtra.requestId);
    // Missing arguments are no arguments; `null` or another non-object is the tool's to refuse.
    const args = strict.found ? strict.value : (request.params.arguments ?? {});
    if (remote !== undefined && !extra.has(name)) return remote.call(name, args, handlerExtra.requestId);
    const tool = extra.get(name) ?? mcpTool(name);
    if (tool === undefined) {
      // Named `unknown`, as the reference logs a call of a tool it does not have.
      options.onActivation?.({ tool: 'unknown', outcome: 'error', code: 'unknown_tool' });
      throw new RpcRefusal(ErrorCode.InvalidParams, `unknown tool: there is no tool called ${JSON.stringify(name)}`);
    }
    const result = await callTool(tool, args, ctx, options.onFault);
    const code = result.isError ? (result.structuredContent as { code?: unknown } | undefined)?.code : undefined;
    options.onActivation?.({ tool: tool.name, outcome: result.isError ? 'error' : 'success', ...(typeof code === 'string' ? { code } : {}) });
    return result;
  });

  server.setRequestHandler(ListPromptsRequestSchema, () => ({
    prompts: MCP_PROMPTS.map(({ name, title, description }) => ({ name, title, description })),
  }));
  server.setRequestHandler(GetPromptRequestSchema, (request) => {
    const prompt = mcpPrompt(request.params.name);
    if (prompt === undefined) throw new RpcRefusal(ErrorCode.InvalidParams, `unknown prompt: there is no prompt called ${JSON.stringify(request.params.name)}`);
    if (Object.keys(request.params.arguments ?? {}).length > 0) throw new RpcRefusal(ErrorCode.InvalidParams, `the prompt ${prompt.name} takes no arguments`);
    return { description: prompt.description, messages: [{ role: 'user' as const, content: { type: 'text' as const, text: prompt.text } }] };
  });
  server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: [] }));
  return server;
}

/**
 * Runs one tool: the REST body on success, the REST error body with isError otherwise.
 * Arguments that are not an object are the tool's refusal, as any other bad argument: the
 * analysis tools' validator words it as the upstream does (`input: expected object`).
 */
export async function callTool(tool: McpTool, args: unknown, ctx: McpToolContext, onFault?: (error: unknown, tool: string) => void): Promise<CallToolResult> {
  try {
    if (tool.shape !== 'analysis' && (args === null || typeof args !== 'object' || Array.isArray(args))) {
      throw new AppError(CoreErrors.invalid_request, 'tool arguments must be a JSON object', { path: '' });
    }
    const text = await tool.run(args as Record<string, unknown>, ctx);
    return { content: [{ type: 'text', text }], structuredContent: JSON.parse(text) as Record<string, unknown> };
  } catch (error) {
    if (error instanceof RpcRefusal) throw error;
    const answer = errorAnswer(tool.shape, error, ctx.config.mode === 'sample' && tool.shape !== 'analysis');
    if (answer.unexpected) onFault?.(error, tool.name);
    const body = answer.body;
    return { content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body, isError: true };
  }
}
