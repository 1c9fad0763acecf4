// Measured data-query reads (group C), one row per application, UTC date and response
// digest: the de-duplication behind X-Financial-Evidence-Measurement. Rows belong to an
// application and disappear with it (erasure, expiry), like its completions.
import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../storage.js';

export function dataReadsMigration(_dialect: Dialect): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('data_reads')
        .addColumn('application', 'text', (c) => c.notNull().references('applications.id').onDelete('cascade'))
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('digest', 'text', (c) => c.notNull())
        .addColumn('traffic_class', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('data_reads_pk', ['application', 'day', 'digest'])
        .execute();
      await db.schema.createIndex('data_reads_day').on('data_reads').column('day').execute();
    },
  };
}
