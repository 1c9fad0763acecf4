// The one place the network surfaces (REST, MCP over HTTP and stdio) run an analysis tool.
// Today it runs the dispatcher on the calling thread; a worker pool can take over behind
// this function without either surface changing. `args` must come from parseStrictJson
// (number kinds recorded), never from JSON.parse.
import { runAnalysisTool, type ToolOutcome } from './dispatch.js';

export type { ToolOutcome };

export async function executeAnalysisTool(name: string, args: unknown): Promise<ToolOutcome> {
  return runAnalysisTool(name, args);
}
