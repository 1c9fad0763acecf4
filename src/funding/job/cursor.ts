// cursor.json: the packet the local copy is at, its ETag and manifest digest. Written
// last, canonically encoded, and only after everything it points at has been verified.

import path from 'node:path';
import { encodeCanonicalDocument, JsonSyntaxError, parseStrictJson } from '../../core/json.js';
import { JobError } from './errors.js';
import { readBoundedFile, existsNoFollow, writeAtomic } from './files.js';
import { isPacketId } from './packet-id.js';

export const CURSOR_SCHEMA = 'financial-evidence.funding-cursor.v1';
export const CURSOR_FILE = 'cursor.json';
export const JSON_FILE_MAX_BYTES = 256 * 1024;
const ETAG_PATTERN = /^"[0-9a-f]{64}"$/;
const HEX64 = /^[0-9a-f]{64}$/;

export interface Cursor {
  schema: typeof CURSOR_SCHEMA;
  packet_id: string;
  etag: string;
  manifest_sha256: string;
}

/** The cursor, or null when the state directory has none yet. */
export function readCursor(stateDir: string): Cursor | null {
  const file = path.join(stateDir, CURSOR_FILE);
  if (!existsNoFollow(file)) return null;
  const bytes = readBoundedFile(file, JSON_FILE_MAX_BYTES, 'cursor_invalid');
  let doc: unknown;
  try {
    doc = parseStrictJson(bytes);
  } catch (error) {
    if (error instanceof JsonSyntaxError) throw new JobError('cursor_invalid', `${file} is not strict JSON: ${error.message}`);
    throw error;
  }
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) throw new JobError('cursor_invalid', `${file} must hold a JSON object`);
  const c = doc as Record<string, unknown>;
  const keys = Object.keys(c).sort();
  if (keys.join(',') !== 'etag,manifest_sha256,packet_id,schema') throw new JobError('cursor_invalid', `${file} must have exactly etag, manifest_sha256, packet_id and schema`);
  if (c.schema !== CURSOR_SCHEMA) throw new JobError('cursor_invalid', `${file} is not a ${CURSOR_SCHEMA} document`);
  if (!isPacketId(c.packet_id)) throw new JobError('cursor_invalid', `${file} names an invalid packet id`);
  if (typeof c.etag !== 'string' || !ETAG_PATTERN.test(c.etag)) throw new JobError('cursor_invalid', `${file} holds an invalid etag`);
  if (typeof c.manifest_sha256 !== 'string' || !HEX64.test(c.manifest_sha256)) throw new JobError('cursor_invalid', `${file} holds an invalid manifest_sha256`);
  return { schema: CURSOR_SCHEMA, packet_id: c.packet_id, etag: c.etag, manifest_sha256: c.manifest_sha256 };
}

export function encodeCursor(cursor: Omit<Cursor, 'schema'>): string {
  return encodeCanonicalDocument({ etag: cursor.etag, manifest_sha256: cursor.manifest_sha256, packet_id: cursor.packet_id, schema: CURSOR_SCHEMA });
}

export function writeCursor(stateDir: string, cursor: Omit<Cursor, 'schema'>): void {
  writeAtomic(path.join(stateDir, CURSOR_FILE), Buffer.from(encodeCursor(cursor), 'utf8'));
}
