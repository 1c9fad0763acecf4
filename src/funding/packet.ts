// Packet identity and the two JSON artifacts' documents (review.json, manifest.json),
// encoded canonically so their SHA-256 is stable.

import { randomBytes } from 'node:crypto';
import { encodeCanonicalDocument } from '../core/json.js';
import { sha256Hex } from '../core/hash.js';
import { formatInstantCompact, formatInstantOffset, type Instant } from '../core/time.js';
import { renderObservationsCsv } from './csv.js';
import { producerModulesSha256, producerSourceCommit } from './producer.js';
import { PUBLISHER_KEYS, type PublisherKey } from './publishers/types.js';
import { buildReviewDocument, type ReviewInput } from './review.js';
import { rowDocument, REVIEW_SCOPE, type ObservationRow } from './rows.js';
import type { PacketManifest, PublisherReceipt } from './schemas/packet.js';
import { KNOWLEDGE_TIME_BASIS, MANIFEST_SCHEMA, METHOD_VERSION, VALUE_BASIS } from './terms.js';

export const PACKET_ID_PATTERN = /^[0-9]{8}T[0-9]{6}\.[0-9]{6}Z-[0-9a-f]{32}$/;

export function isPacketId(value: unknown): value is string {
  return typeof value === 'string' && PACKET_ID_PATTERN.test(value);
}

/** Capture instant (`YYYYMMDDTHHMMSS.ffffffZ`) + '-' + 32 random lowercase hex. */
export function mintPacketId(capturedAt: Instant): string {
  return `${formatInstantCompact(capturedAt)}-${randomBytes(16).toString('hex')}`;
}

export const PACKET_FILES = ['manifest.json', 'review.json', 'observations.csv'] as const;
export type PacketFile = (typeof PACKET_FILES)[number];

export type { PublisherReceipt } from './schemas/packet.js';
export type PublisherReceipts = PacketManifest['publisher_receipts'];

/** Receipts in PUBLISHER_KEYS order (the encoder sorts keys anyway). */
export function orderedReceipts(receipts: Partial<Record<PublisherKey, PublisherReceipt>>): Partial<Record<PublisherKey, PublisherReceipt>> {
  const out: Partial<Record<PublisherKey, PublisherReceipt>> = {};
  for (const key of PUBLISHER_KEYS) if (receipts[key]) out[key] = { ...receipts[key] };
  return out;
}

/**
 * Our stand-in for the upstream `source_manifest_sha256`: there is no upstream capture
 * manifest here, so the packet's "source manifest" is its set of publisher receipts, and
 * this digest identifies exactly which seven documents it was built from.
 */
export function sourceManifestSha256(receipts: PublisherReceipts): string {
  return sha256Hex(encodeCanonicalDocument(orderedReceipts(receipts)));
}

export interface ContentArtifacts {
  review: Uint8Array;
  csv: Uint8Array;
  reviewSha256: string;
  csvSha256: string;
}

/** review.json and observations.csv bytes for a set of rows. */
export function encodeContentArtifacts(input: ReviewInput): ContentArtifacts {
  const review = Buffer.from(encodeCanonicalDocument(buildReviewDocument(input)), 'utf8');
  const csv = Buffer.from(renderObservationsCsv(input.rows.map(rowDocument)), 'utf8');
  return { review, csv, reviewSha256: sha256Hex(review), csvSha256: sha256Hex(csv) };
}

export interface ManifestInput {
  packetId: string;
  archivedAt: Instant;
  capturedAt: Instant;
  reviewAsof: string;
  readyAtCapture: boolean;
  artifacts: ContentArtifacts;
  receipts: PublisherReceipts;
  sample: boolean;
}

export function buildManifestDocument(input: ManifestInput): PacketManifest {
  const doc: PacketManifest = {
    schema: MANIFEST_SCHEMA,
    packet_id: input.packetId,
    archived_at: formatInstantOffset(input.archivedAt),
    source_captured_at: formatInstantOffset(input.capturedAt),
    source_manifest_sha256: sourceManifestSha256(input.receipts),
    knowledge_time_basis: KNOWLEDGE_TIME_BASIS,
    producer_source_commit: producerSourceCommit(),
    producer_modules_sha256: { ...producerModulesSha256() },
    method_version: METHOD_VERSION,
    review_asof: input.reviewAsof,
    review_scope: REVIEW_SCOPE,
    latest_per_instrument: false,
    ready_at_capture: input.readyAtCapture,
    artifacts: { 'observations.csv': input.artifacts.csvSha256, 'review.json': input.artifacts.reviewSha256 },
    publisher_receipts: orderedReceipts(input.receipts) as PublisherReceipts,
    value_basis: VALUE_BASIS,
  };
  if (input.sample) doc.sample = true;
  return doc;
}

export function encodeManifest(input: ManifestInput): { bytes: Uint8Array; sha256: string } {
  const bytes = Buffer.from(encodeCanonicalDocument(buildManifestDocument(input)), 'utf8');
  return { bytes, sha256: sha256Hex(bytes) };
}

export type { ObservationRow };
