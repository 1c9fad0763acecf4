// Verifying a packet directory: the manifest hashes to the expected digest and names the
// packet, its artifact set is exactly review.json + observations.csv, each artifact
// hashes to the manifest, and the review is ready and belongs to the same capture.

import fs from 'node:fs';
import path from 'node:path';
import { sha256Hex } from '../../core/hash.js';
import { JsonSyntaxError, parseStrictJson } from '../../core/json.js';
import { JobError, type JobFailure } from './errors.js';
import { readBoundedFile } from './files.js';

export const PACKET_FILE_MAX_BYTES = 256 * 1024;
export const ARTIFACT_NAMES = ['review.json', 'observations.csv'] as const;
export const PACKET_FILE_NAMES = ['manifest.json', ...ARTIFACT_NAMES] as const;
const HEX64 = /^[0-9a-f]{64}$/;

export interface VerifiedPacket {
  /** review.json `results`, parsed with number kinds kept. */
  results: unknown;
  reviewAsof: string | null;
}

function parseObject(bytes: Uint8Array, what: string, failure: JobFailure): Record<string, unknown> {
  let doc: unknown;
  try {
    doc = parseStrictJson(bytes);
  } catch (error) {
    if (error instanceof JsonSyntaxError) throw new JobError(failure, `${what} is not strict JSON: ${error.message}`);
    throw error;
  }
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) throw new JobError(failure, `${what} must hold a JSON object`);
  return doc as Record<string, unknown>;
}

export function verifyPacketDirectory(dir: string, packetId: string, manifestSha256: string, failure: JobFailure): VerifiedPacket {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(dir);
  } catch {
    throw new JobError(failure, `the packet directory ${dir} is missing`);
  }
  if (stat.isSymbolicLink() || !stat.isDirectory()) throw new JobError(failure, `${dir} is not a plain directory`);

  const read = (name: string) => readBoundedFile(path.join(dir, name), PACKET_FILE_MAX_BYTES, failure);
  const manifestBytes = read('manifest.json');
  if (sha256Hex(manifestBytes) !== manifestSha256) throw new JobError(failure, `${dir}/manifest.json does not hash to the expected manifest digest`);
  const manifest = parseObject(manifestBytes, `${dir}/manifest.json`, failure);
  if (manifest.packet_id !== packetId) throw new JobError(failure, `${dir}/manifest.json names another packet`);
  const artifacts = manifest.artifacts;
  if (artifacts === null || typeof artifacts !== 'object' || Array.isArray(artifacts)) throw new JobError(failure, `${dir}/manifest.json has no artifacts object`);
  const digests = artifacts as Record<string, unknown>;
  if (Object.keys(digests).sort().join(',') !== [...ARTIFACT_NAMES].sort().join(',')) {
    throw new JobError(failure, `${dir}/manifest.json must list exactly ${ARTIFACT_NAMES.join(' and ')}`);
  }
  const files: Record<string, Buffer> = {};
  for (const name of ARTIFACT_NAMES) {
    const expected = digests[name];
    if (typeof expected !== 'string' || !HEX64.test(expected)) throw new JobError(failure, `${dir}/manifest.json has an invalid digest for ${name}`);
    files[name] = read(name);
    if (sha256Hex(files[name]) !== expected) throw new JobError(failure, `${dir}/${name} does not match its manifest digest`);
  }
  const review = parseObject(files['review.json'], `${dir}/review.json`, failure);
  if (review.capture_id !== packetId) throw new JobError(failure, `${dir}/review.json belongs to another capture`);
  if (review.ready !== true) throw new JobError(failure, `${dir}/review.json is not ready`);
  const asof = review.review_asof;
  return { results: review.results, reviewAsof: typeof asof === 'string' ? asof : null };
}
