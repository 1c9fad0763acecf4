import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../storage.js';

// The consented browser download counters (a dataset separate from application usage) and
// the service's own secrets. A visitor is only ever stored as a keyed hash; the key lives
// in service_secrets, created on first use.
export function browserEventsMigration(_dialect: Dialect): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('service_secrets')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('value_hex', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('browser_events')
        .addColumn('visitor_hash', 'text', (c) => c.notNull())
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('packet', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('browser_events_pk', ['visitor_hash', 'day', 'packet', 'kind'])
        .execute();
      await db.schema.createIndex('browser_events_day').on('browser_events').column('day').execute();
    },
  };
}
