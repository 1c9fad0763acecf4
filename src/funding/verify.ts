// Verification of a stored packet, from its exact bytes: the manifest hashes to the
// recorded digest and is canonical; review.json and observations.csv hash to what the
// manifest says; the review obeys the packet rules; the CSV is exactly the rendering of
// the review's rows. Readers run this on every request. The SHA-256 of all three
// artifacts is always recomputed; only the parse-and-check work is remembered, keyed by
// those freshly computed digests, so a changed byte can never reuse an earlier verdict.

import { encodeCanonicalDocument, isFloatToken, parseStrictJson } from '../core/json.js';
import { sha256Hex } from '../core/hash.js';
import { formatInstantOffset, parseIsoDate, parseUtcTimestamp, type Instant } from '../core/time.js';
import type { PacketRow } from './archive.js';
import { renderObservationsCsv } from './csv.js';
import { isPacketId, PACKET_FILES, sourceManifestSha256, type PublisherReceipts } from './packet.js';
import { IORB_SOURCES } from './publishers/catalogue.js';
import { METRIC_IDS, PUBLISHER_KEYS } from './publishers/types.js';
import { expectedUnit, PUBLISHER_FRESHNESS, REVIEW_SCOPE, ROW_COLUMNS, VALUE_STATE } from './rows.js';
import type { ObservationRowDocument } from './schemas/common.js';
import { MANIFEST_SCHEMA, REVIEW_SCHEMA } from './terms.js';

export class PacketVerificationError extends Error {
  constructor(readonly packetId: string, detail: string) {
    super(`packet ${packetId}: ${detail}`);
    this.name = 'PacketVerificationError';
  }
}

