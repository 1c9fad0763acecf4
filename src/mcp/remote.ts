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
    let reply: { result?: unknown; error?: { code: number; message: string } };
    try {
      reply = parseStrictJson(text) as typeof reply;
    } catch {
      throw new RpcRefusal(ErrorCode.InternalError, `the service at ${endpoint} answered HTTP ${response.status} without a JSON-RPC reply`);
    }
    if (reply.error) throw new RpcRefusal(reply.error.code, reply.error.message);
    if (response.status !== 200 || reply.result === undefined) {
      throw new RpcRefusal(ErrorCode.InternalError, `the service at ${endpoint} answered HTTP ${response.status} without a result`);
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
