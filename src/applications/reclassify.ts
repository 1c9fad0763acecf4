// Operator reclassification of one application, forward only: completions already
// recorded keep the class they were recorded under; later ones use the new class (and
// open a cohort in it). `external_verified` needs an evidence file, of which only the
// SHA-256 is kept.

import { sha256Hex } from '../core/hash.js';
import { JsonSyntaxError, parseStrictJson } from '../core/json.js';
import type { ApplicationContext } from './context.js';
import { utcDate } from './days.js';
import { purgeExpired } from './retention.js';
import type { TrafficClass } from './tables.js';
import { APPLICATION_ID_PATTERN } from './token.js';

export const RECLASSIFIABLE: readonly TrafficClass[] = ['internal', 'unverified', 'external_verified'];
export const EVIDENCE_MAX_BYTES = 16 * 1024;

export class ReclassifyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReclassifyError';
  }
}

export interface ReclassifyRequest {
  applicationId: string;
  classification: string;
  /** The exact bytes of the evidence file, when one was given. */
  evidence?: Uint8Array;
}

export interface ReclassifyResult {
  application_id: string;
  classification: TrafficClass;
  evidence_sha256: string | null;
  past_completions_reclassified: false;
}

/** Checks an evidence document for `applicationId`; returns its SHA-256. */
export function checkEvidence(applicationId: string, bytes: Uint8Array): string {
  if (bytes.length > EVIDENCE_MAX_BYTES) throw new ReclassifyError(`the evidence file is larger than ${EVIDENCE_MAX_BYTES} bytes`);
  let doc: unknown;
  try {
    doc = parseStrictJson(bytes);
  } catch (error) {
    if (error instanceof JsonSyntaxError) throw new ReclassifyError(`the evidence file is not strict JSON: ${error.message}`);
    throw error;
  }
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) throw new ReclassifyError('the evidence file must hold a JSON object');
  const record = doc as Record<string, unknown>;
  if (record.application_id !== applicationId) throw new ReclassifyError('the evidence file names a different application_id');
  if (record.independent_operator !== true) throw new ReclassifyError('the evidence file must state "independent_operator": true');
  if (typeof record.basis !== 'string' || record.basis.trim() === '') throw new ReclassifyError('the evidence file must give a non-empty "basis"');
  return sha256Hex(bytes);
}

export async function reclassify(ctx: ApplicationContext, request: ReclassifyRequest): Promise<ReclassifyResult> {
  const { applicationId } = request;
  if (!APPLICATION_ID_PATTERN.test(applicationId)) throw new ReclassifyError('the application id must be 32 lowercase hex characters');
  if (!(RECLASSIFIABLE as readonly string[]).includes(request.classification)) {
    throw new ReclassifyError(`the class must be one of ${RECLASSIFIABLE.join(', ')}`);
  }
  const classification = request.classification as TrafficClass;
  let evidenceSha256: string | null = null;
  if (classification === 'external_verified') {
    if (!request.evidence) throw new ReclassifyError('external_verified needs an evidence file (--evidence)');
    evidenceSha256 = checkEvidence(applicationId, request.evidence);
  } else if (request.evidence) {
    throw new ReclassifyError('an evidence file is only used for external_verified');
  }
  await purgeExpired(ctx.storage.db, utcDate(ctx.clock()));
  const updated = await ctx.storage.db
    .updateTable('applications')
    .set({ traffic_class: classification, evidence_sha256: evidenceSha256 })
    .where('id', '=', applicationId)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) throw new ReclassifyError('no retained application has this id');
  return { application_id: applicationId, classification, evidence_sha256: evidenceSha256, past_completions_reclassified: false };
}
