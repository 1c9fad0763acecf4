// File primitives of the job's state directory: bounded reads that refuse symbolic
// links, exclusive creates with fsync, and atomic replacement (temp file + rename).

import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { JobError, type JobFailure } from './errors.js';

// O_NOFOLLOW is not defined on Windows; lstat before opening covers it there.
const NO_FOLLOW = fs.constants.O_NOFOLLOW ?? 0;

/** Reads a regular file of at most `maxBytes`; refuses symbolic links and other kinds. */
export function readBoundedFile(file: string, maxBytes: number, failure: JobFailure): Buffer {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(file);
  } catch (error) {
    throw new JobError(failure, `${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`, { cause: error });
  }
  if (stat.isSymbolicLink()) throw new JobError(failure, `${file} is a symbolic link; refusing to follow it`);
  if (!stat.isFile()) throw new JobError(failure, `${file} is not a regular file`);
  if (stat.size > maxBytes) throw new JobError(failure, `${file} is larger than ${maxBytes} bytes`);
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | NO_FOLLOW);
  } catch (error) {
    throw new JobError(failure, `${file} cannot be opened (${(error as NodeJS.ErrnoException).code ?? 'error'})`, { cause: error });
  }
  try {
    const buffer = Buffer.alloc(maxBytes + 1);
    let length = 0;
    for (;;) {
      const n = fs.readSync(fd, buffer, length, buffer.length - length, null);
      if (n === 0) break;
      length += n;
      if (length > maxBytes) throw new JobError(failure, `${file} is larger than ${maxBytes} bytes`);
    }
    return buffer.subarray(0, length);
  } finally {
    fs.closeSync(fd);
  }
}

/** True when `p` exists (without following a final symbolic link). */
export function existsNoFollow(p: string): boolean {
  try {
    fs.lstatSync(p);
    return true;
  } catch {
    return false;
  }
}

/** Creates `file` exclusively, writes `bytes` and flushes them to disk. */
export function writeExclusive(file: string, bytes: Uint8Array, mode = 0o644): void {
  const fd = fs.openSync(file, 'wx', mode);
  try {
    let offset = 0;
    while (offset < bytes.length) offset += fs.writeSync(fd, bytes, offset, bytes.length - offset);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Flushes a directory entry change where the platform allows it (not on Windows). */
export function syncDirectory(dir: string): void {
  if (process.platform === 'win32') return;
  try {
    const fd = fs.openSync(dir, 'r');
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    // Some file systems refuse fsync on directories; the rename itself is still atomic.
  }
}

/** Replaces `file` atomically: a fully written and flushed temp file renamed over it. */
export function writeAtomic(file: string, bytes: Uint8Array): void {
  const dir = path.dirname(file);
  const temp = path.join(dir, `.${path.basename(file)}.tmp-${randomBytes(6).toString('hex')}`);
  try {
    writeExclusive(temp, bytes);
    fs.renameSync(temp, file);
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw error;
  }
  syncDirectory(dir);
}
