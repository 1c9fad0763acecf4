// One capture attempt: download the seven publisher documents (or read a bundled sample
// day), build the nine rows, and either archive a new packet or — when the rows equal the
// current packet's — re-verify that packet. Every attempt that runs is recorded, with its
// outcome or its error; an attempt that cannot take the capture lease does not run and
// records nothing (another capture is in progress somewhere).

import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { encodeCanonicalDocument } from '../core/json.js';
import { AppError, isAppError } from '../core/errors.js';
import type { Config } from '../core/config.js';
import { formatInstantOffset, formatIsoDate, utcDayOf, type Instant } from '../core/time.js';
import type { Storage } from '../storage/storage.js';
import { acquireLease, type HeldLease, LeaseLostError } from '../storage/lease.js';
import { type AcquiredDocument, acquireDocument, type DocumentReader, liveDocumentReader, sampleDocumentReader, tgaSinceFor } from './acquire.js';
import {
  ARCHIVE_LOCK,
  CAPTURE_LEASE,
  countAttempts,
  insertAttempt,
  insertPacket,
  newestPacket,
  storeBlob,
  type NewAttempt,
} from './archive.js';
import { FundingErrors, isPublisherFailure, type PublisherFailureReason } from './errors.js';
import { FETCH_LIMITS, type FetchLimits } from './fetch.js';
import { buildObservations, checkHorizonAge, reviewHorizon } from './observations.js';
import {
  encodeContentArtifacts,
  encodeManifest,
  mintPacketId,
  orderedReceipts,
  sourceManifestSha256,
  type PublisherReceipt,
  type PublisherReceipts,
} from './packet.js';
import { DEFAULT_IORB_SOURCE } from './publishers/catalogue.js';
import { PUBLISHER_KEYS, type PublisherDocument, type PublisherKey } from './publishers/types.js';
import { FundingReadErrors } from './read-errors.js';
import { expectedUnit, sameObservations } from './rows.js';
import { loadSampleDays, SAMPLE_PUBLISHERS_DIR } from './publishers/samples.js';
import { verifyStoredPacket } from './verify.js';
import { invalidateCurrentPacket } from './current-cache.js';

export { sampleSourceUrl } from './acquire.js';

/**
 * Short, and renewed every third of it while the attempt runs: a holder that dies without
 * being recognised as dead (another host) blocks captures for at most this long.
 */
export const CAPTURE_LEASE_MS = 60_000;
const MAX_ERROR_LENGTH = 300;
const FETCH_CONCURRENCY = 3;

export type CaptureOutcome = 'packet_created' | 'packet_reverified' | 'failed';

export interface AttemptReport {
  attempt_id: string;
  outcome: CaptureOutcome;
  packet_id: string | null;
  review_asof: string | null;
  started_at: string;
  recorded_at: string;
  error_code: string | null;
  error: string | null;
  /** For a publisher failure: the document at fault (`iorb`, …) and the exact reason code. */
  document: PublisherKey | null;
  reason: PublisherFailureReason | null;
  mode: Config['mode'];
  sample_day: string | null;
}

/**
 * `reason` is a registry code (src/funding/errors.ts). `capture_lease_lost`: the attempt ran
 * but found, when it came to write, that its lease had expired and been taken over (it
 * stalled past the expiry); it wrote nothing.
 */
export type CaptureResult = { ran: true; attempt: AttemptReport } | { ran: false; reason: 'capture_in_progress' | 'capture_lease_lost' };

export interface CaptureOptions {
  storage: Storage;
  config: Pick<Config, 'mode' | 'publisherBases'> & Partial<Pick<Config, 'iorbSource'>>;
  clock: () => Instant;
  fetchLimits?: FetchLimits;
  sampleDir?: string;
  /** Wall clock for the lease (ms); the lease guards real time even when `clock` is simulated. */
  leaseNowMs?: () => number;
}

export interface FailureDescription {
  code: string;
  /** `<code>: <message>`, one line, at most 300 characters. */
  text: string;
  document: PublisherKey | null;
  reason: PublisherFailureReason | null;
}

/**
 * `<code>: <message>`, one line, bounded, plus the document and reason of a publisher
 * failure (the message names them too, right after the document name, so the stored
 * text alone says what to look at). Messages never carry bodies or credentials.
 * `others` lists further documents that failed in the same attempt. `unclassified` is the
 * code of an error that carries none (a driver's connection error, say): the caller names
 * what could not be done, so the text's code agrees with the reason it reports beside it.
 */
