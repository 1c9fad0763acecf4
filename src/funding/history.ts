// The forward coverage of the archive as of a cutoff: how many packets it held, the
// newest (or, with `before`, earlier) page of them, and the newest attempt recorded by
// then. It reads the archive as it is — it does not require the current packet to be
// ready, because history matters most exactly when latest is unavailable.

import { AppError, CoreErrors } from '../core/errors.js';
import { formatInstantOffset, parseOffsetTimestamp, type Instant } from '../core/time.js';
import type { Storage } from '../storage/storage.js';
import { findPacketMeta } from './archive.js';
import { requirePacketId } from './changes.js';
import { encodeBody, fromStorage, type EncodedBody, type ReadConfig } from './latest.js';
import { FundingReadErrors } from './read-errors.js';
import type { FundingHistory, HistoryAttempt } from './schemas/history.js';
import { HISTORY_SCHEMA, HISTORY_SCOPE, KNOWLEDGE_TIME_BASIS } from './terms.js';

export const HISTORY_MAX_LIMIT = 96;

export interface HistoryRequest {
  asOf?: string;
  before?: string;
  limit?: number;
}

const LOOKS_ZONELESS = /^[0-9]{4}-[0-9]{2}-[0-9]{2}([T ][0-9]{2}:[0-9]{2}(:[0-9]{2}(\.[0-9]+)?)?)?$/;

/** Parses `as_of`: an ISO 8601 timestamp with an explicit zone, not after `now`. */
export function parseAsOf(text: string, now: Instant): Instant {
  const invalid = (why: string) => new AppError(FundingReadErrors.invalid_as_of, `as_of ${why}`, { path: '/as_of' });
  const instant = parseOffsetTimestamp(text);
  if (instant === null) {
    throw invalid(LOOKS_ZONELESS.test(text) ? 'has no time zone; add Z or an offset such as +00:00' : 'is not an ISO 8601 timestamp');
  }
  if (instant > now) throw invalid('lies in the future');
  return instant;
}

export async function historyBody(storage: Storage, config: ReadConfig, now: Instant, request: HistoryRequest): Promise<EncodedBody> {
  const asOf = request.asOf === undefined ? now : parseAsOf(request.asOf, now);
  const limit = request.limit ?? HISTORY_MAX_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > HISTORY_MAX_LIMIT) {
    throw new AppError(CoreErrors.invalid_request, `limit must be an integer from 1 to ${HISTORY_MAX_LIMIT}`, { path: '/limit' });
  }
  const cutoff = Number(asOf);
  const mode = config.mode;
  const db = storage.db;

  let cursor: { archived_at_us: number; packet_id: string } | undefined;
  if (request.before !== undefined) {
    requirePacketId(request.before, 'before');
    cursor = await fromStorage(() => findPacketMeta(db, request.before!, mode));
    if (!cursor) throw new AppError(FundingReadErrors.history_cursor_not_found, 'the before cursor names a packet that is not in this archive');
  }

  const [stats, page, attempt] = await fromStorage(() => Promise.all([
    db.selectFrom('funding_packets')
      .select((eb) => [eb.fn.countAll().as('n'), eb.fn.min('archived_at_us').as('first'), eb.fn.max('archived_at_us').as('last')])
      .where('mode', '=', mode)
      .where('archived_at_us', '<=', cutoff)
      .executeTakeFirst(),
    db.selectFrom('funding_packets')
      .select(['packet_id', 'archived_at_us', 'source_captured_at_us', 'review_asof', 'ready_at_capture', 'source_manifest_sha256', 'manifest_sha256'])
      .where('mode', '=', mode)
      .where('archived_at_us', '<=', cutoff)
      .$if(cursor !== undefined, (q) => q.where((eb) => eb.or([
        eb('archived_at_us', '<', cursor!.archived_at_us),
        eb.and([eb('archived_at_us', '=', cursor!.archived_at_us), eb('packet_id', '<', cursor!.packet_id)]),
      ])))
      .orderBy('archived_at_us', 'desc')
      .orderBy('packet_id', 'desc')
      .limit(limit + 1)
      .execute(),
    db.selectFrom('funding_attempts')
      .select(['recorded_at_us', 'packet_id', 'error', 'outcome'])
      .where('mode', '=', mode)
      .where('recorded_at_us', '<=', cutoff)
      .orderBy('recorded_at_us', 'desc')
      .orderBy('seq', 'desc')
      .limit(1)
      .executeTakeFirst(),
  ]));

  const truncated = page.length > limit;
  const listed = page.slice(0, limit).reverse();
  const count = Number(stats?.n ?? 0);
  const at = (us: number | bigint) => formatInstantOffset(BigInt(Number(us)));
  const atOrNull = (us: unknown) => (us === null || us === undefined ? null : at(us as number));
  const doc: FundingHistory = {
    schema: HISTORY_SCHEMA,
    as_of: formatInstantOffset(asOf),
    knowledge_time_basis: KNOWLEDGE_TIME_BASIS,
    scope: HISTORY_SCOPE,
    first_archived_at: count > 0 ? atOrNull(stats?.first) : null,
    last_archived_at: count > 0 ? atOrNull(stats?.last) : null,
    packet_count: count,
    packets: listed.map((p) => ({
      packet_id: p.packet_id,
      archived_at: at(p.archived_at_us),
      source_captured_at: at(p.source_captured_at_us),
      review_asof: p.review_asof,
      ready_at_capture: Number(p.ready_at_capture) === 1,
      source_manifest_sha256: p.source_manifest_sha256,
      manifest_sha256: p.manifest_sha256,
    })),
    truncated,
    limit,
    next_before: truncated && listed.length > 0 ? listed[0].packet_id : null,
    latest_attempt: attempt
      ? { recorded_at: at(attempt.recorded_at_us), packet_id: attempt.packet_id, error: attempt.error, outcome: attempt.outcome as HistoryAttempt['outcome'] }
      : null,
  };
  if (config.mode === 'sample') doc.sample = true;
  return encodeBody(doc);
}
