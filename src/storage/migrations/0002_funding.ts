// The funding evidence archive: publisher bodies, packets and capture attempts.
import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../storage.js';

export function fundingMigration(dialect: Dialect): Migration {
  const binary = dialect === 'postgres' ? 'bytea' : 'blob';
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('funding_publisher_blobs')
        .addColumn('sha256', 'text', (c) => c.primaryKey())
        .addColumn('bytes', sql.raw(binary), (c) => c.notNull())
        .addColumn('size', 'bigint', (c) => c.notNull())
        .addColumn('first_stored_at_us', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('funding_packets')
        .addColumn('packet_id', 'text', (c) => c.primaryKey())
        .addColumn('seq', 'bigint', (c) => c.notNull().unique())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('archived_at_us', 'bigint', (c) => c.notNull())
        .addColumn('source_captured_at_us', 'bigint', (c) => c.notNull())
        .addColumn('review_asof', 'text')
        .addColumn('review_scope', 'text', (c) => c.notNull())
        .addColumn('ready_at_capture', 'integer', (c) => c.notNull())
        .addColumn('manifest_sha256', 'text', (c) => c.notNull())
        .addColumn('source_manifest_sha256', 'text', (c) => c.notNull())
        .addColumn('manifest', sql.raw(binary), (c) => c.notNull())
        .addColumn('review', sql.raw(binary), (c) => c.notNull())
        .addColumn('csv', sql.raw(binary), (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('funding_packets_mode_archived')
        .on('funding_packets')
        .columns(['mode', 'archived_at_us', 'packet_id'])
        .execute();

      await db.schema
        .createTable('funding_attempts')
        .addColumn('attempt_id', 'text', (c) => c.primaryKey())
        .addColumn('seq', 'bigint', (c) => c.notNull().unique())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('started_at_us', 'bigint', (c) => c.notNull())
        .addColumn('recorded_at_us', 'bigint', (c) => c.notNull())
        .addColumn('outcome', 'text', (c) => c.notNull())
        .addColumn('packet_id', 'text', (c) => c.references('funding_packets.packet_id'))
        .addColumn('manifest_sha256', 'text')
        .addColumn('review_asof', 'text')
        .addColumn('error_code', 'text')
        .addColumn('error', 'text')
        .addColumn('receipts_json', 'text')
        .addColumn('sample_day', 'text')
        .execute();
      await db.schema
        .createIndex('funding_attempts_mode_seq')
        .on('funding_attempts')
        .columns(['mode', 'seq'])
        .execute();
      await db.schema
        .createIndex('funding_attempts_mode_recorded')
        .on('funding_attempts')
        .columns(['mode', 'recorded_at_us'])
        .execute();
    },
  };
}