export function describeFailure(error: unknown, others: readonly PublisherKey[] = [], unclassified = 'internal_error'): FailureDescription {
  let code = unclassified;
  let message: string;
  if (isAppError(error)) {
    code = error.code;
    message = error.message;
  } else {
    message = `${(error as Error)?.name ?? 'Error'}: ${(error as Error)?.message ?? String(error)}`;
  }
  if (others.length > 0) message = `${message}; also failed: ${others.join(', ')}`;
  const text = `${code}: ${message}`.replace(/[\r\n\t]+/g, ' ');
  const publisher = isPublisherFailure(error) ? error : null;
  return {
    code,
    text: text.length > MAX_ERROR_LENGTH ? `${text.slice(0, MAX_ERROR_LENGTH - 1)}…` : text,
    document: publisher?.document ?? null,
    reason: publisher?.reason ?? null,
  };
}

async function inBatches<T>(items: readonly T[], size: number, run: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  const workers = Array.from({ length: Math.min(size, queue.length) }, async () => {
    for (let item = queue.shift(); item !== undefined; item = queue.shift()) await run(item);
  });
  await Promise.all(workers);
}

/** Runs one attempt under the capture lease. */
export async function captureOnce(options: CaptureOptions): Promise<CaptureResult> {
  const lease = await acquireLease(options.storage, CAPTURE_LEASE, { ttlMs: CAPTURE_LEASE_MS, nowMs: options.leaseNowMs });
  if (!lease) return { ran: false, reason: 'capture_in_progress' };
  try {
    return { ran: true, attempt: await runAttempt(options, lease.fence) };
  } catch (error) {
    if (error instanceof LeaseLostError) return { ran: false, reason: 'capture_lease_lost' };
    throw error;
  } finally {
    // Whatever was recorded (or not), this handle's readers look at the store again.
    invalidateCurrentPacket(options.storage);
    await lease.release();
  }
}

