// What changed between an earlier packet and the current one, metric by metric. A change
// is a difference between two captures, not a confirmed publisher revision: the scope
// token says so.

import type { Storage } from '../storage/storage.js';
import { findPacket } from './archive.js';
import { currentEvidence, encodeBody, fromStorage, verifiedOr503, type EncodedBody, type ReadConfig } from './latest.js';
import { FundingReadErrors, unavailable } from './read-errors.js';
import { AppError } from '../core/errors.js';
import { CHANGES_SCHEMA, CHANGES_SCOPE } from './terms.js';
import type { VerifiedPacket } from './verify.js';
import { verifyReadPacket } from './verify-read.js';
import { isPacketId } from './packet.js';
import type { Instant } from '../core/time.js';
import type { Change, FundingChanges } from './schemas/changes.js';
import { ComparisonError, compareRows } from './compare-rows.js';

export { CHANGE_KEYS, ComparisonError, compareRows, type ChangeKind } from './compare-rows.js';

export function changesDocument(since: VerifiedPacket, latest: VerifiedPacket, sample: boolean): FundingChanges {
  let changes: Change[];
  try {
    changes = compareRows(since.results, latest.results);
  } catch (error) {
    if (error instanceof ComparisonError) throw new AppError(FundingReadErrors.changes_comparison_failed, error.message);
    throw error;
  }
  const doc: FundingChanges = {
    schema: CHANGES_SCHEMA,
    before: since.packetId,
    after: latest.packetId,
    changes,
    packet_id: latest.packetId,
    ready: true,
    review_asof: latest.reviewAsof,
    scope: CHANGES_SCOPE,
  };
  if (sample) doc.sample = true;
  return doc;
}

/** Throws 400 unless `value` is a well-formed packet id. */
export function requirePacketId(value: string, parameter: string): string {
  if (!isPacketId(value)) {
    throw new AppError(FundingReadErrors.invalid_packet_id, `${parameter} is not a packet id (YYYYMMDDTHHMMSS.ffffffZ-<32 hex>)`, { path: `/${parameter}` });
  }
  return value;
}

export interface ChangesRequest {
  since: string;
  until?: string;
}

/**
 * Steps after identity, in order: id syntax (400), current readiness (503), until (409),
 * since in the archive (404), since not after latest (409), since verifies (503),
 * comparison (503). The caller checks `since` presence (422) and identity before.
 */
export async function changesBody(storage: Storage, config: ReadConfig, now: Instant, request: ChangesRequest): Promise<{ encoded: EncodedBody; latest: VerifiedPacket }> {
  requirePacketId(request.since, 'since');
  if (request.until !== undefined) requirePacketId(request.until, 'until');
  const { packet: latest } = await currentEvidence(storage, config, now);
  if (request.until !== undefined && request.until !== latest.packetId) {
    throw new AppError(FundingReadErrors.latest_changed, 'until is not the current latest packet; retrieve latest again');
  }
  let since: VerifiedPacket;
  if (request.since === latest.packetId) {
    since = latest;
  } else {
    const row = await fromStorage(() => findPacket(storage.db, request.since));
    if (!row || row.mode !== config.mode) throw new AppError(FundingReadErrors.since_outside_archive, 'the starting packet is not in this forward archive');
    if (row.archived_at_us > Number(latest.archivedAt) || (row.archived_at_us === Number(latest.archivedAt) && row.seq > latest.seq)) {
      throw new AppError(FundingReadErrors.since_after_latest, 'the starting packet was archived after the current latest packet; changes only run forward');
    }
    since = verifiedOr503(config, () => verifyReadPacket(storage, row));
  }
  try {
    return { encoded: encodeBody(changesDocument(since, latest, config.mode === 'sample')), latest };
  } catch (error) {
    if (error instanceof AppError && error.code === FundingReadErrors.changes_comparison_failed.code) {
      throw unavailable(FundingReadErrors.changes_comparison_failed, error.message, config.captureInterval, error);
    }
    throw error;
  }
}
