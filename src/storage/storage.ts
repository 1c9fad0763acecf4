// The storage interface every area talks to. Two implementations (SQLite, PostgreSQL)
// share one Kysely query layer and one migration list; only locking differs.

import { DEFAULT_MIGRATION_TABLE, Kysely, Migrator, type MigrationProvider } from 'kysely';
import type { Database } from './schema.js';
import { allMigrations } from './migrations/index.js';
import { StorageFaultError } from './faults.js';
import { holderIsGone } from './lease.js';

export type Dialect = 'sqlite' | 'postgres';

export interface Storage {
  readonly dialect: Dialect;
  readonly db: Kysely<Database>;
  /** Where the data lives, without credentials (for logs and `readyz`). */
  readonly location: string;
  /**
   * Throws unless the store can serve the routes: it answers, carries every migration this
   * build knows, and (SQLite) its file has passed a structural check since it was opened.
   */
  ping(): Promise<void>;
  /**
   * Runs `fn` in one transaction that no other holder of `lockName` can interleave
   * with — across processes and service instances, not only inside this one. SQLite
   * uses BEGIN IMMEDIATE (one writer per file); PostgreSQL a transaction advisory lock.
   */
  serialized<T>(lockName: string, fn: (trx: Kysely<Database>) => Promise<T>): Promise<T>;
  /**
   * Takes or renews the named lease for `holder`; false while another holder has it — unless
   * that holder's expiry has passed or it provably died (src/storage/lease.ts).
   */
  tryLease(name: string, holder: string, ttlMs: number, nowMs?: number): Promise<boolean>;
  releaseLease(name: string, holder: string): Promise<void>;
  /**
   * Told that a value read from the store failed a check the store cannot make itself (an
   * artifact's hash). SQLite keeps pages it read while its file was damaged for as long as
   * no write changes the file, so a repaired file would go on failing: the connection is
   * replaced, once the file passes its structural check, and reads come from disk again.
   * At most once per DISTRUST_INTERVAL_MS, so a store tampered through SQL costs one check a
   * minute. PostgreSQL keeps no such cache: nothing to do.
   */
  distrust(reason: string): void;
  close(): Promise<void>;
}

export const DISTRUST_INTERVAL_MS = 60_000;

/**
 * Brings the schema up to date. On PostgreSQL the dialect's introspector shows the migrator
 * only the store's own schema (src/storage/postgres-introspector.ts), so other stores in the
 * same database never hide or break its bookkeeping tables.
 */
export async function migrate(db: Kysely<Database>, dialect: Dialect): Promise<string[]> {
  const migrations = allMigrations(dialect);
  const provider: MigrationProvider = { getMigrations: async () => migrations };
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(`migration failed: ${typeof error === 'string' ? error : 'no error object'}`);
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** Lease logic shared by both dialects; `serialized` makes read-then-write atomic. */
export async function tryLeaseWith(storage: Storage, name: string, holder: string, ttlMs: number, nowMs: number): Promise<boolean> {
  return storage.serialized(`lease:${name}`, async (trx) => {
    const row = await trx.selectFrom('leases').selectAll().where('name', '=', name).executeTakeFirst();
    if (row && row.holder !== holder && Number(row.expires_at) > nowMs && !holderIsGone(row.holder)) return false;
    const expires = nowMs + ttlMs;
    if (row) {
      await trx.updateTable('leases').set({ holder, expires_at: expires }).where('name', '=', name).execute();
    } else {
      await trx.insertInto('leases').values({ name, holder, expires_at: expires }).execute();
    }
    return true;
  });
}

export async function releaseLeaseWith(storage: Storage, name: string, holder: string): Promise<void> {
  await storage.db.deleteFrom('leases').where('name', '=', name).where('holder', '=', holder).execute();
}

/**
 * Reads the migration table: this touches the file (or server) for real, unlike `select 1`,
 * and proves the schema the routes query is all there.
 */
export async function probeWith(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  const rows = await (db as unknown as Kysely<Record<string, { name: string }>>)
    .selectFrom(DEFAULT_MIGRATION_TABLE)
    .select('name')
    .execute();
  const applied = new Set(rows.map((r) => r.name));
  const missing = Object.keys(allMigrations(dialect)).filter((name) => !applied.has(name));
  if (missing.length > 0) throw new StorageFaultError(`the store lacks migration(s) ${missing.join(', ')}`);
}
