// The JSON-RPC envelope checks the HTTP transport makes before the SDK sees a body: the
// strict parse (int/float kinds, duplicate keys, non-finite literals), the batch size,
// and per-message envelope rules, so one malformed member of a batch gets its own error
// reply and does not stop the rest (the SDK would refuse the whole batch).
import {
  CallToolRequestSchema, GetPromptRequestSchema, InitializeRequestSchema, JSONRPCMessageSchema, ListPromptsRequestSchema, ListResourcesRequestSchema,
  ListToolsRequestSchema, PingRequestSchema, type JSONRPCMessage, type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import { randomUUID } from 'node:crypto';
import { isFloatToken, parseStrictJson } from '../core/json.js';
import { stringifyKeepingSchemaFloats } from '../analysis/schemas/schema-floats.js';
// Read as REST reads analysis bodies, so a tool call answers what the REST operation does;
// the other tools refuse a non-finite number as any value of the wrong kind.
import { ANALYSIS_BODY } from '../analysis/validate.js';
import { MAX_RPC_BATCH } from './limits.js';

export interface RpcErrorReply {
  jsonrpc: '2.0';
  id: RequestId | null;
  error: { code: number; message: string };
}

/**
 * A JSON-RPC error a handler throws for the SDK to send as it is. The SDK's own McpError
 * writes its code into the message too ("MCP error -32602: ..."), which the reply's `code`
 * already says.
 */
export class RpcRefusal extends Error {
  constructor(readonly code: number, message: string) {
    super(message);
  }
}

export function rpcError(id: RequestId | null, code: number, message: string): RpcErrorReply {
  return { jsonrpc: '2.0', id, error: { code, message } };
}

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const INVALID_PARAMS = -32602;

/** One message of a body: either handed on to the SDK, or already answered here. */
export type Screened =
  | { kind: 'message'; message: JSONRPCMessage; strict: Record<string, unknown> }
  | { kind: 'reply'; reply: RpcErrorReply }
  /** A malformed notification: nothing is answered and nothing runs. */
  | { kind: 'dropped' };

export type ScreenedBody =
  | { ok: false; status: 400; reply: RpcErrorReply }
  | { ok: true; batch: boolean; messages: Screened[] };

/** Parses and screens one HTTP body (a message or a batch of them). */
export function screenBody(bytes: Uint8Array): ScreenedBody {
  let parsed: unknown;
  try {
    if (bytes.length === 0) throw new Error('empty body');
    parsed = parseStrictJson(bytes, ANALYSIS_BODY);
  } catch (error) {
    return { ok: false, status: 400, reply: rpcError(null, PARSE_ERROR, `parse error: ${(error as Error).message}`) };
  }
  if (Array.isArray(parsed)) {
    if (parsed.length === 0 || parsed.length > MAX_RPC_BATCH) {
      return { ok: false, status: 400, reply: rpcError(null, INVALID_REQUEST, `invalid batch size: a batch holds 1 to ${MAX_RPC_BATCH} messages`) };
    }
    const seen = new Set<RequestId>();
    return { ok: true, batch: true, messages: parsed.map((m) => screenMessage(m, seen)) };
  }
  return { ok: true, batch: false, messages: [screenMessage(parsed, new Set())] };
}

/** Envelope rules for one message; `seen` holds the request ids met earlier in the batch. */
export function screenMessage(value: unknown, seen: Set<RequestId>): Screened {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { kind: 'reply', reply: rpcError(null, INVALID_REQUEST, 'expected a JSON-RPC object') };
  }
  const m = value as Record<string, unknown>;
  const hasId = Object.hasOwn(m, 'id');
  const id = m.id;
  // A string or an integer token (§11): `1.0` is a float however whole its value.
  const idOk = !hasId || typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id) && !isFloatToken(m, 'id'));
  if (m.jsonrpc !== '2.0' || !idOk || (Object.hasOwn(m, 'method') && typeof m.method !== 'string')) {
    return { kind: 'reply', reply: rpcError(null, INVALID_REQUEST, 'invalid JSON-RPC envelope') };
  }
  const replyId = hasId ? (id as RequestId) : null;
  if (Object.hasOwn(m, 'method') && Object.hasOwn(m, 'params')) {
    const params = m.params;
    if (params === null || typeof params !== 'object' || Array.isArray(params)) {
      return hasId ? { kind: 'reply', reply: rpcError(replyId, INVALID_PARAMS, 'params must be an object') } : { kind: 'dropped' };
    }
  }
  const checked = JSONRPCMessageSchema.safeParse(value);
  if (!checked.success) {
    if (!hasId) return { kind: 'dropped' };
    // The envelope itself was checked above: in a request, what the schema refuses is in params (_meta, say).
    const reply = typeof m.method === 'string' ? rpcError(replyId, INVALID_PARAMS, describeIssue(m.method, checked.error.issues[0]))
      : rpcError(replyId, INVALID_REQUEST, 'invalid JSON-RPC message');
    return { kind: 'reply', reply };
  }
  if (hasId && Object.hasOwn(m, 'method')) {
    if (seen.has(id as RequestId)) return { kind: 'reply', reply: rpcError(replyId, INVALID_REQUEST, 'a batch must not repeat a request id') };
    seen.add(id as RequestId);
  }
  const message = forSdk(checked.data);
  const problem = paramsProblem(message);
  if (problem !== undefined) return hasId ? { kind: 'reply', reply: rpcError(replyId, INVALID_PARAMS, problem) } : { kind: 'dropped' };
  return { kind: 'message', message, strict: m };
}