export interface VerifiedPacket {
  readonly packetId: string;
  readonly mode: string;
  readonly seq: number;
  readonly manifestSha256: string;
  readonly reviewSha256: string;
  readonly csvSha256: string;
  readonly sourceManifestSha256: string;
  readonly archivedAt: Instant;
  readonly sourceCapturedAt: Instant;
  readonly reviewAsof: string;
  readonly reviewScope: string;
  readonly readyAtCapture: boolean;
  readonly reviewReady: boolean;
  /** The review's `results`, parsed with number kinds intact and checked row by row. Treat as read-only. */
  readonly results: readonly ObservationRowDocument[];
  readonly bytes: Readonly<Record<(typeof PACKET_FILES)[number], Uint8Array>>;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const isHex64 = (v: unknown): v is string => typeof v === 'string' && /^[0-9a-f]{64}$/.test(v);
const isDate = (v: unknown): v is string => typeof v === 'string' && parseIsoDate(v) !== null;

const utf8 = new TextDecoder('utf-8', { fatal: true });

function parseCanonical(packetId: string, name: string, bytes: Uint8Array): Json {
  let text: string;
  let doc: unknown;
  try {
    text = utf8.decode(bytes);
    doc = parseStrictJson(text);
  } catch (error) {
    throw new PacketVerificationError(packetId, `${name} is not strict JSON (${(error as Error).message})`);
  }
  if (!isObject(doc)) throw new PacketVerificationError(packetId, `${name} is not a JSON object`);
  if (encodeCanonicalDocument(doc) !== text) throw new PacketVerificationError(packetId, `${name} is not in canonical form`);
  return doc;
}

function timestamp(packetId: string, where: string, value: unknown): Instant {
  const t = typeof value === 'string' ? parseUtcTimestamp(value) : null;
  if (t === null || formatInstantOffset(t) !== value) throw new PacketVerificationError(packetId, `${where} is not a +00:00 timestamp with microseconds`);
  return t;
}

function checkReceipts(packetId: string, receipts: unknown): PublisherReceipts {
  if (!isObject(receipts)) throw new PacketVerificationError(packetId, 'publisher_receipts is not an object');
  const keys = Object.keys(receipts).sort();
  if (keys.join(',') !== [...PUBLISHER_KEYS].sort().join(',')) throw new PacketVerificationError(packetId, 'publisher_receipts does not list the seven documents');
  for (const key of PUBLISHER_KEYS) {
    const r = receipts[key];
    if (!isObject(r) || typeof r.source_url !== 'string' || !isHex64(r.sha256) || !Number.isSafeInteger(r.bytes) || (r.bytes as number) < 0) {
      throw new PacketVerificationError(packetId, `publisher receipt ${key} is malformed`);
    }
    timestamp(packetId, `publisher receipt ${key} retrieved_at`, r.retrieved_at);
    if (r.source_id !== undefined && (key !== 'iorb' || !(IORB_SOURCES as readonly unknown[]).includes(r.source_id))) {
      throw new PacketVerificationError(packetId, `publisher receipt ${key} names an unknown source_id`);
    }
  }
  return receipts as unknown as PublisherReceipts;
}

/** The packet rules every `results` list obeys (the same rules the CSV is checked against). */
export function checkResults(packetId: string, review: Json): ObservationRowDocument[] {
  const results = review.results;
  if (!Array.isArray(results) || results.length !== METRIC_IDS.length) {
    throw new PacketVerificationError(packetId, `review results must hold exactly ${METRIC_IDS.length} rows`);
  }
  const assessments = review.freshness_assessments;
  if (!isObject(assessments)) throw new PacketVerificationError(packetId, 'freshness_assessments is not an object');
  results.forEach((row: unknown, i) => {
    const metric = METRIC_IDS[i];
    const bad = (detail: string) => new PacketVerificationError(packetId, `row ${i + 1} (${metric}): ${detail}`);
    if (!isObject(row)) throw bad('not an object');
    const keys = Object.keys(row);
    if (keys.length !== ROW_COLUMNS.length || !ROW_COLUMNS.every((c) => Object.hasOwn(row, c))) throw bad('does not have exactly the fifteen row keys');
    if (row.metric_id !== metric) throw bad(`metric_id is ${String(row.metric_id)}`);
    if (typeof row.value !== 'number' || !Number.isFinite(row.value) || !isFloatToken(row, 'value')) throw bad('value is not a finite float');
    if (row.unit !== expectedUnit(metric)) throw bad(`unit ${String(row.unit)} is not ${expectedUnit(metric)}`);
    if (!isDate(row.observation_date) || !isDate(row.canonical_latest_asof)) throw bad('dates are malformed');
    if (typeof row.source !== 'string' || row.source === '') throw bad('source is empty');
    if (row.cadence !== 'daily' && row.cadence !== 'weekly') throw bad('cadence is neither daily nor weekly');
    if (row.publisher_freshness !== PUBLISHER_FRESHNESS || row.value_state !== VALUE_STATE) throw bad('is not a directly verified available value');
    if (row.evaluated_at !== review.captured_at) throw bad('evaluated_at differs from the review captured_at');
    if (row.review_status !== review.data_readiness) throw bad('review_status differs from the review data_readiness');
    if (row.review_asof !== review.review_asof || row.review_scope !== review.review_scope) throw bad('scope cells differ from the review');
    if (row.latest_per_instrument !== false) throw bad('latest_per_instrument is not false');
    if (row.observation_date > (review.review_asof as string)) throw bad('observation_date lies after review_asof');
    if (row.canonical_latest_asof < row.observation_date) throw bad('canonical_latest_asof precedes observation_date');
    const newer = row.canonical_latest_asof > row.observation_date;
    if (row.newer_observation_available !== newer) throw bad('newer_observation_available disagrees with the dates');
    const a = assessments[metric];
    if (!isObject(a) || a.canonical_latest_asof !== row.canonical_latest_asof || a.newer_observation_available !== row.newer_observation_available) {
      throw bad('freshness assessment disagrees with the row');
    }
  });
  // Every member of every row was checked above.
  return results as ObservationRowDocument[];
}

const memo = new Map<string, VerifiedPacket>();
const MEMO_LIMIT = 512;

/** Verifies a stored packet row; throws PacketVerificationError on any mismatch. */
export function verifyStoredPacket(row: PacketRow): VerifiedPacket {
  const id = row.packet_id;
  if (!isPacketId(id)) throw new PacketVerificationError(String(id), 'packet id is malformed');
  const manifestSha256 = sha256Hex(row.manifest);
  const reviewSha256 = sha256Hex(row.review);
  const csvSha256 = sha256Hex(row.csv);
  if (manifestSha256 !== row.manifest_sha256) throw new PacketVerificationError(id, 'manifest.json does not hash to the recorded manifest_sha256');

  const key = [id, row.mode, row.seq, manifestSha256, reviewSha256, csvSha256, row.archived_at_us, row.source_captured_at_us,
    row.review_asof, row.review_scope, row.ready_at_capture, row.source_manifest_sha256].join('|');
  const known = memo.get(key);
  if (known) return known;

  const manifest = parseCanonical(id, 'manifest.json', row.manifest);
  if (manifest.schema !== MANIFEST_SCHEMA) throw new PacketVerificationError(id, 'manifest schema is wrong');
  if (manifest.packet_id !== id) throw new PacketVerificationError(id, 'manifest names another packet');
  const artifacts = manifest.artifacts;
  if (!isObject(artifacts) || Object.keys(artifacts).length !== 2) throw new PacketVerificationError(id, 'manifest artifacts must list two files');
  if (artifacts['review.json'] !== reviewSha256) throw new PacketVerificationError(id, 'review.json does not hash to the manifest entry');
  if (artifacts['observations.csv'] !== csvSha256) throw new PacketVerificationError(id, 'observations.csv does not hash to the manifest entry');
  const archivedAt = timestamp(id, 'manifest archived_at', manifest.archived_at);
  const sourceCapturedAt = timestamp(id, 'manifest source_captured_at', manifest.source_captured_at);
  if (Number(archivedAt) !== row.archived_at_us || Number(sourceCapturedAt) !== row.source_captured_at_us) {
    throw new PacketVerificationError(id, 'manifest clocks differ from the archive record');
  }
  if (manifest.review_scope !== REVIEW_SCOPE || manifest.review_scope !== row.review_scope) throw new PacketVerificationError(id, 'review_scope is wrong');
  if (!isDate(manifest.review_asof) || manifest.review_asof !== row.review_asof) throw new PacketVerificationError(id, 'review_asof differs from the archive record');
  if (manifest.latest_per_instrument !== false) throw new PacketVerificationError(id, 'manifest latest_per_instrument is not false');
  if (typeof manifest.ready_at_capture !== 'boolean' || Number(manifest.ready_at_capture) !== row.ready_at_capture) {
    throw new PacketVerificationError(id, 'ready_at_capture differs from the archive record');
  }
  const receipts = checkReceipts(id, manifest.publisher_receipts);
  const sourceManifest = sourceManifestSha256(receipts);
  if (manifest.source_manifest_sha256 !== sourceManifest || row.source_manifest_sha256 !== sourceManifest) {
    throw new PacketVerificationError(id, 'source_manifest_sha256 does not match the publisher receipts');
  }
  if ((manifest.sample === true) !== (row.mode === 'sample')) throw new PacketVerificationError(id, 'sample marking differs from the archive record');

  const review = parseCanonical(id, 'review.json', row.review);
  if (review.schema !== REVIEW_SCHEMA) throw new PacketVerificationError(id, 'review schema is wrong');
  if (review.capture_id !== id) throw new PacketVerificationError(id, 'review capture_id names another packet');
  if (review.captured_at !== manifest.source_captured_at) throw new PacketVerificationError(id, 'review captured_at differs from the manifest');
  if (review.available !== true || review.stale !== false || typeof review.ready !== 'boolean') {
    throw new PacketVerificationError(id, 'review is not an available, non-stale review');
  }
  if (review.review_asof !== manifest.review_asof || review.review_scope !== manifest.review_scope || review.latest_per_instrument !== false) {
    throw new PacketVerificationError(id, 'review scope differs from the manifest');
  }
  if (!Array.isArray(review.issues) || (review.ready === true && review.issues.length !== 0)) throw new PacketVerificationError(id, 'a ready review lists issues');
  const results = checkResults(id, review);
  if (Buffer.from(renderObservationsCsv(results), 'utf8').compare(Buffer.from(row.csv)) !== 0) {
    throw new PacketVerificationError(id, 'observations.csv is not the rendering of the review rows');
  }

  const verified: VerifiedPacket = Object.freeze({
    packetId: id,
    mode: row.mode,
    seq: row.seq,
    manifestSha256,
    reviewSha256,
    csvSha256,
    sourceManifestSha256: sourceManifest,
    archivedAt,
    sourceCapturedAt,
    reviewAsof: manifest.review_asof,
    reviewScope: manifest.review_scope,
    readyAtCapture: manifest.ready_at_capture,
    reviewReady: review.ready,
    results: Object.freeze(results),
    bytes: Object.freeze({ 'manifest.json': row.manifest, 'review.json': row.review, 'observations.csv': row.csv }),
  });
  if (memo.size >= MEMO_LIMIT) memo.delete(memo.keys().next().value as string);
  memo.set(key, verified);
  return verified;
}
