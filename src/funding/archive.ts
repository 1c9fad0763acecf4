// Storage access of the funding archive. Writes happen only inside the archive lock
// (`storage.serialized(ARCHIVE_LOCK, …)`), which also numbers packets and attempts, so
// "newest" never depends on two instances' clocks agreeing.

import type { Kysely, Selectable } from 'kysely';
import { sha256Hex } from '../core/hash.js';
import type { Database } from '../storage/schema.js';
import type { AttemptsTable, PacketsTable } from './tables.js';

export const ARCHIVE_LOCK = 'funding-archive';
export const CAPTURE_LEASE = 'funding-capture';

export type PacketRow = Selectable<PacketsTable>;
export type AttemptRow = Selectable<AttemptsTable>;
type Db = Kysely<Database>;

function bytesOf(value: unknown): Uint8Array {
  if (value instanceof Uint8Array) return value;
  throw new TypeError('a binary column did not come back as bytes');
}

function normalisePacket(row: PacketRow): PacketRow {
  return {
    ...row,
    seq: Number(row.seq),
    archived_at_us: Number(row.archived_at_us),
    source_captured_at_us: Number(row.source_captured_at_us),
    ready_at_capture: Number(row.ready_at_capture),
    manifest: bytesOf(row.manifest),
    review: bytesOf(row.review),
    csv: bytesOf(row.csv),
  };
}

function normaliseAttempt(row: AttemptRow): AttemptRow {
  return { ...row, seq: Number(row.seq), started_at_us: Number(row.started_at_us), recorded_at_us: Number(row.recorded_at_us) };
}

/** The newest attempt of this mode: the live pointer `latest` follows. */
export async function newestAttempt(db: Db, mode: string): Promise<AttemptRow | undefined> {
  const row = await db.selectFrom('funding_attempts').selectAll().where('mode', '=', mode).orderBy('seq', 'desc').limit(1).executeTakeFirst();
  return row && normaliseAttempt(row);
}

export async function newestPacket(db: Db, mode: string): Promise<PacketRow | undefined> {
  const row = await db.selectFrom('funding_packets').selectAll().where('mode', '=', mode).orderBy('seq', 'desc').limit(1).executeTakeFirst();
  return row && normalisePacket(row);
}

export async function findPacket(db: Db, packetId: string): Promise<PacketRow | undefined> {
  const row = await db.selectFrom('funding_packets').selectAll().where('packet_id', '=', packetId).executeTakeFirst();
  return row && normalisePacket(row);
}

/** Packet metadata only (no artifact bytes), for cursors and listings. */
export async function findPacketMeta(db: Db, packetId: string, mode: string) {
  const row = await db
    .selectFrom('funding_packets')
    .select(['packet_id', 'archived_at_us', 'seq'])
    .where('packet_id', '=', packetId)
    .where('mode', '=', mode)
    .executeTakeFirst();
  return row && { packet_id: row.packet_id, archived_at_us: Number(row.archived_at_us), seq: Number(row.seq) };
}

export async function countAttempts(db: Db, mode: string): Promise<number> {
  const row = await db.selectFrom('funding_attempts').select((eb) => eb.fn.countAll().as('n')).where('mode', '=', mode).executeTakeFirst();
  return Number(row?.n ?? 0);
}

async function nextSeq(trx: Db, table: 'funding_packets' | 'funding_attempts'): Promise<number> {
  const row = await trx.selectFrom(table).select((eb) => eb.fn.max('seq').as('m')).executeTakeFirst();
  return Number(row?.m ?? 0) + 1;
}

export class BlobMismatchError extends Error {
  constructor(sha256: string) {
    super(`stored publisher body ${sha256} no longer hashes to its name`);
    this.name = 'BlobMismatchError';
  }
}

/** Stores a publisher body under its SHA-256 unless present; a present one must still match. */
export async function storeBlob(trx: Db, bytes: Uint8Array, nowUs: number): Promise<string> {
  const sha256 = sha256Hex(bytes);
  const existing = await trx.selectFrom('funding_publisher_blobs').select(['bytes']).where('sha256', '=', sha256).executeTakeFirst();
  if (existing) {
    if (sha256Hex(bytesOf(existing.bytes)) !== sha256) throw new BlobMismatchError(sha256);
    return sha256;
  }
  await trx.insertInto('funding_publisher_blobs').values({ sha256, bytes: Buffer.from(bytes), size: bytes.byteLength, first_stored_at_us: nowUs }).execute();
  return sha256;
}

/** A stored publisher (or group C source) body by its SHA-256. */
export async function findBlob(db: Db, sha256: string): Promise<Uint8Array | undefined> {
  const row = await db.selectFrom('funding_publisher_blobs').select(['bytes']).where('sha256', '=', sha256).executeTakeFirst();
  return row && bytesOf(row.bytes);
}

export type NewPacket = Omit<PacketsTable, 'seq'>;
export type NewAttempt = Omit<AttemptsTable, 'seq'>;

export async function insertPacket(trx: Db, packet: NewPacket): Promise<void> {
  const seq = await nextSeq(trx, 'funding_packets');
  await trx
    .insertInto('funding_packets')
    .values({ ...packet, seq, manifest: Buffer.from(packet.manifest), review: Buffer.from(packet.review), csv: Buffer.from(packet.csv) })
    .execute();
}

export async function insertAttempt(trx: Db, attempt: NewAttempt): Promise<number> {
  const seq = await nextSeq(trx, 'funding_attempts');
  await trx.insertInto('funding_attempts').values({ ...attempt, seq }).execute();
  return seq;
}
