// The USD funding review (upstream §3.5), composed on every request from our own group-B
// archive: the newest capture attempt, the packet it names and a fresh verification of
// that packet's stored bytes. Nothing is read from an operator-written directory and no
// source is contacted. There is no fallback: when the newest attempt failed, is stale or
// names a packet whose bytes no longer verify, the review says so and shows no earlier
// packet in its place.
//
// Readiness is the same decision `/v1/funding/latest` makes (the same clocks, limits and
// verification), so the review is ready exactly when latest answers 200.

import { CoreErrors, type ErrorDefinition } from '../core/errors.js';
import type { Config } from '../core/config.js';
import { copyMember, markFloat, parseStrictJson } from '../core/json.js';
import { formatInstantOffset, secondsBetween, type Instant } from '../core/time.js';
import type { Storage } from '../storage/storage.js';
import { findPacket, newestAttempt, type AttemptRow } from '../funding/archive.js';
import { CLOCK_SKEW_SECONDS, packetClocksConsistent } from '../funding/latest.js';
import { PUBLISHER_KEYS } from '../funding/publishers/types.js';
import { FundingReadErrors, retryAfterFor } from '../funding/read-errors.js';
import { FRESHNESS_BASIS, METHOD_VERSION } from '../funding/terms.js';
import { PacketVerificationError, type VerifiedPacket } from '../funding/verify.js';
import { verifyReadPacket } from '../funding/verify-read.js';
import { FundingReviewRowSchema, type FreshnessAssessment, type FundingReviewBody, type FundingReviewRow } from './funding-review-schema.js';
import { releaseIdentity } from './release.js';

const ROW_KEYS = Object.keys(FundingReviewRowSchema.properties);

export const FUNDING_REVIEW_SCHEMA = 'liquidity-lab.funding-review.v1';
export const FUNDING_REVIEW_MEASUREMENT_SCOPE = 'captured_operator_checks_not_continuous_uptime_or_point_in_time_history';

export type FundingReviewConfig = Pick<Config, 'mode' | 'freshnessLimit' | 'captureInterval' | 'releaseCommit'>;

/** What composing a review needs (a DataContext has it). */
export interface FundingReviewContext {
  readonly storage: Storage;
  readonly config: FundingReviewConfig;
  readonly clock: () => Instant;
}

/** The review, and what the CSV route serves from it. */
export interface FundingReviewOutcome {
  body: FundingReviewBody;
  /** The packet's verified CSV bytes and their SHA-256, only while the review is ready. */
  csv: { bytes: Uint8Array; sha256: string } | null;
  /** When not ready: the registry error the CSV route answers with (the first issue), and its Retry-After. */
  refusal: { def: ErrorDefinition; retryAfter: number } | null;
}

type Issue = { def: ErrorDefinition; subject: 'funding_review' | 'capture' | 'packet' };

const SUBJECT_ARCHIVE = 'funding_review';

/** The body of GET /api/v1/funding-review (what REST and MCP serve). */
export async function fundingReview(ctx: FundingReviewContext): Promise<FundingReviewBody> {
  return (await composeFundingReview(ctx)).body;
}

export async function composeFundingReview(ctx: FundingReviewContext): Promise<FundingReviewOutcome> {
  const { storage, config } = ctx;
  const now = ctx.clock();
  let attempt: AttemptRow | undefined;
  try {
    attempt = await newestAttempt(storage.db, config.mode);
  } catch {
    return unavailable(ctx, [{ def: CoreErrors.storage_unavailable, subject: SUBJECT_ARCHIVE }], null);
  }
  if (!attempt) return unavailable(ctx, [{ def: FundingReadErrors.evidence_not_captured, subject: SUBJECT_ARCHIVE }], null);
  if (attempt.outcome === 'failed' || attempt.packet_id === null || attempt.error !== null) {
    // The failure's own registry code is listed too; its message stays in /v1/funding/history.
    const extra = attempt.error_code === null ? [] : [{ code: attempt.error_code, subject: 'capture' }];
    return unavailable(ctx, [{ def: FundingReadErrors.latest_attempt_failed, subject: 'capture' }], attempt, extra);
  }

  let packet: VerifiedPacket;
  try {
    const row = await findPacket(storage.db, attempt.packet_id);
    if (!row || row.mode !== config.mode) throw new PacketVerificationError(attempt.packet_id, 'missing from the archive');
    packet = verifyReadPacket(storage, row);
    if (attempt.manifest_sha256 !== packet.manifestSha256) throw new PacketVerificationError(packet.packetId, 'manifest differs from the attempt');
  } catch (error) {
    const def = error instanceof PacketVerificationError ? FundingReadErrors.artifact_verification_failed : CoreErrors.storage_unavailable;
    return unavailable(ctx, [{ def, subject: error instanceof PacketVerificationError ? 'packet' : SUBJECT_ARCHIVE }], attempt);
  }
  return fromPacket(ctx, attempt, packet, now);
}

