// Request aggregates of callers without a key, summed in memory and written in one
// transaction about once a second, so an anonymous read costs no store write of its own.
// Keyed measurement stays exact (measure.ts writes it inside the serialized section).
//
// What can be lost: the counts of at most the last flush window (FLUSH_INTERVAL_MS, plus a
// flush in flight) when the process dies without closing. A clean shutdown flushes
// (`closeAnonymousCounts`, called when the HTTP app closes). A flush that fails keeps its
// counts in memory and retries at the next tick; until a flush succeeds again, and while a
// count waits longer than OVERDUE_MS (a stalled write), the buffer reports itself unhealthy
// so responses say `X-Usage-Recorded: unavailable`, as a failed direct write did. Memory is
// bounded by the distinct (day, class, outcome) triples.

import { sql } from 'kysely';
import type { Storage } from '../storage/storage.js';
import { AGGREGATE_COUNT_CAP } from './measure.js';
import { purgeOncePerDay } from './retention.js';
import type { AggregateClass, UsageOutcome } from './tables.js';

export const FLUSH_INTERVAL_MS = 1000;
/**
 * A count not written this long after it was taken is overdue: its write is stalled (an
 * outside write lock, a store that stopped answering) and a crash now would lose it, so
 * answers say `unavailable` until a write succeeds. Without it a stalled write went
 * unflagged for the whole busy wait (5 s) and a crash then lost every count since.
 */
export const OVERDUE_MS = 2 * FLUSH_INTERVAL_MS;

type Key = `${string}|${AggregateClass}|${UsageOutcome}`;

class AnonymousCounts {
  private pending = new Map<Key, number>();
  private timer: NodeJS.Timeout | undefined;
  private inFlight: Promise<void> | undefined;
  /** False while the last flush failed and no later one succeeded. */
  private failed = false;
  /** When the oldest count in `pending`, and in the batch being written, was taken. */
  private pendingSince: number | undefined;
  private writingSince: number | undefined;

  constructor(private readonly storage: Storage) {}

  add(day: string, trafficClass: AggregateClass, outcome: UsageOutcome): void {
    const key: Key = `${day}|${trafficClass}|${outcome}`;
    this.pending.set(key, (this.pending.get(key) ?? 0) + 1);
    this.pendingSince ??= Date.now();
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      void this.flush().catch(() => undefined);
    }, FLUSH_INTERVAL_MS).unref();
  }

  /** Writes what is pending; concurrent callers wait for the same write and then any newer counts. */
  async flush(): Promise<void> {
    while (this.inFlight) await this.inFlight.catch(() => undefined);
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    this.writingSince = this.pendingSince;
    this.pendingSince = undefined;
    const write = this.write(batch).then(
      () => {
        this.failed = false;
        this.writingSince = undefined;
      },
      (error: unknown) => {
        this.failed = true;
        // Kept for the next attempt, merged with what arrived meanwhile.
        for (const [key, n] of batch) this.pending.set(key, (this.pending.get(key) ?? 0) + n);
        this.pendingSince = Math.min(this.writingSince ?? Infinity, this.pendingSince ?? Infinity);
        this.writingSince = undefined;
        if (!this.timer && this.pending.size > 0) {
          this.timer = setTimeout(() => {
            this.timer = undefined;
            void this.flush().catch(() => undefined);
          }, FLUSH_INTERVAL_MS).unref();
        }
        throw error;
      },
    );
    this.inFlight = write;
    try {
      await write;
    } finally {
      this.inFlight = undefined;
    }
  }

  /** Whether the counts taken are being written as promised: no failed write, none overdue. */
  healthy(now = Date.now()): boolean {
    if (this.failed) return false;
    const oldest = Math.min(this.writingSince ?? Infinity, this.pendingSince ?? Infinity);
    return now - oldest <= OVERDUE_MS;
  }

  async close(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.flush();
  }

  private async write(batch: Map<Key, number>): Promise<void> {
    const rows = [...batch].map(([key, n]) => {
      const [day, trafficClass, outcome] = key.split('|') as [string, AggregateClass, UsageOutcome];
      return { day, traffic_class: trafficClass, outcome, count: Math.min(n, AGGREGATE_COUNT_CAP) };
    });
    for (const day of new Set(rows.map((r) => r.day))) await purgeOncePerDay(this.storage, day);
    // One statement for the whole window; the keys are distinct, so each row is upserted once.
    await this.storage.db
      .insertInto('aggregates')
      .values(rows)
      .onConflict((oc) =>
        oc.columns(['day', 'traffic_class', 'outcome']).doUpdateSet({
          count: sql<number>`case when aggregates.count >= ${AGGREGATE_COUNT_CAP} then aggregates.count when aggregates.count + excluded.count < ${AGGREGATE_COUNT_CAP} then aggregates.count + excluded.count else ${AGGREGATE_COUNT_CAP} end`,
        }),
      )
      .execute();
  }
}

const buffers = new WeakMap<Storage, AnonymousCounts>();

function bufferFor(storage: Storage): AnonymousCounts {
  let buffer = buffers.get(storage);
  if (!buffer) buffers.set(storage, (buffer = new AnonymousCounts(storage)));
  return buffer;
}

/** Counts one anonymous response; true while the buffer's writes succeed. */
export function countAnonymous(storage: Storage, day: string, trafficClass: AggregateClass, outcome: UsageOutcome): boolean {
  const buffer = bufferFor(storage);
  buffer.add(day, trafficClass, outcome);
  return buffer.healthy();
}

/** Writes the counts pending for this store now (readers of the aggregates call it first). */
export async function flushAnonymousCounts(storage: Storage): Promise<void> {
  await buffers.get(storage)?.flush();
}

/** Stops the timer and writes what is pending (on shutdown). */
export async function closeAnonymousCounts(storage: Storage): Promise<void> {
  await buffers.get(storage)?.close();
}
