// The current packet and the `latest` body. "Current" is decided on every request against
// the caller's clock, over the stored facts (kept verified in memory by current-cache.ts):
// the newest attempt must have succeeded, be within the freshness limit, carry sane clocks,
// and name a packet whose stored bytes verify. There is no fallback to an older packet.

import { AppError, CoreErrors } from '../core/errors.js';
import { encodeCanonicalDocument } from '../core/json.js';
import { sha256Hex } from '../core/hash.js';
import { formatInstantOffset, parseIsoDate, secondsBetween, utcDayOf, type Instant } from '../core/time.js';
import type { Config } from '../core/config.js';
import type { Storage } from '../storage/storage.js';
import type { AttemptRow } from './archive.js';
import { freshStoredCurrent, storedCurrent, type StoredCurrent, type StoredPacket } from './current-cache.js';
import { FundingReadErrors, unavailable } from './read-errors.js';
import type { FundingLatest } from './schemas/latest.js';
import { DATASET, KNOWLEDGE_TIME_BASIS, LATEST_SCHEMA, VALUE_BASIS } from './terms.js';
import { PacketVerificationError, type VerifiedPacket } from './verify.js';

/** How far a recorded clock may lie ahead of the reader's clock (instances' clocks drift). */
export const CLOCK_SKEW_SECONDS = 300;

export type ReadConfig = Pick<Config, 'mode' | 'freshnessLimit' | 'captureInterval'>;

export interface CurrentEvidence {
  attempt: AttemptRow;
  packet: VerifiedPacket;
}

/** Wraps a storage failure as a 503 the client can retry. */
export async function fromStorage<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw new AppError(CoreErrors.storage_unavailable, 'the evidence store could not be read', { headers: { 'retry-after': '5' }, cause: error });
  }
}

/** Loads and verifies a packet; a verification failure is a 503 naming the packet. */
export function verifiedOr503(config: ReadConfig, verify: () => VerifiedPacket): VerifiedPacket {
  try {
    return verify();
  } catch (error) {
    if (error instanceof PacketVerificationError) {
      throw unavailable(FundingReadErrors.artifact_verification_failed, `stored evidence failed verification: ${error.message}`, config.captureInterval, error);
    }
    throw error;
  }
}

/**
 * The full live readiness check; throws a 503 with a reason code when anything fails. The
 * stored facts come from the in-memory cache (current-cache.ts, checked against the store
 * within its bounds); every judgement that depends on the clock is made here, per request.
 */
export async function currentEvidence(storage: Storage, config: ReadConfig, now: Instant): Promise<CurrentEvidence> {
  const stored = freshStoredCurrent(storage, config.mode, now) ?? (await fromStorage(() => storedCurrent(storage, config.mode, now)));
  return judgeCurrent(stored, config, now);
}

type ReadErrorDefinition = (typeof FundingReadErrors)[keyof typeof FundingReadErrors];

// Module-level rather than closures inside judgeCurrent: it runs on every latest/changes
// read, and a closure per call costs an allocation (and, under tsx, a __name call each).
function notReady(config: ReadConfig, def: ReadErrorDefinition, message: string): AppError {
  return unavailable(def, message, config.captureInterval);
}

function recordedText(attempt: AttemptRow): string {
  return formatInstantOffset(BigInt(attempt.recorded_at_us));
}

function verifiedNamed(named: Exclude<StoredPacket, { kind: 'missing' }>): VerifiedPacket {
  if (named.kind === 'invalid') throw named.error;
  return named.packet;
}

