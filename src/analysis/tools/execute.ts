// Where MCP (over HTTP and stdio) runs an analysis tool: the dispatcher on the calling
// thread. REST routes run the same dispatcher from raw bytes on the worker pool
// (src/http/analysis/offload.ts); both give the same bytes. `args` must come from parseStrictJson
// (number kinds recorded), never from JSON.parse.
import { runAnalysisTool, type ToolOutcome } from './dispatch.js';

export type { ToolOutcome };

export async function executeAnalysisTool(name: string, args: unknown): Promise<ToolOutcome> {
  return runAnalysisTool(name, args);
}
