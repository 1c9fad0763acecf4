import type { Command } from 'commander';
import { nowInstant } from '../../core/time.js';
import { captureOnce, describeFailure } from '../../funding/capture.js';
import { openStorage } from '../../storage/open.js';
import { addConfigOptions, configFromOptions } from '../options.js';

/**
 * `evidence-desk capture`: one funding capture attempt. Prints one JSON line and exits
 * 0 when a packet was archived or re-verified, 1 when the attempt failed (and was
 * recorded), 2 when no attempt could run (store unreachable, another capture running).
 */
export function registerCapture(program: Command): void {
  const command = program
    .command('capture')
    .description('run one funding evidence capture attempt now (exit 0 success, 1 failed attempt recorded, 2 could not run)');
  addConfigOptions(command, ['dataDir', 'databaseUrl', 'mode', 'publisherBases.nyfed', 'publisherBases.frb', 'publisherBases.treasury']);
  command.action(async (options: Record<string, unknown>) => {
    const config = configFromOptions(options);
    let storage;
    try {
      storage = await openStorage(config);
    } catch (error) {
      process.stdout.write(JSON.stringify({ ran: false, reason: 'storage_unavailable', error: describeFailure(error).text }) + '\n');
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
      process.stdout.write(JSON.stringify({ ran: false, reason: 'capture_not_recorded', error: describeFailure(error).text }) + '\n');
      process.exitCode = 2;
    } finally {
      await storage.close();
    }
  });
}
