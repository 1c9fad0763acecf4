// The `evidence-desk` command line: one sub-command per file under ./commands.
import { Command, CommanderError } from 'commander';
import { SERVICE_VERSION } from '../core/build-info.js';
import { ConfigError } from '../core/config.js';
import { COMMANDS } from './commands/index.js';
import { dropOutputOnceReaderLeaves } from './output.js';

export function buildProgram(): Command {
  const program = new Command('evidence-desk')
    .description('Evidence Desk: market analytics, USD funding evidence packets and research datasets over HTTP')
    .version(SERVICE_VERSION)
    .exitOverride()
    .showHelpAfterError();
  for (const register of COMMANDS) register(program);
  return program;
}

/** Runs the CLI; resolves to the process exit code. */
export async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  dropOutputOnceReaderLeaves();
  try {
    await program.parseAsync(argv);
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.exitCode === 0 ? 0 : 2;
    }
    if (error instanceof ConfigError) {
      process.stderr.write(`evidence-desk: configuration error: ${error.message}\n`);
      return 2;
    }
    process.stderr.write(`evidence-desk: ${(error as Error)?.message ?? String(error)}\n`);
    return 2;
  }
}
