// The data group's store: every source retrieval (success or failure) and the snapshots
// queries were answered from. Document bytes go to funding_publisher_blobs (0002).
import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../storage.js';

export function dataMigration(_dialect: Dialect): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('data_retrievals')
        .addColumn('retrieval_id', 'text', (c) => c.primaryKey())
        .addColumn('seq', 'bigint', (c) => c.notNull().unique())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('source_key', 'text', (c) => c.notNull())
        .addColumn('source_url', 'text', (c) => c.notNull())
        .addColumn('started_at_us', 'bigint', (c) => c.notNull())
        .addColumn('retrieved_at_us', 'bigint', (c) => c.notNull())
        .addColumn('ok', 'integer', (c) => c.notNull())
        .addColumn('resolved_url', 'text')
        .addColumn('bytes', 'bigint')
        .addColumn('content_sha256', 'text')
        .addColumn('error', 'text')
        .execute();
      await db.schema.createIndex('data_retrievals_url_seq').on('data_retrievals').columns(['mode', 'source_url', 'seq']).execute();
      await db.schema.createIndex('data_retrievals_retrieved').on('data_retrievals').column('retrieved_at_us').execute();
      await db.schema.createIndex('data_retrievals_content').on('data_retrievals').column('content_sha256').execute();

      await db.schema
        .createTable('data_snapshots')
        .addColumn('snapshot_id', 'text', (c) => c.primaryKey())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('dataset', 'text', (c) => c.notNull())
        .addColumn('created_at_us', 'bigint', (c) => c.notNull())
        .addColumn('retrieved_at_us', 'bigint', (c) => c.notNull())
        .addColumn('content_key', 'text', (c) => c.notNull())
        .addColumn('row_count', 'integer', (c) => c.notNull())
        .addColumn('transport_status', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('data_snapshots_dataset_retrieved')
        .on('data_snapshots')
        .columns(['mode', 'dataset', 'retrieved_at_us', 'created_at_us'])
        .execute();
      await db.schema.createIndex('data_snapshots_created').on('data_snapshots').column('created_at_us').execute();

      await db.schema
        .createTable('data_snapshot_sources')
        .addColumn('snapshot_id', 'text', (c) => c.notNull().references('data_snapshots.snapshot_id'))
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('source_key', 'text', (c) => c.notNull())
        .addColumn('retrieval_id', 'text', (c) => c.notNull().references('data_retrievals.retrieval_id'))
        .addPrimaryKeyConstraint('data_snapshot_sources_pk', ['snapshot_id', 'position'])
        .execute();
      await db.schema.createIndex('data_snapshot_sources_retrieval').on('data_snapshot_sources').column('retrieval_id').execute();
    },
  };
}
