import type { Command } from 'commander';
import { encodeCanonicalDocument } from '../../core/json.js';
import { nowInstant } from '../../core/time.js';
import { usageReport } from '../../applications/report.js';
import { openStorage } from '../../storage/open.js';
import { addConfigOptions, configFromOptions } from '../options.js';

export function registerUsageReport(program: Command): void {
  const command = program
    .command('usage-report')
    .description('operator: print the application usage report (financial-evidence.application-usage.v1); also purges expired keys and old usage rows');
  addConfigOptions(command, ['dataDir', 'databaseUrl']);
  command.action(async (options: Record<string, unknown>) => {
    const storage = await openStorage(configFromOptions(options));
    try {
      process.stdout.write(encodeCanonicalDocument(await usageReport({ storage, clock: nowInstant })));
    } finally {
      await storage.close();
    }
  });
}
