// Bearer handling and usage measurement for the funding read routes (latest, changes,
// history). The read handlers call `identifyReader` at the credential step of their check
// order and, for latest and changes, `recordReadUsage` once the response (200 or 304) is
// decided. The data response never depends on the usage store: its failure only turns
// `X-Usage-Recorded` into `unavailable`.

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from './deps.js';
import { resolveCaller, type Caller } from '../applications/credential.js';
import { closeAnonymousCounts, countAnonymous } from '../applications/anonymous-counts.js';
import { utcDate } from '../applications/days.js';
import { measuredClass, recordUsage } from '../applications/measure.js';
import { hasExclusionHeader } from '../applications/traffic.js';
import type { UsageOutcome } from '../applications/tables.js';

export const USAGE_RECORDED_HEADER = 'x-usage-recorded';
export type UsageRecorded = 'true' | 'false' | 'unavailable';

export interface ReaderIdentity {
  caller: Caller;
  /** The request carried an exclusion header (measured as synthetic). */
  excluded: boolean;
}

/** Resolves the caller; throws the 401 / 503 AppError when a presented key is not usable. */
export async function identifyReader(deps: AppDeps, request: FastifyRequest): Promise<ReaderIdentity> {
  const caller = await resolveCaller({ storage: deps.storage, clock: deps.clock }, request.headers.authorization);
  return { caller, excluded: hasExclusionHeader(request.headers) };
}

/**
 * The reader without a store lookup when the request carries no Authorization header
 * (anonymous, as identifyReader would find); undefined when a key has to be resolved.
 */
export function anonymousReader(request: FastifyRequest): ReaderIdentity | undefined {
  if (request.headers.authorization !== undefined) return undefined;
  return { caller: { kind: 'anonymous' }, excluded: hasExclusionHeader(request.headers) };
}

/**
 * recordReadUsage for the responses measured without the store (HEAD, anonymous readers),
 * at once; undefined for a keyed reader, whose measurement needs recordReadUsage.
 */
export function recordReadUsageNow(deps: AppDeps, reply: FastifyReply, identity: ReaderIdentity, outcome: UsageOutcome): UsageRecorded | undefined {
  // HEAD delivers no data: it is neither a completion nor a counted response.
  if (reply.request.method === 'HEAD') {
    reply.header(USAGE_RECORDED_HEADER, 'false');
    return 'false';
  }
  if (identity.caller.kind !== 'anonymous') return undefined;
  const recorded = countAnonymousRead(deps, identity.excluded, outcome);
  reply.header(USAGE_RECORDED_HEADER, recorded);
  return recorded;
}

/** Counts one anonymous read; its `X-Usage-Recorded` value ('false': anonymous reads are aggregates). */
export function countAnonymousRead(deps: AppDeps, excluded: boolean, outcome: UsageOutcome): UsageRecorded {
  // Summed in memory and written about once a second (applications/anonymous-counts.ts).
  const day = utcDate(deps.clock());
  return countAnonymous(deps.storage, day, measuredClass({ kind: 'anonymous' }, excluded), outcome) ? 'false' : 'unavailable';
}

/**
 * Measures one latest/changes response and sets `X-Usage-Recorded`. Never throws.
 * `latestPacketId` is the current latest packet (for changes: the `after` packet).
 */
export async function recordReadUsage(
  deps: AppDeps,
  reply: FastifyReply,
  identity: ReaderIdentity,
  outcome: UsageOutcome,
  latestPacketId: string,
): Promise<UsageRecorded> {
  const measured = recordReadUsageNow(deps, reply, identity, outcome);
  if (measured !== undefined) return measured;
  let recorded: UsageRecorded;
  try {
    const inserted = await recordUsage(
      { storage: deps.storage, clock: deps.clock },
      { caller: identity.caller, excluded: identity.excluded, outcome, latestPacketId },
    );
    recorded = inserted ? 'true' : 'false';
  } catch (error) {
    reply.log.warn({ err: error }, 'usage measurement failed; the response is served without it');
    recorded = 'unavailable';
  }
  reply.header(USAGE_RECORDED_HEADER, recorded);
  return recorded;
}

/** Writes the anonymous counts still in memory when the app closes (a clean shutdown loses none). */
export function flushUsageOnClose(app: FastifyInstance, deps: AppDeps): void {
  app.addHook('onClose', async () => {
    await closeAnonymousCounts(deps.storage).catch((error: unknown) => {
      app.log.error({ err: error }, 'the anonymous usage counts could not be written at shutdown');
    });
  });
}
