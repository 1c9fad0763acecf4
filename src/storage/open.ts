import path from 'node:path';
import type { Config } from '../core/config.js';
import type { Storage } from './storage.js';
import { openSqliteStorage } from './sqlite.js';

/** Opens the store the configuration names and brings its schema up to date. */
export async function openStorage(
  config: Pick<Config, 'dataDir' | 'databaseUrl'> & Partial<Pick<Config, 'databasePoolSize'>>,
  options: { migrate?: boolean } = {},
): Promise<Storage> {
  if (config.databaseUrl) {
    // Loaded only here: the PostgreSQL driver is memory a SQLite-only service never uses.
    const { openPostgresStorage } = await import('./postgres.js');
    return openPostgresStorage({ connectionString: config.databaseUrl, migrate: options.migrate, maxConnections: config.databasePoolSize });
  }
  return openSqliteStorage({ file: path.join(config.dataDir, 'evidence.db'), migrate: options.migrate });
}