/** The readiness checks, in their documented order, over the stored facts at `now`. */
export function judgeCurrent(stored: StoredCurrent, config: ReadConfig, now: Instant): CurrentEvidence {
  const attempt = stored.attempt;
  if (!attempt) throw notReady(config, FundingReadErrors.evidence_not_captured, 'no funding capture has been recorded yet');
  const recordedAt = BigInt(attempt.recorded_at_us);
  if (attempt.outcome === 'failed' || attempt.packet_id === null || attempt.error !== null || stored.packet === undefined) {
    throw notReady(config, FundingReadErrors.latest_attempt_failed,
      `the newest capture attempt (${recordedText(attempt)}) failed${attempt.error_code ? ` with ${attempt.error_code}` : ''}; no earlier packet is served instead`);
  }
  const age = secondsBetween(now, recordedAt);
  if (age < -CLOCK_SKEW_SECONDS) throw notReady(config, FundingReadErrors.evidence_clock_invalid, `the newest capture attempt is dated in the future (${recordedText(attempt)})`);
  if (age > config.freshnessLimit) {
    throw notReady(config, FundingReadErrors.evidence_stale, `the newest successful capture (${recordedText(attempt)}) is older than ${config.freshnessLimit} seconds`);
  }

  const named = stored.packet;
  if (named.kind === 'missing') {
    throw notReady(config, FundingReadErrors.artifact_verification_failed, `the packet named by the newest attempt is missing from the archive`);
  }
  const packet = named.kind === 'verified' ? named.packet : verifiedOr503(config, () => verifiedNamed(named));
  if (attempt.manifest_sha256 !== packet.manifestSha256) {
    throw notReady(config, FundingReadErrors.artifact_verification_failed, 'the packet manifest differs from the one its attempt verified');
  }
  if (!packet.readyAtCapture || !packet.reviewReady) {
    throw notReady(config, FundingReadErrors.artifact_verification_failed, 'the current packet was not ready when it was captured');
  }
  if (!packetClocksConsistent(packet, attempt, now, config.mode)) {
    throw notReady(config, FundingReadErrors.evidence_clock_invalid, 'the clocks recorded for the current packet are inconsistent');
  }
  return { attempt, packet };
}

/**
 * Clocks must tell one consistent story: captured ≤ archived ≤ attempt recorded ≤ now
 * (within skew), and a live review date cannot lie after the capture's own day.
 */
export function packetClocksConsistent(packet: VerifiedPacket, attempt: AttemptRow, now: Instant, mode: string): boolean {
  const recordedAt = BigInt(attempt.recorded_at_us);
  return (
    packet.sourceCapturedAt <= packet.archivedAt &&
    packet.archivedAt <= recordedAt &&
    BigInt(attempt.started_at_us) <= recordedAt &&
    secondsBetween(now, packet.archivedAt) >= -CLOCK_SKEW_SECONDS &&
    // Bundled sample documents carry fixed dates, which may lie after today's date.
    (mode === 'sample' || (parseIsoDate(packet.reviewAsof) ?? Infinity) <= utcDayOf(packet.sourceCapturedAt))
  );
}

export interface EncodedBody {
  body: string;
  etag: string;
}

export function encodeBody(doc: unknown): EncodedBody {
  const body = encodeCanonicalDocument(doc);
  return { body, etag: `"${sha256Hex(body)}"` };
}

export function packetLinks(packetId: string): FundingLatest['links'] {
  return {
    'manifest.json': `/packets/${packetId}/manifest.json`,
    'observations.csv': `/packets/${packetId}/observations.csv`,
    'review.json': `/packets/${packetId}/review.json`,
  };
}

const latestBodies = new WeakMap<VerifiedPacket, Map<boolean, EncodedBody>>();

/** The `financial-evidence.funding.v1` body for a verified current packet. */
export function latestBody(packet: VerifiedPacket, sample: boolean): EncodedBody {
  let bySample = latestBodies.get(packet);
  const known = bySample?.get(sample);
  if (known) return known;
  const doc: FundingLatest = {
    schema: LATEST_SCHEMA,
    dataset: DATASET,
    ready: true,
    packet_id: packet.packetId,
    source_captured_at: formatInstantOffset(packet.sourceCapturedAt),
    archived_at: formatInstantOffset(packet.archivedAt),
    review_asof: packet.reviewAsof,
    review_scope: packet.reviewScope,
    latest_per_instrument: false,
    value_basis: VALUE_BASIS,
    knowledge_time_basis: KNOWLEDGE_TIME_BASIS,
    observations: [...packet.results],
    manifest_sha256: packet.manifestSha256,
    artifacts: { 'observations.csv': packet.csvSha256, 'review.json': packet.reviewSha256 },
    links: packetLinks(packet.packetId),
  };
  if (sample) doc.sample = true;
  const encoded = encodeBody(doc);
  if (!bySample) latestBodies.set(packet, (bySample = new Map<boolean, EncodedBody>()));
  bySample.set(sample, encoded);
  return encoded;
}
