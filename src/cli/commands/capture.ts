import type { Command } from 'commander';
import { nowInstant } from '../../core/time.js';
import { captureOnce, describeFailure } from '../../funding/capture.js';
import { checkPublishers, formatCheckLine } from '../../funding/check.js';
import { openStorage } from '../../storage/open.js';
import { addConfigOptions, configFromOptions } from '../options.js';

/**
 * `evidence-desk capture`: one funding capture attempt. Prints one JSON line and exits
 * 0 when a packet was archived or re-verified, 1 when the attempt failed (and was
 * recorded), 2 when no attempt could run (store unreachable, another capture running).
 *
 * `evidence-desk capture --check`: fetch and parse each publisher document once, print
 * one line per document and one for the packet they would make, store nothing; exit 0
 * when everything passes, 1 when anything fails.
 */
export function registerCapture(program: Command): void {
  const command = program
    .command('capture')
    .description('run one funding evidence capture attempt now (exit 0 success, 1 failed attempt recorded, 2 could not run)')
    .option('--check', 'only fetch and parse each publisher document once and report one line per document; stores nothing (exit 0 all pass, 1 any fails)')
    .option('--json', 'with --check: print each line as a JSON object');
  addConfigOptions(command, ['dataDir', 'databaseUrl', 'mode', 'publisherBases.nyfed', 'publisherBases.frb', 'publisherBases.treasury', 'iorbSource']);
  command.action(async (options: Record<string, unknown>) => {
    const config = configFromOptions(options);
    if (options.check === true) {
      const lines = await checkPublishers({ config, clock: nowInstant });
      for (const line of lines) process.stdout.write(`${options.json === true ? JSON.stringify(line) : formatCheckLine(line)}\n`);
      process.exitCode = lines.every((l) => l.ok) ? 0 : 1;
      return;
    }
    let storage;
    try {
      storage = await openStorage(config);
    } catch (error) {
      process.stdout.write(JSON.stringify({ ran: false, reason: 'storage_unavailable', error: describeFailure(error, [], 'storage_unavailable').text }) + '\n');
      process.exitCode = 2;
      return;
    }
    try {
      const result = await captureOnce({ storage, config, clock: nowInstant });
      if (!result.ran) {
        process.stdout.write(JSON.stringify({ ran: false, reason: result.reason }) + '\n');
        process.exitCode = 2;
        return;
      }
      process.stdout.write(JSON.stringify({ ran: true, ...result.attempt }) + '\n');
      process.exitCode = result.attempt.outcome === 'failed' ? 1 : 0;
    } catch (error) {
      process.stdout.write(JSON.stringify({ ran: false, reason: 'capture_not_recorded', error: describeFailure(error, [], 'capture_not_recorded').text }) + '\n');
      process.exitCode = 2;
    } finally {
      await storage.close();
    }
  });
}
