// One run at a time per state directory, on Linux, macOS and Windows alike: the lock is a
// file created with O_EXCL holding the owner's pid, host and start time. A lock left by a
// process that no longer exists on this host is taken over; anything else is contention.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { JobError } from './errors.js';

export const LOCK_FILE = '.update.lock';
/** A lock file whose owner cannot be read is considered abandoned after this long. */
const UNREADABLE_LOCK_GRACE_MS = 10 * 60 * 1000;

interface LockOwner {
  pid: number;
  host: string;
  started_at: string;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readOwner(text: string): LockOwner | null {
  try {
    const value = JSON.parse(text) as Partial<LockOwner>;
    if (typeof value.pid === 'number' && Number.isInteger(value.pid) && value.pid > 0 && typeof value.host === 'string' && typeof value.started_at === 'string') {
      return value as LockOwner;
    }
  } catch {
    // fall through
  }
  return null;
}

function isStale(file: string, text: string): boolean {
  const owner = readOwner(text);
  if (owner === null) {
    try {
      return Date.now() - fs.statSync(file).mtimeMs > UNREADABLE_LOCK_GRACE_MS;
    } catch {
      return true;
    }
  }
  // A pid on another host says nothing about that host's processes.
  if (owner.host !== os.hostname()) return false;
  if (owner.pid === process.pid) return false;
  return !processAlive(owner.pid);
}

export interface HeldLock {
  release(): void;
}

export function acquireLock(stateDir: string, now: () => Date = () => new Date()): HeldLock {
  const file = path.join(stateDir, LOCK_FILE);
  const mine = JSON.stringify({ pid: process.pid, host: os.hostname(), started_at: now().toISOString() }) + '\n';
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = fs.openSync(file, 'wx', 0o600);
      try {
        fs.writeSync(fd, mine);
        fs.fsyncSync(fd);
      } finally {
        fs.closeSync(fd);
      }
      return {
        release() {
          try {
            if (fs.readFileSync(file, 'utf8') === mine) fs.unlinkSync(file);
          } catch {
            // Already gone: nothing to release.
          }
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new JobError('io', `cannot create the lock file ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`, { cause: error });
      }
    }
    let existing: string;
    try {
      existing = fs.readFileSync(file, 'utf8');
    } catch {
      continue; // released between our create and our read: try again
    }
    if (attempt > 0 || !isStale(file, existing)) break;
    // Remove the stale lock only if it is still the one we judged stale.
    try {
      if (fs.readFileSync(file, 'utf8') === existing) fs.unlinkSync(file);
    } catch {
      // Someone else removed it; the next exclusive create decides.
    }
  }
  throw new JobError('lock_held', `another run holds ${file}; if no job is running, delete that file`);
}
