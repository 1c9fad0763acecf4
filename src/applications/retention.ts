// How long keys and usage rows live, and the purge that enforces it.
//
// Purging runs on use (at most once per UTC date per store handle, so read paths do not
// take write locks on every request), before every enrollment and before every report.
// A key is also refused the moment it is presented after its idle limit, purged or not.

import type { Kysely } from 'kysely';
import type { Database } from '../storage/schema.js';
import type { Storage } from '../storage/storage.js';
import { shiftDate } from './days.js';
import { purgeBrowserEvents } from './browser-events.js';

/** A key whose last accepted use is more than this many dates back is gone (180 idle dates). */
export const KEY_IDLE_LIMIT_DAYS = 179;
/** The idle dates after which a key expires, as told to people. */
export const KEY_EXPIRY_DAYS = KEY_IDLE_LIMIT_DAYS + 1;
/** Completions and aggregates keep this many UTC dates, today included. */
export const USAGE_RETENTION_DAYS = 90;

/** Applications last seen before this date are expired. */
export function keyExpiryCutoff(today: string): string {
  return shiftDate(today, -KEY_IDLE_LIMIT_DAYS);
}

/** Usage rows dated before this date are outside retention. */
export function usageRetentionCutoff(today: string): string {
  return shiftDate(today, -(USAGE_RETENTION_DAYS - 1));
}

export function isKeyExpired(lastSeenDay: string, today: string): boolean {
  return lastSeenDay < keyExpiryCutoff(today);
}

export interface PurgeCounts {
  applications: number;
  completions: number;
  aggregates: number;
}

/** Deletes expired applications (their completions and cohorts cascade) and old usage rows. */
export async function purgeExpired(db: Kysely<Database>, today: string): Promise<PurgeCounts> {
  const apps = await db.deleteFrom('applications').where('last_seen_day', '<', keyExpiryCutoff(today)).executeTakeFirst();
  const cutoff = usageRetentionCutoff(today);
  const completions = await db.deleteFrom('completions').where('day', '<', cutoff).executeTakeFirst();
  const aggregates = await db.deleteFrom('aggregates').where('day', '<', cutoff).executeTakeFirst();
  return {
    applications: Number(apps.numDeletedRows),
    completions: Number(completions.numDeletedRows),
    aggregates: Number(aggregates.numDeletedRows),
  };
}

const lastPurgeDay = new WeakMap<Storage, string>();

/** True once purgeOncePerDay has run for `today` on this store handle (later calls would do nothing). */
export function purgedOn(storage: Storage, today: string): boolean {
  return lastPurgeDay.get(storage) === today;
}

/** Purges (keys, usage and the browser events' 30 dates) once per UTC date per store handle; later calls on the same date do nothing. */
export async function purgeOncePerDay(storage: Storage, today: string): Promise<void> {
  if (purgedOn(storage, today)) return;
  await purgeExpired(storage.db, today);
  await purgeBrowserEvents(storage.db, today);
  lastPurgeDay.set(storage, today);
}
