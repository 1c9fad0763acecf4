// Named leases with holders that can be recognised after a crash.
//
// A holder string is the JSON of a random token plus the holding process's identity
// (src/storage/process-identity.ts). Whoever finds a lease held by a process that provably
// died — same host, boot and pid namespace, pid gone or reused — may take it over at once;
// otherwise the lease is freed by its expiry. Holders renew their lease while they work, so
// the expiry can be short and a holder that died elsewhere costs at most one short TTL.

import { randomBytes } from 'node:crypto';
import { currentProcess, isProvablyGone, type ProcessIdentity } from './process-identity.js';
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';
import type { Dialect, Storage } from './storage.js';

interface HolderRecord extends ProcessIdentity {
  token: string;
}

/** A new holder name for this process: unique per acquisition, carrying this process's identity. */
export function newLeaseHolder(): string {
  const { host, boot, pidns, pid, start } = currentProcess();
  const record: HolderRecord = { token: randomBytes(12).toString('hex'), host, boot, pidns, pid, start };
  return JSON.stringify(record);
}

function parseHolder(holder: string): ProcessIdentity | null {
  if (!holder.startsWith('{')) return null;
  try {
    const r = JSON.parse(holder) as Partial<HolderRecord>;
    const text = (v: unknown) => (typeof v === 'string' ? v : null);
    if (typeof r.host !== 'string' || typeof r.pid !== 'number' || !Number.isSafeInteger(r.pid)) return null;
    return { host: r.host, boot: text(r.boot), pidns: text(r.pidns), pid: r.pid, start: text(r.start) };
  } catch {
    return null;
  }
}

/** True when `holder` names a process that provably no longer runs (never for opaque names). */
export function holderIsGone(holder: string): boolean {
  const identity = parseHolder(holder);
  return identity !== null && isProvablyGone(identity);
}

export interface HeldLease {
  readonly holder: string;
  /** False once a renewal found the lease taken by someone else. */
  readonly held: boolean;
  /** Stops renewing and gives the lease up. Never throws. */
  release(): Promise<void>;
  /** In the transaction that writes the leased task's result: throws LeaseLostError unless the lease is still held. */
  fence(trx: Kysely<Database>): Promise<void>;
}

export interface LeaseOptions {
  ttlMs: number;
  /** Wall clock in ms (tests move it); defaults to Date.now. */
  nowMs?: () => number;
}

/**
 * Takes the named lease and renews it every third of its TTL until released; null when
 * another live holder has it. A renewal that fails on a storage error is retried at the next
 * renewal — the lease stays valid until its expiry meanwhile.
 */
export async function acquireLease(storage: Storage, name: string, options: LeaseOptions): Promise<HeldLease | null> {
  const now = options.nowMs ?? Date.now;
  const holder = newLeaseHolder();
  if (!(await storage.tryLease(name, holder, options.ttlMs, now()))) return null;
  let held = true;
  let renewing: Promise<void> | undefined;
  const timer = setInterval(() => {
    if (renewing) return;
    renewing = storage
      .tryLease(name, holder, options.ttlMs, now())
      .then((ok) => {
        if (!ok) held = false;
      }, () => undefined)
      .finally(() => {
        renewing = undefined;
      });
  }, Math.max(1, Math.floor(options.ttlMs / 3)));
  timer.unref();
  return {
    holder,
    get held() {
      return held;
    },
    fence: (trx) => assertLeaseHeld(trx, storage.dialect, name, holder, now()),
    async release() {
      clearInterval(timer);
      await renewing;
      if (held) await storage.releaseLease(name, holder).catch(() => undefined);
    },
  };
}

/** A holder found, at the moment of writing, that its lease is no longer its own. */
export class LeaseLostError extends Error {
  constructor(readonly lease: string) {
    super(`the ${lease} lease is no longer held by this holder`);
    this.name = 'LeaseLostError';
  }
}

/**
 * Fencing: inside the transaction that writes a leased task's result, proves the lease is
 * still this holder's and unexpired, or throws LeaseLostError so nothing is written. A holder
 * that stalled past its expiry (a paused process, a stalled network) may still be running
 * while another took the lease over; renewal notices only later. On PostgreSQL the row is
 * locked, so a takeover waits for this transaction to end rather than interleave with it
 * (SQLite transactions that write exclude each other already).
 */
export async function assertLeaseHeld(trx: Kysely<Database>, dialect: Dialect, name: string, holder: string, nowMs: number): Promise<void> {
  let query = trx.selectFrom('leases').select(['holder', 'expires_at']).where('name', '=', name);
  if (dialect === 'postgres') query = query.forUpdate();
  const row = await query.executeTakeFirst();
  if (row === undefined || row.holder !== holder || Number(row.expires_at) <= nowMs) throw new LeaseLostError(name);
}

