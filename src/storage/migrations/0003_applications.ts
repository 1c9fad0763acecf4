import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../storage.js';

// Application keys and usage measurement. Completions and cohorts belong to an
// application and disappear with it (revocation, expiry); aggregates do not reference
// applications, so anonymous counts survive erasure.
export function applicationsMigration(_dialect: Dialect): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('applications')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('created_day', 'text', (c) => c.notNull())
        .addColumn('last_seen_day', 'text', (c) => c.notNull())
        .addColumn('traffic_class', 'text', (c) => c.notNull())
        .addColumn('evidence_sha256', 'text')
        .execute();
      await db.schema.createIndex('applications_created_day').on('applications').column('created_day').execute();
      await db.schema.createIndex('applications_last_seen_day').on('applications').column('last_seen_day').execute();

      await db.schema
        .createTable('completions')
        .addColumn('application', 'text', (c) => c.notNull().references('applications.id').onDelete('cascade'))
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('packet', 'text', (c) => c.notNull())
        .addColumn('traffic_class', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('completions_pk', ['application', 'day', 'packet', 'traffic_class'])
        .execute();
      await db.schema.createIndex('completions_day').on('completions').column('day').execute();

      await db.schema
        .createTable('cohorts')
        .addColumn('application', 'text', (c) => c.notNull().references('applications.id').onDelete('cascade'))
        .addColumn('traffic_class', 'text', (c) => c.notNull())
        .addColumn('first_day', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('cohorts_pk', ['application', 'traffic_class'])
        .execute();
      await db.schema.createIndex('cohorts_first_day').on('cohorts').column('first_day').execute();

      await db.schema
        .createTable('aggregates')
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('traffic_class', 'text', (c) => c.notNull())
        .addColumn('outcome', 'text', (c) => c.notNull())
        .addColumn('count', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('aggregates_pk', ['day', 'traffic_class', 'outcome'])
        .execute();
    },
  };
}
