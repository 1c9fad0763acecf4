// The Kysely driver for the embedded store. better-sqlite3 is synchronous, so anything
// that waits inside it — a busy timeout waiting for another process's write lock — stops
// the whole event loop. This driver never lets SQLite wait:
// - the connection's busy timeout is 0; a statement that finds the file locked (SQLITE_BUSY)
//   gives the connection back to other callers, sleeps on a timer and tries again, up to
//   `busyWaitMs` from its first refusal, then fails with `storage_busy`. Only statements
//   outside a transaction are retried: every transaction starts with BEGIN IMMEDIATE, which
//   is where writers contend in WAL mode, so nothing inside one ever needs a retry;
// - an error that says the connection's view of the file is broken (corrupt, not a
//   database, I/O error, moved) marks the handle faulty: callers get `storage_unavailable`
//   at once, and the next caller after a pause replaces the handle with a fresh one, but
//   only once the file passes `PRAGMA quick_check` (run in a worker thread).
// One connection per file and process stays the rule; callers take turns on it through a
// FIFO mutex, as with Kysely's own SQLite driver.

import fs from 'node:fs';
import type BetterSqlite3 from 'better-sqlite3';
import {
  CompiledQuery,
  SelectQueryNode,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
} from 'kysely';
import { busyBackoffMs, classifySqliteError, StorageBusyError, StorageFaultError, StorageRefusedError } from './faults.js';
import { checkSqliteFile, type IntegrityVerdict } from './sqlite-integrity.js';
import { DISTRUST_INTERVAL_MS } from './storage.js';

/** Pause before the first reopen after a failed one; doubles up to the maximum. */
const REOPEN_PAUSE_MS = 1000;
const REOPEN_PAUSE_MAX_MS = 10_000;
/** How often the files under the handle are looked at (see #checkFiles). */
const FILE_CHECK_MS = 500;
/** Prepared statements kept per handle (the query shapes of this service number in the tens). */
const STATEMENT_CACHE_SIZE = 256;

export interface ResilientSqliteOptions {
  /** Path of the database file, or ':memory:'. */
  file: string;
  /** The open, configured connection to start with. */
  handle: BetterSqlite3.Database;
  /** Opens and configures a new connection to `file` (used to replace a faulty one). */
  connect(file: string): BetterSqlite3.Database;
  /** Longest time a statement keeps retrying while another process holds the lock. */
  busyWaitMs: number;
  /** Brings a reopened file up to date (migrations) before it is used. */
  prepareReopened?(handle: BetterSqlite3.Database): Promise<void>;
}

class Mutex {
  #locked = false;
  readonly #waiters: Array<() => void> = [];