/** `fence` runs first in each transaction that records the attempt (see HeldLease.fence). */
async function runAttempt(options: CaptureOptions, fence: HeldLease['fence']): Promise<AttemptReport> {
  const { storage, config, clock } = options;
  const mode = config.mode;
  const iorbSource = config.iorbSource ?? DEFAULT_IORB_SOURCE;
  const attemptId = randomBytes(16).toString('hex');
  const startedAt = clock();
  const receipts: Partial<Record<PublisherKey, PublisherReceipt>> = {};
  const fetched = new Map<PublisherKey, AcquiredDocument>();
  let sampleDay: string | null = null;
  let reviewAsof: string | null = null;
  let alsoFailed: PublisherKey[] = [];

  const report = (outcome: CaptureOutcome, recordedAt: Instant, extra: Partial<AttemptReport>): AttemptReport => ({
    attempt_id: attemptId,
    outcome,
    packet_id: null,
    review_asof: reviewAsof,
    started_at: formatInstantOffset(startedAt),
    recorded_at: formatInstantOffset(recordedAt),
    error_code: null,
    error: null,
    document: null,
    reason: null,
    mode,
    sample_day: sampleDay,
    ...extra,
  });
  const attemptRow = (outcome: CaptureOutcome, recordedAt: Instant, extra: Partial<NewAttempt>): NewAttempt => ({
    attempt_id: attemptId,
    mode,
    started_at_us: Number(startedAt),
    recorded_at_us: Number(recordedAt),
    outcome,
    packet_id: null,
    manifest_sha256: null,
    review_asof: reviewAsof,
    error_code: null,
    error: null,
    receipts_json: Object.keys(receipts).length > 0 ? encodeCanonicalDocument(orderedReceipts(receipts)) : null,
    sample_day: sampleDay,
    ...extra,
  });

  try {
    let readDocument: DocumentReader;
    if (mode === 'sample') {
      // Successive sample captures walk through the bundled days and wrap around, so a
      // demo archive gains new packets, same-date revisions and re-verifications.
      const days = loadSampleDays(options.sampleDir ?? SAMPLE_PUBLISHERS_DIR);
      const day = days[(await countAttempts(storage.db, 'sample')) % days.length];
      sampleDay = path.basename(day.directory);
      readDocument = sampleDocumentReader(day, iorbSource);
    } else {
      readDocument = liveDocumentReader(config.publisherBases, iorbSource, options.fetchLimits ?? FETCH_LIMITS);
    }

    const acquire = async (key: PublisherKey, tgaSince?: string) => {
      const read = await readDocument(key, tgaSince);
      fetched.set(key, acquireDocument(key, iorbSource, read, clock(), (receipt) => {
        receipts[key] = receipt;
      }));
    };

    // Everything but the TGA first: its query needs the review date.
    const first = PUBLISHER_KEYS.filter((k) => k !== 'tga');
    const failures = new Map<PublisherKey, unknown>();
    await inBatches(first, FETCH_CONCURRENCY, async (key) => {
      try {
        await acquire(key);
      } catch (error) {
        failures.set(key, error);
      }
    });
    const failed = first.filter((k) => failures.has(k));
    if (failed.length > 0) {
      alsoFailed = failed.slice(1);
      throw failures.get(failed[0]);
    }

    const parsed = new Map<PublisherKey, PublisherDocument>([...fetched].map(([k, v]) => [k, v.parsed]));
    reviewAsof = reviewHorizon(parsed);
    if (mode === 'live') checkHorizonAge(reviewAsof, formatIsoDate(utcDayOf(startedAt)), parsed);
    await acquire('tga', tgaSinceFor(reviewAsof));
    parsed.set('tga', fetched.get('tga')!.parsed);
    const acquiredAt = clock();

    const { rows, setAside } = buildObservations(parsed, reviewAsof, formatInstantOffset(startedAt), iorbSource);
    for (const row of rows) {
      if (row.unit !== expectedUnit(row.metric_id)) {
        throw new AppError(FundingErrors.capture_invariant_failed, `unit of ${row.metric_id} is ${row.unit}, not ${expectedUnit(row.metric_id)}`);
      }
    }
    const fullReceipts = orderedReceipts(receipts) as PublisherReceipts;
    const packetId = mintPacketId(startedAt);
    const artifacts = encodeContentArtifacts({
      packetId, capturedAt: startedAt, acquiredAt, reviewAsof, rows, receipts: fullReceipts, sample: mode === 'sample', iorbSource, setAside,
    });

    const outcome = await storage.serialized(ARCHIVE_LOCK, async (trx) => {
      await fence(trx);
      const current = await newestPacket(trx, mode);
      let reuse = false;
      if (current) {
        const verified = (() => {
          try {
            return verifyStoredPacket(current);
          } catch (error) {
            throw new AppError(FundingReadErrors.artifact_verification_failed,
              `the current packet failed verification, so it cannot be re-verified: ${(error as Error).message}`);
          }
        })();
        reuse = sameObservations(verified.results, rows.map((r) => ({ ...r })));
      }
      const nowUs = Number(clock());
      for (const doc of fetched.values()) await storeBlob(trx, doc.body, nowUs);
      if (reuse && current) {
        const recordedAt = clock();
        await insertAttempt(trx, attemptRow('packet_reverified', recordedAt, { packet_id: current.packet_id, manifest_sha256: current.manifest_sha256 }));
        return report('packet_reverified', recordedAt, { packet_id: current.packet_id });
      }
      const archivedAt = clock();
      const manifest = encodeManifest({
        packetId, archivedAt, capturedAt: startedAt, reviewAsof: reviewAsof!, readyAtCapture: true, artifacts, receipts: fullReceipts, sample: mode === 'sample',
      });
      const packet = {
        packet_id: packetId,
        mode,
        archived_at_us: Number(archivedAt),
        source_captured_at_us: Number(startedAt),
        review_asof: reviewAsof,
        review_scope: 'common_sofr_iorb_horizon',
        ready_at_capture: 1,
        manifest_sha256: manifest.sha256,
        source_manifest_sha256: sourceManifestSha256(fullReceipts),
        manifest: manifest.bytes,
        review: artifacts.review,
        csv: artifacts.csv,
      };
      // The packet is checked by the same rules readers apply before it can be archived.
      verifyStoredPacket({ ...packet, seq: 0 });
      await insertPacket(trx, packet);
      const recordedAt = clock();
      await insertAttempt(trx, attemptRow('packet_created', recordedAt, { packet_id: packetId, manifest_sha256: manifest.sha256 }));
      return report('packet_created', recordedAt, { packet_id: packetId });
    });
    return outcome;
  } catch (error) {
    if (error instanceof LeaseLostError) throw error;
    const { code, text, document, reason } = describeFailure(error, alsoFailed);
    const recordedAt = clock();
    await storage.serialized(ARCHIVE_LOCK, async (trx) => {
      await fence(trx);
      await insertAttempt(trx, attemptRow('failed', recordedAt, { error_code: code, error: text }));
    });
    return report('failed', recordedAt, { error_code: code, error: text, document, reason });
  }
}
