// Retained applications per class, for the operator (no ids, no digests).

import type { ApplicationContext } from './context.js';
import { utcDate } from './days.js';
import { purgeExpired } from './retention.js';
import type { TrafficClass } from './tables.js';

export async function applicationCounts(ctx: ApplicationContext): Promise<Record<TrafficClass, number>> {
  // Expired keys are no longer retained, whether or not a purge has run since they expired.
  await purgeExpired(ctx.storage.db, utcDate(ctx.clock()));
  const rows = await ctx.storage.db
    .selectFrom('applications')
    .select(['traffic_class', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy('traffic_class')
    .execute();
  const counts: Record<TrafficClass, number> = { unverified: 0, internal: 0, synthetic: 0, external_verified: 0 };
  for (const row of rows) counts[row.traffic_class] = Number(row.n);
  return counts;
}
