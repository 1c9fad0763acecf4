// Usage measurement of data queries (group C), next to the funding reads' measurement
// (measure.ts) and on the same keys, aggregates and retention. What the upstream reports in
// `X-Financial-Evidence-Measurement`:
//
// - `not_eligible`: the answer carried no published evidence (the data group decides that);
//   nothing is counted.
// - `aggregate_or_duplicate`: counted in the daily aggregates only — an anonymous read, a
//   conditional 304, or a keyed read whose response digest this application already had
//   today.
// - `recorded`: a keyed read with a response digest new for this application today.
//
// Keyed reads are recorded in one serialized section, so the de-duplication and the daily
// cap hold across instances on one store. Anonymous reads (and anonymous 304s) only add to
// the daily aggregates, so they are summed in memory and written about once a second with
// group B's anonymous counts (anonymous-counts.ts): a crash loses at most that window of
// anonymous counts, never a keyed record; `unavailable` while those writes fail.
import { sql } from 'kysely';
import type { Instant } from '../core/time.js';
import { countAnonymous } from './anonymous-counts.js';
import type { ApplicationContext } from './context.js';
import type { Caller } from './credential.js';
import { utcDate } from './days.js';
import { AGGREGATE_COUNT_CAP, COMPLETIONS_PER_UTC_DAY } from './measure.js';
import { measuredClass } from './measure.js';
import { purgedOn, purgeOncePerDay, usageRetentionCutoff } from './retention.js';
import type { TrafficClass, UsageOutcome } from './tables.js';
import { EXCLUDED_TRAFFIC_CLASSES, hasExclusionHeader, type HeaderBag } from './traffic.js';

export const DATA_READS_LOCK = 'applications:data-reads';

export type DataReadOutcome = 'not_eligible' | 'aggregate_or_duplicate' | 'recorded';

export interface DataReadEvent {
  caller: Caller;
  excluded: boolean;
  /** The answer carried published evidence (false: nothing is counted). */
  eligible: boolean;
  /** A 304: counted in the aggregates only. */
  notModified: boolean;
  /** Digest of the evidence in the response (what de-duplication compares). */
  digest: string;
  at?: Instant;
}

// Labels the data group's clients send (the upstream's header and ours); the generic
// X-Traffic-Class and X-Operator-Probe are read by hasExclusionHeader.
const DATA_TRAFFIC_HEADERS = ['x-service-traffic-class', 'x-liquilens-traffic-class'];

/** True when the request declares itself operator, internal, synthetic or test traffic. */
export function hasDataExclusionHeader(headers: HeaderBag): boolean {
  if (hasExclusionHeader(headers)) return true;
  return DATA_TRAFFIC_HEADERS.some((name) => {
    const value = headers[name];
    const list = value === undefined ? [] : Array.isArray(value) ? value : [value];
    return list.some((v) => EXCLUDED_TRAFFIC_CLASSES.has(v.trim().toLowerCase()));
  });
}

const lastPurge = new WeakMap<object, string>();

export type DataReadResult = DataReadOutcome | 'unavailable';

/**
 * recordDataRead without waiting, for the reads that need no store round trip: nothing to
 * count, or an anonymous read on a date whose purges already ran on this store handle.
 * Undefined when the full (asynchronous) recordDataRead has to run.
 */
export function recordDataReadNow(ctx: ApplicationContext, event: DataReadEvent): DataReadResult | undefined {
  if (!event.eligible && !event.notModified) return 'not_eligible';
  if (event.caller.kind !== 'anonymous') return undefined;
  const today = utcDate(event.at ?? ctx.clock());
  if (!purgedOn(ctx.storage, today) || lastPurge.get(ctx.storage) !== today) return undefined;
  return countAnonymousRead(ctx, today, event);
}

const outcomeOf = (event: DataReadEvent): UsageOutcome => (event.notModified ? 'data_query_not_modified' : 'data_query');

/** An anonymous read joins the in-memory batch of aggregates. */
function countAnonymousRead(ctx: ApplicationContext, today: string, event: DataReadEvent): DataReadResult {
  return countAnonymous(ctx.storage, today, measuredClass(event.caller, event.excluded), outcomeOf(event)) ? 'aggregate_or_duplicate' : 'unavailable';
}

/** Records one read; `unavailable` only when the buffered anonymous counts cannot be written (a failed keyed write rejects). */
export async function recordDataRead(ctx: ApplicationContext, event: DataReadEvent): Promise<DataReadResult> {
  const now = recordDataReadNow(ctx, event);
  if (now !== undefined) return now;
  const today = utcDate(event.at ?? ctx.clock());
  const trafficClass = measuredClass(event.caller, event.excluded);
  await purgeOncePerDay(ctx.storage, today);
  if (lastPurge.get(ctx.storage) !== today) {
    await ctx.storage.db.deleteFrom('data_reads').where('day', '<', usageRetentionCutoff(today)).execute();
    lastPurge.set(ctx.storage, today);
  }
  const outcome = outcomeOf(event);
  const bump = (db: typeof ctx.storage.db) =>
    db
      .insertInto('aggregates')
      .values({ day: today, traffic_class: trafficClass, outcome, count: 1 })
      .onConflict((oc) =>
        oc.columns(['day', 'traffic_class', 'outcome']).doUpdateSet({
          count: sql<number>`case when aggregates.count < ${AGGREGATE_COUNT_CAP} then aggregates.count + 1 else aggregates.count end`,
        }),
      )
      .execute();

  const caller = event.caller;
  if (caller.kind === 'anonymous') return countAnonymousRead(ctx, today, event);
  return ctx.storage.serialized(DATA_READS_LOCK, async (trx) => {
    await bump(trx);
    const seen = await trx.updateTable('applications').set({ last_seen_day: today }).where('id', '=', caller.applicationId).executeTakeFirst();
    if (Number(seen.numUpdatedRows) === 0 || event.notModified) return 'aggregate_or_duplicate';
    const saturated = await trx.selectFrom('data_reads').select('application').where('day', '=', today).limit(1).offset(COMPLETIONS_PER_UTC_DAY - 1).executeTakeFirst();
    if (saturated) return 'aggregate_or_duplicate';
    const inserted = await trx
      .insertInto('data_reads')
      .values({ application: caller.applicationId, day: today, digest: event.digest, traffic_class: trafficClass as TrafficClass })
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst();
    return Number(inserted.numInsertedOrUpdatedRows ?? 0n) > 0 ? 'recorded' : 'aggregate_or_duplicate';
  });
}