  lock(): Promise<void> {
    if (!this.#locked) {
      this.#locked = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  unlock(): void {
    const next = this.#waiters.shift();
    if (next) next();
    else this.#locked = false;
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function describe(error: unknown): string {
  const e = error as { code?: unknown; message?: unknown } | null;
  const text = typeof e?.code === 'string' ? `${e.code}: ${String(e.message)}` : String(e?.message ?? error);
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}

function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

export class ResilientSqliteDriver implements Driver {
  readonly #options: ResilientSqliteOptions;
  readonly #mutex = new Mutex();
  readonly #connection: DatabaseConnection;
  #handle: BetterSqlite3.Database;
  #statements = new Map<string, BetterSqlite3.Statement>();
  /** Bumped whenever the handle is replaced, so stale verdicts are ignored. */
  #generation = 0;
  #fault: string | null = null;
  /**
   * Why a write was refused (a full disk, say), until readiness's own probe write fits
   * (verifyWritable): a small write that fits in free pages proves nothing about the next one.
   */
  #refused: string | null = null;
  #reopenAt = 0;
  /** The file the handle has open (device and inode), to notice it removed or replaced. */
  #identity: FileIdentity;
  #nextFileCheck = 0;
  /** Set when the file was removed or replaced: the old handle is closed before any other opens the path. */
  #replaced = false;
  /** The write-ahead log the handle uses, once it exists: the one to remove with a replaced file. */
  #walIdentity: FileIdentity = null;
  #reopenPauseMs = REOPEN_PAUSE_MS;
  #reopening = false;
  #distrustedAt = -Infinity;
  #verdict: { generation: number; result: Promise<IntegrityVerdict> } | null = null;
  #closed = false;

  constructor(options: ResilientSqliteOptions) {
    this.#options = options;
    this.#handle = options.handle;
    this.#identity = identityOf(options.file);
    this.#connection = {
      executeQuery: (query) => this.#execute(query),
      streamQuery: (query) => this.#stream(query),
    };
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    this.#checkFiles();
    if (this.#fault !== null && !this.#closed) await this.#recover();
    await this.#mutex.lock();
    try {
      this.#usableHandle();
    } catch (error) {
      this.#mutex.unlock();
      throw error;
    }
    return this.#connection;
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`savepoint ${quoteIdentifier(name)}`));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`rollback to ${quoteIdentifier(name)}`));
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`release ${quoteIdentifier(name)}`));
  }

  async releaseConnection(): Promise<void> {
    this.#mutex.unlock();
  }

  async destroy(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#statements.clear();
    this.#handle.close();
  }

  /**
   * Resolves when the file behind the current handle has passed a full structural check
   * (run once per handle, on demand); rejects with `storage_unavailable` — and marks the
   * handle faulty — when it has not.
   */
  /**
   * For readiness after a refused write: a write that changes nothing in the end (a probe
   * row inserted and deleted in one transaction) still needs room for its pages, so it
   * succeeds only once the cause (a full disk, a read-only file) is gone. The row is as large
   * as a typical source document (256 KiB), so "ready" means such writes fit again.
   */
  async verifyWritable(): Promise<void> {
    if (this.#refused === null) return;
    await this.#mutex.lock();
    try {
      const handle = this.#usableHandle();
      try {
        handle.transaction(() => {
          handle.prepare("insert into leases (name, holder, expires_at) values ('storage-write-probe', hex(zeroblob(131072)), 0)").run();
          handle.prepare("delete from leases where name = 'storage-write-probe'").run();
        }).immediate();
        this.#refused = null;
      } catch (error) {
        const kind = classifySqliteError(error);
        if (kind === 'refused') this.#refused = describe(error);
        throw kind === 'refused' ? new StorageRefusedError(this.#refused!, error) : error;
      }
    } finally {
      this.#mutex.unlock();
    }
  }

  /**
   * The files under the handle, at most every FILE_CHECK_MS. SQLite keeps using what it has
   * open, so it never notices:
   * - the store file removed or replaced (another inode at the path): every later write
   *   would go to a file nobody will open again; the handle is marked faulty, closed, and
   *   replaced only by one on a file at the path that passes the check (none while it is
   *   missing or empty). A file put in place must come alone (checkpointed, as `.backup` or
   *   `VACUUM INTO` make it): the old file's log beside it is removed with the old handle;
   * - the write-ahead log removed: committed writes not yet in the store file would live
   *   only in the unlinked log and be lost at the next crash. They are checkpointed into
   *   the store file through the open log first, then the handle is replaced (with a new log).
   */
  #checkFiles(): void {
    const file = this.#options.file;
    if (file === ':memory:' || this.#fault !== null || this.#closed) return;
    const now = Date.now();
    if (now < this.#nextFileCheck) return;
    this.#nextFileCheck = now + FILE_CHECK_MS;
    const identity = identityOf(file);
    if (!sameFile(identity, this.#identity)) {
      this.#replaced = true;
      this.#markFaulty(identity === null ? 'the store file was removed under the running service' : 'the store file was replaced under the running service');
      return;
    }
    const wal = identityOf(`${file}-wal`);
    if (wal !== null) this.#walIdentity ??= wal;
    if (wal === null && this.#handle.pragma('journal_mode', { simple: true }) === 'wal') {
      try {
        this.#handle.pragma('wal_checkpoint(TRUNCATE)');
      } catch {
        // Whatever could not be saved is lost with the log; the handle is replaced either way.
      }
      this.#markFaulty('the store\'s write-ahead log was removed under the running service; what it held was written into the store file');
    }
  }

  async verifyFile(): Promise<void> {
    if (this.#options.file === ':memory:') return;
    this.#nextFileCheck = 0;
    this.#checkFiles();
    if (this.#fault !== null) throw new StorageFaultError(`the store is unusable (${this.#fault}); it will be reopened`);
    const generation = this.#generation;
    if (this.#verdict?.generation !== generation) this.#verdict = { generation, result: checkSqliteFile(this.#options.file) };
    const verdict = await this.#verdict.result;
    if (verdict.ok) return;
    const reason = `the store file failed its integrity check: ${verdict.detail ?? 'unknown problem'}`;
    if (generation === this.#generation) this.#markFaulty(reason);
    throw new StorageFaultError(reason);
  }

  #usableHandle(): BetterSqlite3.Database {
    if (this.#closed) throw new Error('the store is closed');
    if (this.#fault !== null) throw new StorageFaultError(`the store is unusable (${this.#fault}); it will be reopened`);
    return this.#handle;
  }

  #prepare(handle: BetterSqlite3.Database, text: string): BetterSqlite3.Statement {
    let statement = this.#statements.get(text);
    if (!statement) {
      statement = handle.prepare(text);
      if (this.#statements.size >= STATEMENT_CACHE_SIZE) this.#statements.delete(this.#statements.keys().next().value!);
      this.#statements.set(text, statement);
    }
    return statement;
  }

  async #execute<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    let firstRefusal: number | undefined;
    for (let attempt = 0; ; attempt++) {
      // A faulty handle already rolled back whatever was open; the caller's rollback is moot.
      if (this.#fault !== null && /^\s*rollback\s*$/i.test(query.sql)) return { rows: [] };
      const handle = this.#usableHandle();
      try {
        const statement = this.#prepare(handle, query.sql);
        if (statement.reader) return { rows: statement.all(query.parameters) as R[] };
        const { changes, lastInsertRowid } = statement.run(query.parameters);
        // The log exists once something was written; remembered for a replaced file (see #reopen).
        if (this.#walIdentity === null && this.#options.file !== ':memory:') this.#walIdentity = identityOf(`${this.#options.file}-wal`);
        return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
      } catch (error) {
        const kind = classifySqliteError(error);
        if (kind === 'fault') {
          const reason = describe(error);
          this.#markFaulty(reason);
          throw new StorageFaultError(`the store failed and will be reopened: ${reason}`, error);
        }
        if (kind === 'refused') {
          this.#refused = describe(error);
          throw new StorageRefusedError(this.#refused, error);
        }
        if (kind !== 'busy') throw error;
        const now = Date.now();
        firstRefusal ??= now;
        if (handle.inTransaction || now - firstRefusal >= this.#options.busyWaitMs) throw new StorageBusyError(now - firstRefusal, error);
        // Nothing of ours is open on the connection: let other callers use it meanwhile.
        this.#mutex.unlock();
        try {
          await sleep(busyBackoffMs(attempt));
        } finally {
          await this.#mutex.lock();
        }
      }
    }
  }

  async *#stream<R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    if (!SelectQueryNode.is(query.query)) throw new Error('the SQLite driver streams select queries only');
    const handle = this.#usableHandle();
    try {
      // Not cached: an iterating statement cannot be used by anyone else until it finishes.
      for (const row of handle.prepare(query.sql).iterate(query.parameters)) yield { rows: [row as R] };
    } catch (error) {
      const kind = classifySqliteError(error);
      if (kind === 'fault') {
        this.#markFaulty(describe(error));
        throw new StorageFaultError(`the store failed and will be reopened: ${describe(error)}`, error);
      }
      if (kind === 'busy') throw new StorageBusyError(0, error);
      if (kind === 'refused') throw new StorageRefusedError(describe(error), error);
      throw error;
    }
  }

  /** See Storage.distrust. */
  distrust(reason: string): void {
    if (this.#options.file === ':memory:' || this.#fault !== null || this.#closed) return;
    const now = Date.now();
    if (now - this.#distrustedAt < DISTRUST_INTERVAL_MS) return;
    this.#distrustedAt = now;
    this.#markFaulty(`a value read from the store failed its check (${reason.slice(0, 200)}); the file is checked and reopened`);
  }

  #markFaulty(reason: string): void {
    if (this.#fault !== null) return;
    this.#fault = reason;
    this.#reopenAt = Date.now();
    // Give up any transaction at once, so other processes are not kept waiting on its lock.
    try {
      if (this.#handle.inTransaction) this.#handle.exec('rollback');
    } catch {
      // The handle is being replaced anyway.
    }
  }

  /** Replaces a faulty handle, at most one attempt at a time and not more often than the pause allows. */
  async #recover(): Promise<void> {
    const fault = this.#fault;
    if (this.#reopening || Date.now() < this.#reopenAt) {
      throw new StorageFaultError(`the store is unusable (${fault}); it is being reopened`);
    }
    this.#reopening = true;
    try {
      await this.#reopen();
      this.#reopenPauseMs = REOPEN_PAUSE_MS;
    } catch (error) {
      this.#reopenAt = Date.now() + this.#reopenPauseMs;
      this.#reopenPauseMs = Math.min(REOPEN_PAUSE_MAX_MS, this.#reopenPauseMs * 2);
      throw error instanceof StorageFaultError ? error : new StorageFaultError(`the store could not be reopened: ${describe(error)}`, error);
    } finally {
      this.#reopening = false;
    }
  }

  async #reopen(): Promise<void> {
    const { file } = this.#options;
    if (file === ':memory:') throw new StorageFaultError('an in-memory store cannot be reopened');
    if (this.#replaced) {
      // The log and index beside the path are the old file's. Closing its last handle lets
      // SQLite fold the log into the old file and remove both, so no connection to whatever
      // is (or will be) at the path applies the old file's pages to it.
      await this.#mutex.lock();
      try {
        this.#handle.close();
      } catch {
        // Closing a faulty handle may fail; it is dropped either way.
      } finally {
        this.#mutex.unlock();
      }
      // SQLite leaves the log of a file that moved away in place: if the log at the path is
      // still the old handle's, it and its index go (a log that came with the new file stays).
      if (sameFile(identityOf(`${file}-wal`), this.#walIdentity)) {
        fs.rmSync(`${file}-wal`, { force: true });
        fs.rmSync(`${file}-shm`, { force: true });
      }
      this.#replaced = false;
    }
    // A missing or emptied file is not a new store to set up: it is waited for (restored) instead.
    const size = fs.statSync(file, { throwIfNoEntry: false })?.size;
    if (size === undefined || size === 0) throw new StorageFaultError(`the store file ${size === undefined ? 'is missing' : 'is empty'}; restore it (or restart to begin a new store)`);
    const verdict = await checkSqliteFile(file);
    if (!verdict.ok) throw new StorageFaultError(`the store file failed its integrity check: ${verdict.detail ?? 'unknown problem'}`);
    const fresh = this.#options.connect(file);
    try {
      await this.#options.prepareReopened?.(fresh);
    } catch (error) {
      fresh.close();
      throw error;
    }
    await this.#mutex.lock();
    try {
      if (this.#closed) {
        fresh.close();
        throw new Error('the store is closed');
      }
      try {
        this.#handle.close();
      } catch {
        // Closing a faulty handle may fail; it is dropped either way (closing twice is harmless).
      }
      this.#identity = identityOf(file);
      // The new handle's log is learnt afresh (a removed log is replaced by a new one).
      this.#walIdentity = null;
      this.#handle = fresh;
      this.#statements = new Map();
      this.#generation++;
      this.#verdict = { generation: this.#generation, result: Promise.resolve(verdict) };
      this.#fault = null;
    } finally {
      this.#mutex.unlock();
    }
  }
}

type FileIdentity = { dev: number; ino: number } | null;

function identityOf(file: string): FileIdentity {
  if (file === ':memory:') return null;
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  return stat === undefined ? null : { dev: stat.dev, ino: stat.ino };
}

/** Whether both name one existing file. */
function sameFile(a: FileIdentity, b: FileIdentity): boolean {
  return a !== null && b !== null && a.dev === b.dev && a.ino === b.ino;
}

export class ResilientSqliteDialect implements Dialect {
  constructor(readonly driver: ResilientSqliteDriver) {}
  createDriver(): Driver {
    return this.driver;
  }
  createAdapter() {
    return new SqliteAdapter();
  }
  createIntrospector(db: Kysely<unknown>) {
    return new SqliteIntrospector(db);
  }
  createQueryCompiler() {
    return new SqliteQueryCompiler();
  }
}
