// Lowers the scheduling priority of the calling worker thread, so that on a busy machine
// the event loop (interactive reads: funding, data, health) wins the CPU over long
// computations running beside it. Best effort and Linux only: there a thread is a kernel
// task with its own nice value, found through /proc/thread-self, and setpriority(2) on
// that task id (os.setPriority) changes that thread alone. Raising niceness needs no
// privilege; nothing here ever lowers it. Elsewhere (or when /proc is not mounted) it does
// nothing and says why. The V8 and libuv helper threads (GC, file system) are shared by
// the whole process and keep their priority.
import fs from 'node:fs';
import os from 'node:os';
import { isMainThread } from 'node:worker_threads';

/** The niceness of analysis worker threads: under contention the event loop gets ~90% of a core against one (CFS weights 1024 : 110). */
export const ANALYSIS_THREAD_NICENESS = 10;

export type PriorityOutcome =
  | { applied: true; tid: number; niceness: number; before: number }
  | { applied: false; reason: string };

/** The kernel task id of the calling thread (Linux), or undefined where there is none to find. */
export function currentThreadTid(): number | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    const match = /\/task\/(\d+)$/.exec(fs.readlinkSync('/proc/thread-self'));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Sets the calling worker thread's niceness to at least `niceness` (−20…19, higher is
 * lower priority). Never applied to the main thread (threads started later would inherit
 * it, and the event loop is what it protects). Never throws: the outcome says what was done.
 */
export function lowerThreadPriority(niceness: number): PriorityOutcome {
  if (isMainThread) return { applied: false, reason: 'the main thread keeps its priority' };
  const tid = currentThreadTid();
  if (tid === undefined) return { applied: false, reason: 'no per-thread priority here (Linux /proc/thread-self not available)' };
  try {
    const before = os.getPriority(tid);
    if (before < niceness) os.setPriority(tid, Math.min(19, niceness));
    return { applied: true, tid, niceness: os.getPriority(tid), before };
  } catch (error) {
    return { applied: false, reason: `setpriority refused: ${error instanceof Error ? error.message : String(error)}` };
  }
}
