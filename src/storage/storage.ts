// The storage interface every area talks to. Two implementations (SQLite, PostgreSQL)
// share one Kysely query layer and one migration list; only locking differs.

import { Kysely, Migrator, sql, type MigrationProvider } from 'kysely';
import type { Database } from './schema.js';
import { allMigrations } from './migrations/index.js';

export type Dialect = 'sqlite' | 'postgres';

export interface Storage {
  readonly dialect: Dialect;
  readonly db: Kysely<Database>;
  /** Where the data lives, without credentials (for logs and `readyz`). */
  readonly location: string;
  /** Throws when the store cannot answer a trivial query. */
  ping(): Promise<void>;
  /**
   * Runs `fn` in one transaction that no other holder of `lockName` can interleave
   * with — across processes and service instances, not only inside this one. SQLite
   * uses BEGIN IMMEDIATE (one writer per file); PostgreSQL a transaction advisory lock.
   */
  serialized<T>(lockName: string, fn: (trx: Kysely<Database>) => Promise<T>): Promise<T>;
  /** Takes or renews the named lease for `holder`; false while another holder has it. */
  tryLease(name: string, holder: string, ttlMs: number, nowMs?: number): Promise<boolean>;
  releaseLease(name: string, holder: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * Applies the pending migrations. `schema` (PostgreSQL) names the schema the store lives
 * in: Kysely then looks for its bookkeeping tables there only, not in whichever schema of
 * the database happens to hold a table of that name.
 */
export async function migrate(db: Kysely<Database>, dialect: Dialect, schema?: string): Promise<string[]> {
  const migrations = allMigrations(dialect);
  const provider: MigrationProvider = { getMigrations: async () => migrations };
  const migrator = new Migrator({ db, provider, ...(schema ? { migrationTableSchema: schema } : {}) });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(`migration failed: ${typeof error === 'string' ? error : 'no error object'}`);
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** Lease logic shared by both dialects; `serialized` makes read-then-write atomic. */
export async function tryLeaseWith(storage: Storage, name: string, holder: string, ttlMs: number, nowMs: number): Promise<boolean> {
  return storage.serialized(`lease:${name}`, async (trx) => {
    const row = await trx.selectFrom('leases').selectAll().where('name', '=', name).executeTakeFirst();
    if (row && row.holder !== holder && Number(row.expires_at) > nowMs) return false;
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

export async function pingWith(db: Kysely<Database>): Promise<void> {
  await sql`select 1`.execute(db);
}
