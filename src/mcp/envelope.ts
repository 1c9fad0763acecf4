// The JSON-RPC envelope checks the HTTP transport makes before the SDK sees a body: the
// strict parse (int/float kinds, duplicate keys, non-finite literals), the batch size,
// and per-message envelope rules, so one malformed member of a batch gets its own error
// reply and does not stop the rest (the SDK would refuse the whole batch).
import { JSONRPCMessageSchema, type JSONRPCMessage, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import { parseStrictJson } from '../core/json.js';
import { MAX_RPC_BATCH } from './limits.js';

export interface RpcErrorReply {
  jsonrpc: '2.0';
  id: RequestId | null;
  error: { code: number; message: string };
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
    parsed = parseStrictJson(bytes);
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
  const idOk = !hasId || typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id));
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
    return hasId ? { kind: 'reply', reply: rpcError(replyId, INVALID_REQUEST, 'invalid JSON-RPC message') } : { kind: 'dropped' };
  }
  if (hasId && Object.hasOwn(m, 'method')) {
    if (seen.has(id as RequestId)) return { kind: 'reply', reply: rpcError(replyId, INVALID_REQUEST, 'a batch must not repeat a request id') };
    seen.add(id as RequestId);
  }
  return { kind: 'message', message: checked.data, strict: m };
}

/** The strict `params.arguments` of a tools/call message, when it has them. */
export function strictArgumentsOf(strict: Record<string, unknown>): { found: true; value: unknown } | { found: false } {
  if (strict.method !== 'tools/call') return { found: false };
  const params = strict.params as Record<string, unknown> | undefined;
  if (params === undefined || !Object.hasOwn(params, 'arguments')) return { found: false };
  return { found: true, value: params.arguments };
}

/**
 * The SDK re-validates a tools/call result into a new object, and on the way a member
 * named `__proto__` (an ab_test arm label, say) is lost. Our text rendering is the exact
 * JSON the structuredContent must hold, so the transports restore it from there.
 */
export function restoreStructuredContent(reply: unknown): unknown {
  if (reply === null || typeof reply !== 'object') return reply;
  const result = (reply as { result?: unknown }).result;
  if (result === null || typeof result !== 'object') return reply;
  const r = result as { content?: unknown; structuredContent?: unknown };
  if (!Array.isArray(r.content) || r.structuredContent === undefined) return reply;
  const first = r.content[0] as { type?: unknown; text?: unknown } | undefined;
  if (first?.type !== 'text' || typeof first.text !== 'string') return reply;
  try {
    r.structuredContent = JSON.parse(first.text);
  } catch {
    // Not JSON: leave what the SDK produced.
  }
  return reply;
}
