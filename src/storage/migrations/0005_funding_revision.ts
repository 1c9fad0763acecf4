// A change counter for the funding archive. Readers keep the verified current packet in
// memory and ask this one row whether anything changed (src/funding/current-cache.ts);
// triggers bump it on every insert, update or delete of packets and attempts, whoever
// writes — this service, another instance, or someone editing the tables by hand — so a
// tampered row is noticed by the next change check, not only by the scheduled re-check.
import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../storage.js';

const WATCHED = ['funding_packets', 'funding_attempts'] as const;

export function fundingRevisionMigration(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('funding_revision')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('revision', 'bigint', (c) => c.notNull())
        .execute();
      await db.insertInto('funding_revision').values({ id: 1, revision: 0 }).execute();
      const bump = 'update funding_revision set revision = revision + 1 where id = 1';
      if (dialect === 'postgres') {
        // Statement triggers (TRUNCATE included). The function keeps the search path it was
        // created with, so a write made from a session with another search path (an
        // operator's psql) still finds the counter instead of failing.
        await sql
          .raw(`create function funding_note_change() returns trigger language plpgsql set search_path from current as $$ begin ${bump}; return null; end $$`)
          .execute(db);
        for (const table of WATCHED) {
          await sql
            .raw(`create trigger ${table}_changed after insert or update or delete or truncate on ${table} for each statement execute function funding_note_change()`)
            .execute(db);
        }
      } else {
        for (const table of WATCHED) {
          for (const event of ['insert', 'update', 'delete']) {
            await sql.raw(`create trigger ${table}_${event}_changed after ${event} on ${table} begin ${bump}; end`).execute(db);
          }
        }
      }
    },
  };
}
