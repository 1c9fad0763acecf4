import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import type { Database } from './schema.js';
import { migrate, pingWith, releaseLeaseWith, tryLeaseWith, type Storage } from './storage.js';

export interface SqliteOptions {
  /** Path of the database file; ':memory:' for a private in-memory store. */
  file: string;
  migrate?: boolean;
}

interface SharedHandle {
  db: Kysely<Database>;
  refs: number;
}

// better-sqlite3 is synchronous: a second connection to the same file inside this
// process would block the event loop while the first one holds the write lock, and
// the holder could never finish. So one process keeps one connection per file, shared
// by every Storage opened on it; other processes are excluded by SQLite's file locks.
const shared = new Map<string, SharedHandle>();

function openHandle(file: string): Kysely<Database> {
  if (file !== ':memory:') {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    if (fs.existsSync(file) && fs.lstatSync(file).isSymbolicLink()) {
      throw new Error(`refusing to open ${file}: it is a symbolic link`);
    }
  }
  const handle = new BetterSqlite3(file);
  if (file !== ':memory:') fs.chmodSync(file, 0o600);
  handle.pragma('journal_mode = WAL');
  // WAL with NORMAL sync never corrupts the file; a power cut may drop the last commits.
  // FULL would fsync on every read that records usage (about 3 ms each here).
  handle.pragma('synchronous = NORMAL');
  handle.pragma('busy_timeout = 5000');
  handle.pragma('foreign_keys = ON');
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: handle }) });
}

/** Opens (creating if needed) the embedded store. The data directory is private (0700). */
export async function openSqliteStorage(options: SqliteOptions): Promise<Storage> {
  const key = options.file === ':memory:' ? null : path.resolve(options.file);
  let entry = key ? shared.get(key) : undefined;
  if (!entry) {
    entry = { db: openHandle(key ?? ':memory:'), refs: 0 };
    if (key) shared.set(key, entry);
  }
  entry.refs++;
  const { db } = entry;
  let closed = false;
  const storage: Storage = {
    dialect: 'sqlite',
    db,
    location: options.file,
    ping: () => pingWith(db),
    serialized(_lockName, fn) {
      // Kysely lends the connection to one caller at a time, which queues callers in
      // this process; BEGIN IMMEDIATE takes the file's write lock against other processes.
      return db.connection().execute(async (conn) => {
        await sql`begin immediate`.execute(conn);
        try {
          const result = await fn(conn);
          await sql`commit`.execute(conn);
          return result;
        } catch (error) {
          await sql`rollback`.execute(conn).catch(() => undefined);
          throw error;
        }
      });
    },
    tryLease: (name, holder, ttlMs, nowMs = Date.now()) => tryLeaseWith(storage, name, holder, ttlMs, nowMs),
    releaseLease: (name, holder) => releaseLeaseWith(storage, name, holder),
    async close() {
      if (closed) return;
      closed = true;
      entry.refs--;
      if (entry.refs === 0) {
        if (key) shared.delete(key);
        await db.destroy();
      }
    },
  };
  if (options.migrate !== false) await migrate(db, 'sqlite');
  return storage;
}
