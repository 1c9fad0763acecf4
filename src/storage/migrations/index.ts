// The one ordered list of migrations, shared by SQLite and PostgreSQL. Names sort in
// the order they must run; a migration, once released, is never edited.
import type { Migration } from 'kysely';
import type { Dialect } from '../storage.js';
import { coreMigration } from './0001_core.js';
import { fundingMigration } from './0002_funding.js';
import { applicationsMigration } from './0003_applications.js';
import { dataMigration } from './0004_data.js';
import { fundingRevisionMigration } from './0005_funding_revision.js';
import { browserEventsMigration } from './0006_browser_events.js';
import { dataReadsMigration } from './0007_data_reads.js';

export function allMigrations(dialect: Dialect): Record<string, Migration> {
  return {
    '0001_core': coreMigration(dialect),
    '0002_funding': fundingMigration(dialect),
    '0003_applications': applicationsMigration(dialect),
    '0004_data': dataMigration(dialect),
    '0005_funding_revision': fundingRevisionMigration(dialect),
    '0006_browser_events': browserEventsMigration(dialect),
    '0007_data_reads': dataReadsMigration(dialect),
  };
}