// The packet's bytes verified: its rows can be shown, marked when the capture is not current.
function fromPacket(ctx: FundingReviewContext, attempt: AttemptRow, packet: VerifiedPacket, now: Instant): FundingReviewOutcome {
  const { config } = ctx;
  const issues: Issue[] = [];
  let available = true;
  const age = secondsBetween(now, BigInt(attempt.recorded_at_us));
  // A capture dated in the future is reported as stale (below), not as inconsistent as well.
  const clockNow = age < -CLOCK_SKEW_SECONDS ? BigInt(attempt.recorded_at_us) : now;
  if (!packet.readyAtCapture || !packet.reviewReady) {
    available = false;
    issues.push({ def: FundingReadErrors.artifact_verification_failed, subject: 'packet' });
  } else if (!packetClocksConsistent(packet, attempt, clockNow, config.mode)) {
    available = false;
    issues.push({ def: FundingReadErrors.evidence_clock_invalid, subject: 'packet' });
  }
  let stale = false;
  if (age < -CLOCK_SKEW_SECONDS) {
    stale = true;
    issues.push({ def: FundingReadErrors.evidence_clock_invalid, subject: 'capture' });
  } else if (age > config.freshnessLimit) {
    stale = true;
    issues.push({ def: FundingReadErrors.evidence_stale, subject: 'capture' });
  }
  const ready = available && !stale && issues.length === 0;
  const override = !available ? 'capture_unavailable' : stale ? 'stale_capture' : null;

  // The packet's rows are canonical JSON (keys sorted); the review lists them in the
  // documented column order, the CSV's (data-upstream §3.5).
  const results = packet.results.map((source) => {
    const row = {} as FundingReviewRow;
    for (const key of ROW_KEYS) if (Object.hasOwn(source, key)) copyMember(row, key, source, key);
    if (override !== null) row.review_status = override;
    return row;
  });
  const receipts = receiptsOf(packet);
  const body = head(ctx, attempt);
  Object.assign(body, {
    policy_id: METHOD_VERSION,
    review_asof: packet.reviewAsof,
    // Verification pins every stored packet to this one scope.
    review_scope: 'common_sofr_iorb_horizon',
    latest_per_instrument: false,
    available,
    ready,
    stale,
    captured_at: formatInstantOffset(packet.sourceCapturedAt),
    age_seconds: Math.round(age * 1000) / 1000,
    capture_id: packet.packetId,
    availability: available ? 'available' : 'unavailable',
    data_readiness: packet.results[0]?.review_status ?? 'not_evaluated',
    issues: issuesOf(issues),
    results,
    freshness_assessments: assessmentsOf(packet),
    manifest_sha256: packet.manifestSha256,
    input_sha256: Object.fromEntries(PUBLISHER_KEYS.map((k) => [k, receipts[k].sha256])),
    source_urls: Object.fromEntries(PUBLISHER_KEYS.map((k) => [k, receipts[k].source_url])),
  } satisfies Partial<FundingReviewBody>);
  markFloat(body, 'age_seconds');
  return {
    body,
    csv: ready ? { bytes: packet.bytes['observations.csv'], sha256: packet.csvSha256 } : null,
    refusal: ready ? null : refusalOf(issues[0].def, config),
  };
}

