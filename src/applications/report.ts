// The operator's usage report (`financial-evidence.application-usage.v1`). Never served
// over HTTP. It purges expired keys and old usage rows first, so it also enforces
// retention when no client traffic arrives.

import { formatInstantOffset } from '../core/time.js';
import { markFloat } from '../core/json.js';
import { flushAnonymousCounts } from './anonymous-counts.js';
import type { ApplicationContext } from './context.js';
import { browserUsage, type BrowserUsage } from './browser-events.js';
import { shiftDate, utcDate } from './days.js';
import { KEY_EXPIRY_DAYS, purgeExpired, USAGE_RETENTION_DAYS, usageRetentionCutoff } from './retention.js';
import type { AggregateClass, TrafficClass, UsageOutcome } from './tables.js';

export const USAGE_REPORT_SCHEMA = 'financial-evidence.application-usage.v1';
export const REPORTED_CLASSES: readonly TrafficClass[] = ['unverified', 'internal', 'synthetic', 'external_verified'];

export interface ReturnRate {
  eligible_applications: number;
  returned_on_day: number;
  rate: number | null;
}

export interface ClassUsage {
  applications_with_data_responses: number;
  deduplicated_data_responses: number;
  retention: Record<'7' | '30', ReturnRate>;
}

export interface UsageReport {
  schema: typeof USAGE_REPORT_SCHEMA;
  evaluated_at: string;
  retention_days: number;
  classes: Record<TrafficClass, ClassUsage>;
  request_aggregates: Array<{ day: string; traffic_class: AggregateClass; outcome: UsageOutcome; count: number }>;
  cohort_basis: string;
  deduplication: string;
  coverage: string;
  scope: string;
  independent_organizations: null;
  downstream_users: null;
  /** The consented browser counters: a separate dataset with its own 30-date retention. */
  browser: BrowserUsage;
}

const COHORT_BASIS =
  'A cohort is an application and class from the UTC date of its first keyed data response. Day N counts it as returned only when it has a keyed data response in that class on exactly the N-th date after, and only once that date has fully ended.';
const DEDUPLICATION =
  'At most one completion per application, UTC date, latest packet id and class: latest and changes reads of the same packet on one date count once. Conditional 304 answers are counted only in request_aggregates.';
const COVERAGE =
  `Only requests to this service that passed every check are measured, within the last ${USAGE_RETENTION_DAYS} UTC dates. Keys erased by their holder or expired after ${KEY_EXPIRY_DAYS} idle dates take their completions and cohorts with them; aggregate counters remain.`;
const SCOPE =
  'Counts of enrolled keys, not of people or organizations. Keys are self-issued and classes other than external_verified are unreviewed; traffic marked with an exclusion header is reported as synthetic.';

async function returnRate(ctx: ApplicationContext, trafficClass: TrafficClass, offset: number, today: string): Promise<ReturnRate> {
  const db = ctx.storage.db;
  const oldest = usageRetentionCutoff(today);
  // The return date must be a completed UTC date: first_day + offset < today.
  const newest = shiftDate(today, -offset - 1);
  let eligible = 0;
  let returned = 0;
  if (oldest <= newest) {
    const days = await db
      .selectFrom('cohorts')
      .select(['first_day', (eb) => eb.fn.countAll<number>().as('n')])
      .where('traffic_class', '=', trafficClass)
      .where('first_day', '>=', oldest)
      .where('first_day', '<=', newest)
      .groupBy('first_day')
      .execute();
    for (const { first_day, n } of days) {
      eligible += Number(n);
      const back = await db
        .selectFrom('cohorts as co')
        .where('co.traffic_class', '=', trafficClass)
        .where('co.first_day', '=', first_day)
        .where(({ exists, selectFrom }) =>
          exists(
            selectFrom('completions as cp')
              .select('cp.application')
              .whereRef('cp.application', '=', 'co.application')
              .where('cp.traffic_class', '=', trafficClass)
              .where('cp.day', '=', shiftDate(first_day, offset)),
          ),
        )
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      returned += Number(back.n);
    }
  }
  const result: ReturnRate = { eligible_applications: eligible, returned_on_day: returned, rate: eligible === 0 ? null : returned / eligible };
  if (result.rate !== null) markFloat(result, 'rate');
  return result;
}

export async function usageReport(ctx: ApplicationContext): Promise<UsageReport> {
  const now = ctx.clock();
  const today = utcDate(now);
  // Anonymous counts this process still holds in memory belong in the report.
  await flushAnonymousCounts(ctx.storage);
  await purgeExpired(ctx.storage.db, today);
  const db = ctx.storage.db;

  const classes = {} as Record<TrafficClass, ClassUsage>;
  for (const trafficClass of REPORTED_CLASSES) {
    const totals = await db
      .selectFrom('completions')
      .where('traffic_class', '=', trafficClass)
      .select((eb) => [eb.fn.countAll<number>().as('rows'), eb.fn.count<number>('application').distinct().as('apps')])
      .executeTakeFirstOrThrow();
    classes[trafficClass] = {
      applications_with_data_responses: Number(totals.apps),
      deduplicated_data_responses: Number(totals.rows),
      retention: {
        '7': await returnRate(ctx, trafficClass, 7, today),
        '30': await returnRate(ctx, trafficClass, 30, today),
      },
    };
  }

  const aggregates = await db
    .selectFrom('aggregates')
    .select(['day', 'traffic_class', 'outcome', 'count'])
    .execute();
  // Sorted here, not by the database, so both dialects list them in the same (code point) order.
  const byKey = (a: { day: string; traffic_class: string; outcome: string }) => `${a.day}\u0000${a.traffic_class}\u0000${a.outcome}`;
  aggregates.sort((a, b) => (byKey(a) < byKey(b) ? -1 : byKey(a) > byKey(b) ? 1 : 0));

  return {
    schema: USAGE_REPORT_SCHEMA,
    evaluated_at: formatInstantOffset(now),
    retention_days: USAGE_RETENTION_DAYS,
    classes,
    request_aggregates: aggregates.map((a) => ({ day: a.day, traffic_class: a.traffic_class, outcome: a.outcome, count: Number(a.count) })),
    cohort_basis: COHORT_BASIS,
    deduplication: DEDUPLICATION,
    coverage: COVERAGE,
    scope: SCOPE,
    independent_organizations: null,
    downstream_users: null,
    browser: await browserUsage(db, today),
  };
}
