// `evidence-desk mcp --base URL`: the stdio server answers tools/list and tools/call by
// asking a running service's /mcp. A tools/call goes on as the very line the agent wrote
// (its id included: each POST is a conversation of its own), so the service reads every
// number token, `-0`, a literal beyond the double range and a lone surrogate escape exactly
// as it would over HTTP. Without that line (a caller that keeps none) the arguments are
// re-encoded with encodePythonBody, which keeps each number's int/float kind and member order.
// Replies are read strictly too, so structuredContent passes through unchanged.
import { ErrorCode, type CallToolResult, type RequestId, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { encodePythonBody, parseStrictJson } from '../core/json.js';
import { RpcRefusal } from './envelope.js';
import type { RemoteTools } from './server.js';

const TIMEOUT_MS = 120_000;

/** `callLine` gives the line a pending tools/call arrived in, when the transport kept it. */
export function remoteTools(base: string, callLine: (id: RequestId) => Uint8Array | undefined = () => undefined): RemoteTools {
  const endpoint = `${base.replace(/\/+$/, '')}/mcp`;
  let next = 1;
  const request = (method: string, paramsJson: string) => `{"jsonrpc": "2.0", "id": ${next++}, "method": ${JSON.stringify(method)}, "params": ${paramsJson}}`;
  const post = async (body: string): Promise<unknown> => {
    let response: Response;
    try {
      response = await fetch(endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body,
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (error) {
      throw new RpcRefusal(ErrorCode.InternalError, `the service at ${endpoint} could not be reached (${(error as Error).message})`);
    }
    const text = await response.text();
    let reply: { result?: unknown; error?: unknown };
    try {
      // hugeIntegers: a data answer may hold an integer no double holds, kept as its digits.
      reply = parseStrictJson(text, { hugeIntegers: true }) as typeof reply;
    } catch {
      throw new RpcRefusal(ErrorCode.InternalError, `the service at ${endpoint} answered HTTP ${response.status} without a JSON-RPC reply`);
    }
    const error = reply.error as { code?: unknown; message?: unknown } | string | undefined;
    if (typeof error === 'object' && error !== null && Number.isSafeInteger(error.code) && typeof error.message === 'string') {
      throw new RpcRefusal(error.code as number, error.message);
    }
    if (response.status !== 200 || reply.result === undefined) {
      // The service's own refusals at /mcp (413, 503 when saturated) are its REST error body.
      const { code, detail } = reply as { code?: unknown; detail?: unknown };
      const reason = typeof detail === 'string' ? detail : typeof error === 'string' ? error : 'without a result';
      const label = typeof code === 'string' ? ` ${code}` : '';
      throw new RpcRefusal(ErrorCode.InternalError, `the service at ${endpoint} answered HTTP ${response.status}${label}: ${reason}`);
    }
    return reply.result;
  };
  return {
    list: async () => ((await post(request('tools/list', '{}'))) as { tools: Tool[] }).tools,
    call: async (name, args, requestId) => {
      // A line the transport took was read strictly, so it is valid UTF-8: decoding loses nothing.
      const line = callLine(requestId);
      return (await post(line !== undefined ? Buffer.from(line).toString('utf8') : request('tools/call', `{"name": ${JSON.stringify(name)}, "arguments": ${encodePythonBody(args)}}`))) as CallToolResult;
    },
  };
}