function unavailable(ctx: FundingReviewContext, issues: Issue[], attempt: AttemptRow | null, extra: { code: string; subject: string }[] = []): FundingReviewOutcome {
  const body = head(ctx, attempt);
  body.issues = [...issuesOf(issues), ...extra];
  return { body, csv: null, refusal: refusalOf(issues[0].def, ctx.config) };
}

function refusalOf(def: ErrorDefinition, config: FundingReviewConfig): { def: ErrorDefinition; retryAfter: number } {
  return { def, retryAfter: def === CoreErrors.storage_unavailable ? 5 : retryAfterFor(def, config.captureInterval) };
}

function issuesOf(issues: readonly Issue[]): FundingReviewBody['issues'] {
  return issues.map((i) => ({ code: i.def.code, subject: i.subject }));
}

/** Every member, in the upstream's order, with the values of a review that shows nothing. */
function head(ctx: FundingReviewContext, attempt: AttemptRow | null): FundingReviewBody {
  const release = releaseIdentity(ctx.config);
  const body: FundingReviewBody = {
    schema: FUNDING_REVIEW_SCHEMA,
    policy_id: null,
    review_asof: null,
    review_scope: 'unknown',
    latest_per_instrument: null,
    available: false,
    ready: false,
    stale: null,
    captured_at: null,
    age_seconds: null,
    max_age_seconds: ctx.config.freshnessLimit,
    capture_id: null,
    availability: 'unavailable',
    data_readiness: 'not_evaluated',
    // Our capture samples no Workspace backend, so it records no release to compare with
    // (docs/DECISIONS.md): these are the upstream's "not evaluated" states.
    release_identity: 'not_requested',
    capture_release_identity: 'not_requested',
    runtime_release_identity: release.source_commit === null ? 'not_configured' : 'not_checked',
    runtime_release: {
      schema: 'financial-evidence.workspace-release.v1',
      release_id: release.release_id,
      source_commit: release.source_commit,
      workspace_version: release.workspace_version,
      package_version: release.package_version,
      contract: 'financial-evidence.workspace.v1',
    },
    issues: [],
    results: [],
    freshness_assessments: {},
    measurement: {},
    scope: FUNDING_REVIEW_MEASUREMENT_SCOPE,
    manifest_sha256: null,
    input_sha256: {},
    source_urls: {},
    observed_release: {},
    latest_attempt: attempt === null ? null : {
      outcome: attempt.outcome as 'packet_created' | 'packet_reverified' | 'failed',
      recorded_at: formatInstantOffset(BigInt(attempt.recorded_at_us)),
      error_code: attempt.error_code,
    },
  };
  if (ctx.config.mode === 'sample') body.sample = true;
  return body;
}

function assessmentsOf(packet: VerifiedPacket): FundingReviewBody['freshness_assessments'] {
  const out: Record<string, FreshnessAssessment> = {};
  for (const row of packet.results) {
    out[row.metric_id] = {
      publisher_freshness: row.publisher_freshness,
      basis: FRESHNESS_BASIS,
      instrument: row.metric_id,
      asof: row.observation_date,
      // The upstream's publication calendars and atlas cross-check do not exist here.
      expected_next_update: null,
      calendar_scope: null,
      atlas_source: null,
      canonical_latest_asof: row.canonical_latest_asof,
      latest_observation_basis: FRESHNESS_BASIS,
      newer_observation_available: row.newer_observation_available,
    };
  }
  return out;
}

interface Receipt { source_url: string; sha256: string }

// Receipts are read from the verified manifest bytes; parsed once per manifest.
const receiptMemo = new Map<string, Record<string, Receipt>>();

function receiptsOf(packet: VerifiedPacket): Record<string, Receipt> {
  const known = receiptMemo.get(packet.manifestSha256);
  if (known) return known;
  const manifest = parseStrictJson(packet.bytes['manifest.json']) as { publisher_receipts: Record<string, Receipt> };
  const receipts = manifest.publisher_receipts;
  if (receiptMemo.size >= 64) receiptMemo.delete(receiptMemo.keys().next().value as string);
  receiptMemo.set(packet.manifestSha256, receipts);
  return receipts;
}
