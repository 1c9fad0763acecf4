// The current packet, kept in memory once verified, so reading immutable evidence costs
// next to nothing. What is kept are the stored facts (the newest attempt row and the
// verified packet with its bytes and digests, or why it failed verification), never a
// verdict that depends on the clock: freshness and clock sanity are judged per request by
// latest.ts against the caller's "now".
//
// When the store is asked again, per cache (one per store handle and mode), with "now"
// from the service clock:
// - a capture through this handle drops the cache at once (`invalidateCurrentPacket`);
// - at most CHANGE_CHECK_INTERVAL after the last check, a request first reads the archive's
//   change counter (`funding_revision`, bumped by triggers on every write to packets and
//   attempts, by any instance or by hand) and reloads everything when it moved — this is
//   how a capture made by another instance on the same database, or a tampered row,
//   reaches this one;
// - at most REVERIFY_INTERVAL after the last load, the packet is reloaded from the store
//   and its artifact hashes recomputed whatever the counter says (a change that bypassed
//   the triggers: a restored file, a counter written back by hand).
// Concurrent requests that find a check due share one store round trip. A store that
// fails a check fails the request (503), as a read without the cache would.

import type { Kysely } from 'kysely';
import type { Instant } from '../core/time.js';
import type { Database } from '../storage/schema.js';
import type { Storage } from '../storage/storage.js';
import { findPacket, newestAttempt, type AttemptRow } from './archive.js';
import { PacketVerificationError, type VerifiedPacket } from './verify.js';
import { verifyReadPacket } from './verify-read.js';

/** Longest a cached state is used without asking the change counter (µs). */
export const CHANGE_CHECK_INTERVAL_US = 1_000_000n;
/** Longest the cached packet goes without being re-read and re-hashed from the store (µs). */
export const REVERIFY_INTERVAL_US = 10_000_000n;

/** The packet the newest successful attempt names, as the store holds it. */
export type StoredPacket =
  | { kind: 'verified'; packet: VerifiedPacket }
  | { kind: 'missing' }
  | { kind: 'invalid'; error: PacketVerificationError };

export interface StoredCurrent {
  /** The newest attempt of the mode (the live pointer), if any. */
  attempt: AttemptRow | undefined;
  /** Only when that attempt succeeded. */
  packet: StoredPacket | undefined;
}

type Db = Kysely<Database>;

interface Entry {
  state: StoredCurrent | undefined;
  revision: number;
  checkedAt: Instant;
  verifiedAt: Instant;
  pending: Promise<StoredCurrent> | undefined;
  /** Bumped by invalidation, so a load that started before it cannot install its result. */
  epoch: number;
}

const caches = new WeakMap<Db, Map<string, Entry>>();

function entryFor(db: Db, mode: string): Entry {
  let byMode = caches.get(db);
  if (!byMode) caches.set(db, (byMode = new Map<string, Entry>()));
  let entry = byMode.get(mode);
  if (!entry) byMode.set(mode, (entry = { state: undefined, revision: -1, checkedAt: 0n, verifiedAt: 0n, pending: undefined, epoch: 0 }));
  return entry;
}

/** True once `interval` has passed since `at`, or when the clock went backwards. */
function due(now: Instant, at: Instant, interval: bigint): boolean {
  return now - at >= interval || now < at;
}

async function readRevision(db: Db): Promise<number> {
  const row = await db.selectFrom('funding_revision').select('revision').where('id', '=', 1).executeTakeFirst();
  return Number(row?.revision ?? -1);
}

/** Reads the newest attempt and, when it succeeded, loads and verifies its packet. */
export async function loadStoredCurrent(storage: Pick<Storage, 'db' | 'distrust'>, mode: string): Promise<StoredCurrent> {
  const db = storage.db;
  const attempt = await newestAttempt(db, mode);
  if (!attempt || attempt.outcome === 'failed' || attempt.packet_id === null || attempt.error !== null) return { attempt, packet: undefined };
  const row = await findPacket(db, attempt.packet_id);
  if (!row || row.mode !== mode) return { attempt, packet: { kind: 'missing' } };
  try {
    return { attempt, packet: { kind: 'verified', packet: verifyReadPacket(storage, row) } };
  } catch (error) {
    if (error instanceof PacketVerificationError) return { attempt, packet: { kind: 'invalid', error } };
    throw error;
  }
}

async function refresh(entry: Entry, storage: Storage, mode: string, now: Instant): Promise<StoredCurrent> {
  const epoch = entry.epoch;
  // The counter is read before the rows: a write landing in between leaves a newer counter
  // than the one recorded here, so the next check loads again.
  const revision = await readRevision(storage.db);
  let state = entry.state;
  let verifiedAt = entry.verifiedAt;
  if (state === undefined || revision !== entry.revision || due(now, entry.verifiedAt, REVERIFY_INTERVAL_US)) {
    state = await loadStoredCurrent(storage, mode);
    verifiedAt = now;
  }
  if (entry.epoch === epoch) Object.assign(entry, { state, revision, checkedAt: now, verifiedAt });
  return state;
}

/**
 * The stored current state of `mode`, from memory when it was checked less than
 * CHANGE_CHECK_INTERVAL ago, else after a change check (and a reload when needed).
 * Rejects when the store cannot be read.
 */
export function storedCurrent(storage: Storage, mode: string, now: Instant): Promise<StoredCurrent> {
  const fresh = freshStoredCurrent(storage, mode, now);
  if (fresh !== undefined) return Promise.resolve(fresh);
  const entry = entryFor(storage.db, mode);
  if (entry.pending) return entry.pending;
  const pending = refresh(entry, storage, mode, now).finally(() => {
    if (entry.pending === pending) entry.pending = undefined;
  });
  entry.pending = pending;
  return pending;
}

/**
 * What storedCurrent would answer from memory, at once: the cached state while it was
 * checked less than CHANGE_CHECK_INTERVAL ago; undefined when the store must be asked.
 */
export function freshStoredCurrent(storage: Storage, mode: string, now: Instant): StoredCurrent | undefined {
  const entry = entryFor(storage.db, mode);
  return entry.state !== undefined && !due(now, entry.checkedAt, CHANGE_CHECK_INTERVAL_US) ? entry.state : undefined;
}

/** Forgets what is cached for this store handle (every mode): the next read loads afresh. */
export function invalidateCurrentPacket(storage: Pick<Storage, 'db'>): void {
  for (const entry of caches.get(storage.db)?.values() ?? []) {
    entry.epoch += 1;
    entry.state = undefined;
    entry.pending = undefined;
  }
}
