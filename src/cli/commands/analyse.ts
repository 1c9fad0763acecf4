import fs from 'node:fs/promises';
import type { Command } from 'commander';
import { parseStrictJson } from '../../core/json.js';
import { ANALYSIS_TOOL_NAMES } from '../../analysis/tools/catalogue.js';
import { errorBody, resolveError } from '../../http/errors.js';

async function readInput(file: string | undefined): Promise<Buffer> {
  if (file !== undefined && file !== '-') return fs.readFile(file);
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * `evidence-desk analyse <tool> [FILE|-]`: runs one analysis tool on a JSON request read
 * from FILE (or standard input) and prints the result exactly as the HTTP and MCP surfaces
 * return it. Invalid input prints the same error body the REST route would send
 * (`{"error", "code", "path"}`) and exits 2; so does an unknown tool name.
 */
export function registerAnalyse(program: Command): void {
  program
    .command('analyse')
    .description('run one analysis tool on a JSON request (FILE, or - / nothing for standard input) and print the result; exit 2 with the error body on invalid input')
    .argument('<tool>', `one of ${ANALYSIS_TOOL_NAMES.join(', ')}`)
    .argument('[file]', 'request file, or - for standard input')
    .action(async (tool: string, file: string | undefined) => {
      // Loaded here so the other commands do not pay for the analysis modules at start-up.
      const { requireAnalysisTool, runAnalysisTool } = await import('../../analysis/tools/dispatch.js');
      const { ANALYSIS_BODY } = await import('../../analysis/validate.js');
      try {
        // A tool name is checked before any input is read: standard input may never end.
        requireAnalysisTool(tool);
        const outcome = runAnalysisTool(tool, parseStrictJson(await readInput(file), ANALYSIS_BODY));
        process.stdout.write(outcome.body + '\n');
      } catch (error) {
        const resolved = resolveError(error);
        if (resolved.unexpected) throw error;
        process.stdout.write(JSON.stringify(errorBody('analysis', resolved)) + '\n');
        process.exitCode = 2;
      }
    });
}
