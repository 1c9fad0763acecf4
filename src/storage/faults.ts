// What a storage failure means for the caller. Two kinds are answered by the storage
// layer itself, as registry errors, so no route can turn them into a 500:
// - busy: another process held the write lock for the whole bounded wait (`storage_busy`);
// - fault: the handle cannot be trusted any more — the file is corrupt, unreadable or gone —
//   so it is replaced by a fresh one before the store is used again (`storage_unavailable`).
// Anything else (a constraint violation, a closed store) stays the caller's to interpret.

import { AppError, CoreErrors } from '../core/errors.js';

/** Seconds a client should wait after `storage_busy` (another writer is mid-transaction). */
export const BUSY_RETRY_AFTER_SECONDS = 2;
/** Seconds a client should wait while a faulted store is being reopened. */
export const FAULT_RETRY_AFTER_SECONDS = 5;

export class StorageBusyError extends AppError {
  constructor(waitedMs: number, cause: unknown) {
    super(CoreErrors.storage_busy, `the store stayed locked by another process for ${waitedMs} ms; retry later`, {
      headers: { 'retry-after': String(BUSY_RETRY_AFTER_SECONDS) },
      cause,
    });
    this.name = 'StorageBusyError';
  }
}

export class StorageFaultError extends AppError {
  constructor(message: string, cause?: unknown) {
    super(CoreErrors.storage_unavailable, message, { headers: { 'retry-after': String(FAULT_RETRY_AFTER_SECONDS) }, cause });
    this.name = 'StorageFaultError';
  }
}

/**
 * The store refused a write for a reason outside the file (the disk is full, the file or
 * its directory became read-only, memory ran out): nothing was written and the handle is
 * still sound, so it is not reopened; the write succeeds again once the cause is gone.
 */
export class StorageRefusedError extends AppError {
  constructor(reason: string, cause?: unknown) {
    super(CoreErrors.storage_unavailable, `the store refused the write (${reason}); nothing was written; retry later`, {
      headers: { 'retry-after': String(FAULT_RETRY_AFTER_SECONDS) },
      cause,
    });
    this.name = 'StorageRefusedError';
  }
}

export type SqliteFailureKind = 'busy' | 'fault' | 'refused' | 'other';

/**
 * Sorts a better-sqlite3 error by its extended result code. Busy codes are worth
 * waiting for; fault codes say the connection's view of the file is no longer usable
 * (corrupt pages, not a database, I/O errors, the file moved or cannot be opened).
 */
export function classifySqliteError(error: unknown): SqliteFailureKind {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !code.startsWith('SQLITE_')) return 'other';
  if (code === 'SQLITE_BUSY' || code.startsWith('SQLITE_BUSY_')) return 'busy';
  if (/^SQLITE_(CORRUPT|NOTADB|IOERR|CANTOPEN)/.test(code)) return 'fault';
  if (/^SQLITE_READONLY_(DBMOVED|RECOVERY|CANTINIT|CANTLOCK|DIRECTORY)$/.test(code)) return 'fault';
  if (/^SQLITE_(FULL|READONLY|PERM|NOMEM|NOLFS)/.test(code)) return 'refused';
  return 'other';
}

/** Pause before the next try of a busy statement: 1, 2, 4, 8, 16 ms, then every 25 ms. */
export function busyBackoffMs(attempt: number): number {
  return Math.min(25, 2 ** Math.min(attempt, 5));
}
