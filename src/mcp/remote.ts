// `evidence-desk mcp --base URL`: the stdio server answers tools/list and tools/call by
// asking a running service's /mcp. Arguments are re-encoded with encodePythonBody, which
// keeps each number's int/float kind and member order, so the service sees what the agent
// wrote; replies are read strictly too, so structuredContent passes through unchanged.
import { ErrorCode, McpError, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { encodePythonBody, parseStrictJson } from '../core/json.js';
import type { RemoteTools } from './server.js';

const TIMEOUT_MS = 120_000;

export function remoteTools(base: string): RemoteTools {
  const endpoint = `${base.replace(/\/+$/, '')}/mcp`;
  let next = 1;
  const post = async (method: string, paramsJson: string): Promise<unknown> => {
    const id = next++;
    let response: Response;
    try {
      response = await fetch(endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: `{"jsonrpc": "2.0", "id": ${id}, "method": ${JSON.stringify(method)}, "params": ${paramsJson}}`,
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (error) {
      throw new McpError(ErrorCode.InternalError, `the service at ${endpoint} could not be reached (${(error as Error).message})`);
    }
    const text = await response.text();
    let reply: { result?: unknown; error?: { code: number; message: string } };
    try {
      reply = parseStrictJson(text) as typeof reply;
    } catch {
      throw new McpError(ErrorCode.InternalError, `the service at ${endpoint} answered HTTP ${response.status} without a JSON-RPC reply`);
    }
    if (reply.error) throw new McpError(reply.error.code, reply.error.message);
    if (response.status !== 200 || reply.result === undefined) {
      throw new McpError(ErrorCode.InternalError, `the service at ${endpoint} answered HTTP ${response.status} without a result`);
    }
    return reply.result;
  };
  return {
    list: async () => ((await post('tools/list', '{}')) as { tools: Tool[] }).tools,
    call: async (name, args) => (await post('tools/call', `{"name": ${JSON.stringify(name)}, "arguments": ${encodePythonBody(args)}}`)) as CallToolResult,
  };
}
