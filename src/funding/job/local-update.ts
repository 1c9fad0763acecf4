// What `funding_update` (the stdio MCP tool) answers: the verified local copy that
// `evidence-desk job --state DIR` keeps, read without any network access. The copy is
// re-verified on every call (manifest digest from the cursor, artifact digests from the
// manifest), so a tampered or half-written directory is refused, never reported.
import fs from 'node:fs';
import path from 'node:path';
import { AppError, defineErrors } from '../../core/errors.js';
import { parseStrictJson } from '../../core/json.js';
import { readCursor } from './cursor.js';
import { JobError } from './errors.js';
import { readBoundedFile } from './files.js';
import { PACKET_FILE_MAX_BYTES, verifyPacketDirectory } from './verify.js';

export const LocalCopyErrors = defineErrors('funding', {
  local_copy_missing: {
    status: 404,
    meaning: 'The job state directory holds no verified funding packet yet; run `evidence-desk job --state DIR` first.',
  },
  local_copy_invalid: {
    status: 409,
    meaning: 'The local funding copy fails verification (cursor, manifest or artifact digests); run the job again to replace it.',
  },
});

export interface LocalUpdate {
  update: { packet_id: string; manifest_sha256: string; etag: string; source: 'verified_local_copy' };
  review_asof: string | null;
  scope: unknown;
  observations: unknown;
  manifest: unknown;
  /** The change document that led to this packet, when the job saved one. */
  changes: unknown;
}

export function readLocalUpdate(stateDir: string): LocalUpdate {
  try {
    const cursor = readCursor(stateDir);
    if (cursor === null) throw new AppError(LocalCopyErrors.local_copy_missing, 'the state directory has no cursor.json yet: no packet has been fetched and verified');
    const dir = path.join(stateDir, 'packets', cursor.packet_id);
    const verified = verifyPacketDirectory(dir, cursor.packet_id, cursor.manifest_sha256, 'local_packet_invalid');
    const manifest = parseStrictJson(readBoundedFile(path.join(dir, 'manifest.json'), PACKET_FILE_MAX_BYTES, 'local_packet_invalid'));
    const review = parseStrictJson(readBoundedFile(path.join(dir, 'review.json'), PACKET_FILE_MAX_BYTES, 'local_packet_invalid')) as Record<string, unknown>;
    return {
      update: { packet_id: cursor.packet_id, manifest_sha256: cursor.manifest_sha256, etag: cursor.etag, source: 'verified_local_copy' },
      review_asof: verified.reviewAsof,
      scope: review.review_scope ?? null,
      observations: verified.results,
      manifest,
      changes: changesInto(stateDir, cursor.packet_id),
    };
  } catch (error) {
    if (error instanceof JobError) throw new AppError(LocalCopyErrors.local_copy_invalid, error.message, { cause: error });
    throw error;
  }
}

/** The newest saved change document ending at `packetId` (names are `<before>--<after>.json`). */
function changesInto(stateDir: string, packetId: string): unknown {
  const dir = path.join(stateDir, 'changes');
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return null;
  }
  const suffix = `--${packetId}.json`;
  const matching = names.filter((n) => n.endsWith(suffix)).sort();
  if (matching.length === 0) return null;
  return parseStrictJson(readBoundedFile(path.join(dir, matching[matching.length - 1]), PACKET_FILE_MAX_BYTES, 'local_packet_invalid'));
}