// The params schema of each method the server answers. The SDK checks params against these
// too, but answers a mismatch as an internal error (-32603) carrying its schema library's
// report; checked here first, a mismatch is the caller's -32602 with a sentence.
const PARAMS_SCHEMAS: Record<string, { safeParse(value: unknown): { success: boolean; error?: { issues: readonly ParamsIssue[] } } }> = {
  initialize: InitializeRequestSchema,
  ping: PingRequestSchema,
  'tools/list': ListToolsRequestSchema,
  'tools/call': CallToolRequestSchema,
  'prompts/list': ListPromptsRequestSchema,
  'prompts/get': GetPromptRequestSchema,
  'resources/list': ListResourcesRequestSchema,
};

interface ParamsIssue {
  code: string;
  path: readonly PropertyKey[];
  expected?: unknown;
}

// The members tools/call takes (the analysis upstream refuses any other).
const TOOL_CALL_MEMBERS = new Set(['name', 'arguments', '_meta']);

/**
 * tools/call `arguments` that are not an object are the tool's to refuse (isError, as any
 * bad argument), so the SDK is handed the message without them; tools/call reads the
 * arguments from the strict parse (strictArgumentsOf) in any case.
 */
function forSdk(message: JSONRPCMessage): JSONRPCMessage {
  if (!('method' in message) || message.method !== 'tools/call' || message.params === undefined) return message;
  const args = (message.params as Record<string, unknown>).arguments;
  if (args === undefined || (args !== null && typeof args === 'object' && !Array.isArray(args))) return message;
  const { arguments: _dropped, ...params } = message.params as Record<string, unknown>;
  return { ...message, params };
}

/** Why a request's params do not fit its method, or undefined when they do (or the method is unknown). */
function paramsProblem(message: JSONRPCMessage): string | undefined {
  if (!('method' in message) || !('id' in message)) return undefined;
  const method = message.method;
  if (method === 'tools/call' && message.params !== undefined) {
    const unknown = Object.keys(message.params).find((key) => !TOOL_CALL_MEMBERS.has(key));
    if (unknown !== undefined) return `unknown tool-call parameter ${JSON.stringify(unknown)}: tools/call takes name, arguments and _meta`;
  }
  const schema = Object.hasOwn(PARAMS_SCHEMAS, method) ? PARAMS_SCHEMAS[method] : undefined;
  const checked = schema?.safeParse(message);
  if (checked === undefined || checked.success) return undefined;
  return describeIssue(method, checked.error?.issues[0]);
}

/** A sentence for the first problem the SDK's schema found in a request's params. */
function describeIssue(method: string, issue: ParamsIssue | undefined): string {
  if (issue === undefined) return `invalid params for ${method}`;
  const where = issue.path.map(String).join('.') || 'params';
  if (where === 'params') return `invalid params for ${method}: params are missing or incomplete`;
  return issue.code === 'invalid_type' && typeof issue.expected === 'string'
    ? `invalid params for ${method}: ${where} must be ${article(issue.expected)}`
    : `invalid params for ${method}: ${where} is not valid here`;
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

/** The strict `params.arguments` of a tools/call message, when it has them. */
export function strictArgumentsOf(strict: Record<string, unknown>): { found: true; value: unknown } | { found: false } {
  if (strict.method !== 'tools/call') return { found: false };
  const params = strict.params as Record<string, unknown> | undefined;
  if (params === undefined || !Object.hasOwn(params, 'arguments')) return { found: false };
  return { found: true, value: params.arguments };
}

/**
 * The SDK re-validates a tools/call result into a new object (a member named `__proto__`,
 * an ab_test arm label say, is lost), and JSON.stringify would write `-0.0` as `0` and
 * `2914.0` as `2914`. The text rendering is the exact REST body, so the transports write
 * structuredContent as those very bytes: a client parsing the reply gets the REST value.
 * `singleLine` (stdio) drops the line breaks of indented bodies.
 */
export function encodeReply(reply: unknown, options: { singleLine?: boolean } = {}): string {
  const found = structuredText(reply);
  // tools/list carries the analysis schemas, whose float defaults print as floats.
  if (found === undefined) return stringifyKeepingSchemaFloats(reply);
  // A raw line break in JSON text is always whitespace between tokens (inside strings it is
  // escaped), so a line-framed transport can drop it (funding bodies are indented).
  const text = options.singleLine ? found.replace(/[\r\n]/g, '') : found;
  const r = reply as { result: Record<string, unknown> };
  const encoded = JSON.stringify({ ...r, result: { ...r.result, structuredContent: PLACEHOLDER } });
  const at = encoded.lastIndexOf(PLACEHOLDER_JSON);
  return encoded.slice(0, at) + text + encoded.slice(at + PLACEHOLDER_JSON.length);
}

const PLACEHOLDER = `structured-content-${randomUUID()}`;
const PLACEHOLDER_JSON = JSON.stringify(PLACEHOLDER);

/** The text of a tool result whose structuredContent it renders, when it is one. */
function structuredText(reply: unknown): string | undefined {
  if (reply === null || typeof reply !== 'object') return undefined;
  const result = (reply as { result?: unknown }).result;
  if (result === null || typeof result !== 'object') return undefined;
  const r = result as { content?: unknown; structuredContent?: unknown };
  if (!Array.isArray(r.content) || r.structuredContent === undefined) return undefined;
  const first = r.content[0] as { type?: unknown; text?: unknown } | undefined;
  if (first?.type !== 'text' || typeof first.text !== 'string') return undefined;
  try {
    // hugeIntegers: a data answer writes an integer no double holds as its digits, as Python does.
    const value: unknown = parseStrictJson(first.text, { hugeIntegers: true });
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? first.text : undefined;
  } catch {
    return undefined;
  }
}
