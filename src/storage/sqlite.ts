import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import type { Database } from './schema.js';
import { migrate, probeWith, releaseLeaseWith, tryLeaseWith, type Storage } from './storage.js';
import { busyBackoffMs, classifySqliteError, StorageBusyError } from './faults.js';
import { ResilientSqliteDialect, ResilientSqliteDriver } from './sqlite-driver.js';

export interface SqliteOptions {
  /** Path of the database file; ':memory:' for a private in-memory store. */
  file: string;
  migrate?: boolean;
  /**
   * Longest a statement waits (without blocking the event loop) while another process
   * holds the file's write lock, before it fails with `storage_busy`. Default 5000 ms.
   */
  busyWaitMs?: number;
}

export const DEFAULT_BUSY_WAIT_MS = 5000;

interface SharedHandle {
  db: Kysely<Database>;
  driver: ResilientSqliteDriver;
  refs: number;
}

// One connection per file and process: callers in this process take turns on it (the
// driver's mutex), other processes are excluded by SQLite's file locks. A second
// connection here would gain nothing for writers, who would only contend with each other.
const shared = new Map<string, SharedHandle>();

/** Opens and configures one connection; throws SQLite's error (busy included) as it is. */
function connect(file: string): BetterSqlite3.Database {
  if (file !== ':memory:') {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    if (fs.existsSync(file) && fs.lstatSync(file).isSymbolicLink()) {
      throw new Error(`refusing to open ${file}: it is a symbolic link`);
    }
  }
  // timeout 0: SQLite must never sleep inside a call — that would freeze the event loop.
  // The driver waits for locks itself, on timers.
  const handle = new BetterSqlite3(file, { timeout: 0 });
  try {
    if (file !== ':memory:') fs.chmodSync(file, 0o600);
    handle.pragma('journal_mode = WAL');
    // WAL with NORMAL sync never corrupts the file; a power cut may drop the last commits.
    // FULL would fsync on every read that records usage (about 3 ms each here).
    handle.pragma('synchronous = NORMAL');
    handle.pragma('foreign_keys = ON');
  } catch (error) {
    handle.close();
    throw error;
  }
  return handle;
}

/** `connect`, retried on timers while another process holds a lock it needs. */
async function connectWhenFree(file: string, busyWaitMs: number): Promise<BetterSqlite3.Database> {
  const started = Date.now();
  for (let attempt = 0; ; attempt++) {
    try {
      return connect(file);
    } catch (error) {
      const waited = Date.now() - started;
      if (classifySqliteError(error) !== 'busy') throw error;
      if (waited >= busyWaitMs) throw new StorageBusyError(waited, error);
      await new Promise((resolve) => setTimeout(resolve, busyBackoffMs(attempt)));
    }
  }
}

/** Opens (creating if needed) the embedded store. The data directory is private (0700). */
export async function openSqliteStorage(options: SqliteOptions): Promise<Storage> {
  const key = options.file === ':memory:' ? null : path.resolve(options.file);
  const busyWaitMs = options.busyWaitMs ?? DEFAULT_BUSY_WAIT_MS;
  let entry = key ? shared.get(key) : undefined;
  if (!entry) {
    const file = key ?? ':memory:';
    const driver = new ResilientSqliteDriver({
      file,
      handle: await connectWhenFree(file, busyWaitMs),
      connect,
      busyWaitMs,
      // A file restored from an older copy gets the schema this build expects, as a restart would.
      prepareReopened: options.migrate === false
        ? undefined
        : async (handle) => {
          await migrate(new Kysely<Database>({ dialect: new SqliteDialect({ database: handle }) }), 'sqlite');
        },
    });
    entry = { db: new Kysely<Database>({ dialect: new ResilientSqliteDialect(driver) }), driver, refs: 0 };
    if (key) shared.set(key, entry);
  }
  entry.refs++;
  const { db, driver } = entry;
  let closed = false;
  const storage: Storage = {
    dialect: 'sqlite',
    db,
    location: options.file,
    async ping() {
      await probeWith(db, 'sqlite');
      await driver.verifyFile();
      await driver.verifyWritable();
    },
    serialized(_lockName, fn) {
      // The driver lends the connection to one caller at a time, which queues callers in
      // this process; BEGIN IMMEDIATE takes the file's write lock against other processes
      // (waiting for it on timers, never inside SQLite).
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
    distrust: (reason) => driver.distrust(reason),
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
  if (options.migrate !== false) {
    try {
      await migrate(db, 'sqlite');
    } catch (error) {
      await storage.close();
      throw error;
    }
  }
  return storage;
}
