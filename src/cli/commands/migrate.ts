import type { Command } from 'commander';
import { openStorage } from '../../storage/open.js';
import { migrate } from '../../storage/storage.js';
import { addConfigOptions, configFromOptions } from '../options.js';

export function registerMigrate(program: Command): void {
  const command = program.command('migrate').description('bring the database schema up to date and exit');
  addConfigOptions(command, ['dataDir', 'databaseUrl']);
  command.action(async (options: Record<string, unknown>) => {
    const config = configFromOptions(options);
    const storage = await openStorage(config, { migrate: false });
    try {
      const applied = await migrate(storage.db, storage.dialect);
      process.stdout.write(JSON.stringify({ storage: storage.dialect, location: storage.location, applied }) + '\n');
    } finally {
      await storage.close();
    }
  });
}
