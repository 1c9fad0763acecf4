// Error codes of the funding read routes (latest, changes, history, packet downloads).
//
// Every 503 names *why* the evidence is unavailable, so a client can tell "not captured
// yet" from "the newest capture failed" from "stale" from "the stored bytes no longer
// match their manifest", and each carries Retry-After. The publisher capture codes live
// in ./errors.ts.

import { AppError, defineErrors, type ErrorDefinition } from '../core/errors.js';
import { problem, QueryValidationError } from '../core/query-problems.js';

export const FundingReadErrors = defineErrors('funding', {
  evidence_not_captured: {
    status: 503,
    meaning: 'No funding capture attempt has been recorded yet, so there is no current packet.',
  },
  latest_attempt_failed: {
    status: 503,
    meaning: 'The newest funding capture attempt failed; an earlier packet is never served in its place.',
  },
  evidence_stale: {
    status: 503,
    meaning: 'The newest successful funding capture is older than the freshness limit.',
  },
  evidence_clock_invalid: {
    status: 503,
    meaning: 'The clocks recorded for the current packet or attempt are inconsistent with each other or with now.',
  },
  artifact_verification_failed: {
    status: 503,
    meaning: 'A stored packet artifact does not match its manifest or fails the packet rules, so it is not served.',
  },
  changes_comparison_failed: {
    status: 503,
    meaning: 'The two packets could not be compared row by row.',
  },
  since_required: {
    status: 422,
    meaning: 'The changes operation needs the query parameter since (a packet id).',
  },
  invalid_packet_id: {
    status: 400,
    meaning: 'A packet id must look like YYYYMMDDTHHMMSS.ffffffZ-<32 lowercase hex>.',
  },
  since_outside_archive: {
    status: 404,
    meaning: 'The starting packet of a changes request is not in this forward archive.',
  },
  latest_changed: {
    status: 409,
    meaning: 'The until packet is not the current latest packet; retrieve latest again.',
  },
  since_after_latest: {
    status: 409,
    meaning: 'The starting packet was archived after the current latest packet; changes only run forward.',
  },
  invalid_as_of: {
    status: 422,
    meaning: 'as_of must be an ISO 8601 timestamp with a time zone, not later than now.',
  },
  history_cursor_not_found: {
    status: 404,
    meaning: 'The before cursor of a history request names a packet that is not in this archive.',
  },
  packet_not_found: {
    status: 404,
    meaning: 'No packet with this id exists in this archive.',
  },
  packet_file_not_found: {
    status: 404,
    meaning: 'A packet has exactly three files: manifest.json, review.json and observations.csv.',
  },
  cors_preflight_refused: {
    status: 400,
    meaning: 'The CORS preflight names an origin, method or header this service does not allow.',
  },
});

/** Seconds a client should wait before asking again after a 503 of this kind. */
export function retryAfterFor(def: ErrorDefinition, captureInterval: number): number {
  if (def === FundingReadErrors.artifact_verification_failed || def === FundingReadErrors.evidence_clock_invalid) return 300;
  // A new capture can change the answer; do not advise waiting longer than one cycle.
  const cycle = captureInterval > 0 ? captureInterval : 300;
  return Math.max(1, Math.min(cycle, 300));
}

/** A 503 with Retry-After and its reason code. */
export function unavailable(def: ErrorDefinition, message: string, captureInterval: number, cause?: unknown): AppError {
  return new AppError(def, message, { headers: { 'retry-after': String(retryAfterFor(def, captureInterval)) }, cause });
}

/**
 * changes without `since`: the one refusal the upstream's framework makes before any check
 * of its own, so its body is the framework's validation list (`loc: ["query", "since"]`).
 */
export function sinceRequired(): QueryValidationError {
  return new QueryValidationError([problem(FundingReadErrors.since_required, 'since', 'missing', 'required: the id of a packet you hold', null)]);
}
