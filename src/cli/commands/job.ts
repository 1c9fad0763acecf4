import type { Command } from 'commander';
import { FAILURE_REASON, JobError } from '../../funding/job/errors.js';
import { runJob } from '../../funding/job/job.js';

export const DEFAULT_JOB_BASE = 'http://127.0.0.1:8080';

/** The one line a failed run prints (never the token). */
export function failureLine(error: unknown): string {
  const failure = error instanceof JobError ? error.failure : 'io';
  return JSON.stringify({ status: 'failed', cursor_preserved: true, reason: FAILURE_REASON, error: failure });
}

export function registerJob(program: Command): void {
  program
    .command('job')
    .description('keep a verified local copy of the latest funding packet and a cursor (prints one JSON line; exit 0 updated/unchanged, 2 failed)')
    .requiredOption('--state <dir>', 'state directory: cursor.json, packets/, changes/')
    .option('--token-file <file>', 'file holding an application key (mode 600); sent as a Bearer token')
    .option('--operator', 'mark the requests as operator traffic (excluded from usage measurement)')
    .option('--base <url>', 'base URL of the evidence service', DEFAULT_JOB_BASE)
    .action(async (options: { state: string; tokenFile?: string; operator?: boolean; base: string }) => {
      const progress = process.stderr.isTTY ? (message: string) => process.stderr.write(`evidence-desk job: ${message}\n`) : undefined;
      try {
        const result = await runJob({ stateDir: options.state, tokenFile: options.tokenFile, operator: options.operator === true, base: options.base, progress });
        process.stdout.write(JSON.stringify(result) + '\n');
        process.exitCode = 0;
      } catch (error) {
        process.stdout.write(failureLine(error) + '\n');
        const message = error instanceof Error ? error.message : String(error);
        process.stderr.write(`evidence-desk job: ${message}\n`);
        process.exitCode = 2;
      }
    });
}
