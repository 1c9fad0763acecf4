// Usage measurement for the latest and changes reads, after every check has passed.
//
// - Every response (200 or 304) increments an aggregate counter for its UTC date,
//   traffic class and outcome (capped).
// - A keyed response bumps the key's last accepted use to today.
// - Only a keyed 200 can add a completion: one row per application, UTC date, latest
//   packet and class, so latest and changes for the same packet on the same date count
//   once. The first completion of an application in a class opens its cohort.
// - A request with an exclusion header counts as `synthetic`, keyed or not.
//
// Keyed measurement runs in one serialized section so the daily completion cap and the
// de-duplication hold exactly across instances.

import { sql } from 'kysely';
import type { Instant } from '../core/time.js';
import type { ApplicationContext } from './context.js';
import type { Caller } from './credential.js';
import { utcDate } from './days.js';
import { purgeOncePerDay } from './retention.js';
import type { AggregateClass, TrafficClass, UsageOutcome } from './tables.js';

export const AGGREGATE_COUNT_CAP = 1_000_000;
export const COMPLETIONS_PER_UTC_DAY = 50_000;
export const USAGE_LOCK = 'applications:usage';

export interface UsageEvent {
  caller: Caller;
  /** The request carried an exclusion header. */
  excluded: boolean;
  outcome: UsageOutcome;
  /** The current latest packet id (for changes too: the packet the client now holds). */
  latestPacketId: string;
  /** Defaults to the context clock. */
  at?: Instant;
}

/** The class a request is measured under. */
export function measuredClass(caller: Caller, excluded: boolean): AggregateClass {
  if (excluded) return 'synthetic';
  return caller.kind === 'anonymous' ? 'anonymous' : caller.trafficClass;
}

/**
 * Records one response. Resolves to true only when a new completion row was inserted;
 * rejects when the store fails (the caller reports that as `unavailable`).
 */
export async function recordUsage(ctx: ApplicationContext, event: UsageEvent): Promise<boolean> {
  const today = utcDate(event.at ?? ctx.clock());
  const trafficClass = measuredClass(event.caller, event.excluded);
  await purgeOncePerDay(ctx.storage, today);

  const bumpAggregate = (db: typeof ctx.storage.db) =>
    db
      .insertInto('aggregates')
      .values({ day: today, traffic_class: trafficClass, outcome: event.outcome, count: 1 })
      .onConflict((oc) =>
        oc.columns(['day', 'traffic_class', 'outcome']).doUpdateSet({
          count: sql<number>`case when aggregates.count < ${AGGREGATE_COUNT_CAP} then aggregates.count + 1 else aggregates.count end`,
        }),
      )
      .execute();

  const caller = event.caller;
  if (caller.kind === 'anonymous') {
    await bumpAggregate(ctx.storage.db);
    return false;
  }

  return ctx.storage.serialized(USAGE_LOCK, async (trx) => {
    await bumpAggregate(trx);
    const seen = await trx
      .updateTable('applications')
      .set({ last_seen_day: today })
      .where('id', '=', caller.applicationId)
      .executeTakeFirst();
    // Erased between the credential check and now: nothing of it may be recorded.
    if (Number(seen.numUpdatedRows) === 0) return false;
    if (event.outcome !== 'data_response') return false;

    const completionClass = trafficClass as TrafficClass;
    const existing = await trx
      .selectFrom('completions')
      .select('application')
      .where('application', '=', caller.applicationId)
      .where('day', '=', today)
      .where('packet', '=', event.latestPacketId)
      .where('traffic_class', '=', completionClass)
      .executeTakeFirst();
    if (existing) return false;

    // Stops counting at the cap without scanning the whole date.
    const saturated = await trx
      .selectFrom('completions')
      .select('application')
      .where('day', '=', today)
      .limit(1)
      .offset(COMPLETIONS_PER_UTC_DAY - 1)
      .executeTakeFirst();
    if (saturated) return false;

    const inserted = await trx
      .insertInto('completions')
      .values({ application: caller.applicationId, day: today, packet: event.latestPacketId, traffic_class: completionClass })
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst();
    await trx
      .insertInto('cohorts')
      .values({ application: caller.applicationId, traffic_class: completionClass, first_day: today })
      .onConflict((oc) => oc.doNothing())
      .execute();
    return Number(inserted.numInsertedOrUpdatedRows ?? 0n) > 0;
  });
}
