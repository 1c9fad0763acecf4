// Who holds a lease, precisely enough to tell later that the holder has died. A process is
// named by its host, the kernel's boot id, its pid namespace, its pid and its start time
// (clock ticks since boot, from /proc). A holder counts as dead only when all of this can
// be checked from here — same host, same boot, same pid namespace — and no process with
// that pid and start time exists any more (pid reuse is caught by the start time).
// Everywhere else (another host or container, no /proc) the answer is "cannot tell", and
// only the lease's expiry frees it: a wrong "dead" would let two captures run at once.

import fs from 'node:fs';
import os from 'node:os';

export interface ProcessIdentity {
  host: string;
  /** /proc/sys/kernel/random/boot_id; null where the kernel does not offer one. */
  boot: string | null;
  /** The pid namespace (e.g. `pid:[4026531836]`); null without /proc. */
  pidns: string | null;
  pid: number;
  /** Start time in clock ticks since boot (field 22 of /proc/<pid>/stat); null without /proc. */
  start: string | null;
}

function readOrNull(read: () => string): string | null {
  try {
    return read().trim() || null;
  } catch {
    return null;
  }
}

type ProcessState = { kind: 'absent' } | { kind: 'running'; start: string } | { kind: 'unknown' };

/** What /proc says about `pid`; a zombie counts as absent (it holds nothing any more). */
function processState(pid: number): ProcessState {
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? { kind: 'absent' } : { kind: 'unknown' };
  }
  // The command name (field 2) may contain spaces and parentheses: count fields after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const state = fields[0];
  const start = fields[19];
  if (state === 'Z' || state === 'X') return { kind: 'absent' };
  return start ? { kind: 'running', start } : { kind: 'unknown' };
}

let self: ProcessIdentity | undefined;

export function currentProcess(): ProcessIdentity {
  if (!self) {
    const state = process.platform === 'linux' ? processState(process.pid) : { kind: 'unknown' as const };
    self = {
      host: os.hostname(),
      boot: process.platform === 'linux' ? readOrNull(() => fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8')) : null,
      pidns: process.platform === 'linux' ? readOrNull(() => fs.readlinkSync('/proc/self/ns/pid')) : null,
      pid: process.pid,
      start: state.kind === 'running' ? state.start : null,
    };
  }
  return self;
}

/** True only when `holder` provably no longer runs (see the rule at the top of this file). */
export function isProvablyGone(holder: ProcessIdentity, here: ProcessIdentity = currentProcess()): boolean {
  if (holder.host !== here.host || holder.boot === null || holder.boot !== here.boot) return false;
  if (holder.pidns === null || holder.pidns !== here.pidns || holder.start === null || here.start === null) return false;
  if (holder.pid === here.pid) return holder.start !== here.start;
  const state = processState(holder.pid);
  if (state.kind === 'absent') return true;
  return state.kind === 'running' && state.start !== holder.start;
}

/** The identity of another process on this host, as it would record itself (tests, diagnostics). */
export function identityOf(pid: number): ProcessIdentity | null {
  const here = currentProcess();
  const state = processState(pid);
  if (state.kind !== 'running') return null;
  return { ...here, pid, start: state.start };
}
