// Storage access of the data group. Retrievals are inserted under the blob lock (the
// funding archive's lock, which every writer and remover of funding_publisher_blobs
// holds), which also numbers them; snapshots are insert-only and named by their content.

import { randomBytes } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { SourceKey } from '../core/config.js';
import { ARCHIVE_LOCK, findBlob, storeBlob } from '../funding/archive.js';
import type { Database } from '../storage/schema.js';
import type { Storage } from '../storage/storage.js';
import type { Retrieval } from './retrieval.js';
import type { DataRetrievalsTable, DataSnapshotsTable } from './tables.js';
import { guarded } from './store-faults.js';
import type { TransportStatus } from './constants.js';

type Db = Kysely<Database>;

/** Held by everything that writes or removes rows of the shared blob table. */
export const BLOB_LOCK = ARCHIVE_LOCK;

export function newRetrievalId(): string {
  return randomBytes(16).toString('hex');
}

function toRetrieval(row: Selectable<DataRetrievalsTable>): Retrieval {
  return {
    retrievalId: row.retrieval_id,
    seq: Number(row.seq),
    mode: row.mode,
    sourceKey: row.source_key as SourceKey,
    sourceUrl: row.source_url,
    startedAtUs: Number(row.started_at_us),
    retrievedAtUs: Number(row.retrieved_at_us),
    ok: Number(row.ok) === 1,
    resolvedUrl: row.resolved_url,
    bytes: row.bytes === null ? null : Number(row.bytes),
    contentSha256: row.content_sha256,
    error: row.error,
  };
}

export const newestRetrieval = guarded(async function newestRetrieval(db: Db, mode: string, url: string): Promise<Retrieval | undefined> {
  const row = await db
    .selectFrom('data_retrievals')
    .selectAll()
    .where('mode', '=', mode)
    .where('source_url', '=', url)
    .orderBy('seq', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row && toRetrieval(row);
});

export const findRetrievals = guarded(async function findRetrievals(db: Db, ids: readonly string[]): Promise<Map<string, Retrieval>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('data_retrievals').selectAll().where('retrieval_id', 'in', [...new Set(ids)]).execute();
  return new Map(rows.map((r) => [r.retrieval_id, toRetrieval(r)]));
});

/** Stores the document (if any) and the retrieval in one transaction; returns it numbered. */
export const insertRetrieval = guarded(async function insertRetrieval(storage: Storage, retrieval: Omit<Retrieval, 'seq'>, body: Uint8Array | null): Promise<Retrieval> {
  return storage.serialized(BLOB_LOCK, async (trx) => {
    if (body) await storeBlob(trx, body, retrieval.retrievedAtUs);
    const max = await trx.selectFrom('data_retrievals').select((eb) => eb.fn.max('seq').as('m')).executeTakeFirst();
    const seq = Number(max?.m ?? 0) + 1;
    await trx
      .insertInto('data_retrievals')
      .values({
        retrieval_id: retrieval.retrievalId,
        seq,
        mode: retrieval.mode,
        source_key: retrieval.sourceKey,
        source_url: retrieval.sourceUrl,
        started_at_us: retrieval.startedAtUs,
        retrieved_at_us: retrieval.retrievedAtUs,
        ok: retrieval.ok ? 1 : 0,
        resolved_url: retrieval.resolvedUrl,
        bytes: retrieval.bytes,
        content_sha256: retrieval.contentSha256,
        error: retrieval.error,
      })
      .execute();
    return { ...retrieval, seq };
  });
});

export const loadDocumentBytes = guarded(async function loadDocumentBytes(db: Db, sha256: string): Promise<Uint8Array | undefined> {
  return findBlob(db, sha256);
});

export type SnapshotRow = {
  snapshotId: string;
  mode: string;
  dataset: string;
  createdAtUs: number;
  retrievedAtUs: number;
  contentKey: string;
  rowCount: number;
  transportStatus: TransportStatus;
};

const TRANSPORT_STATUSES = ['complete', 'partial', 'unavailable'] as const;

export interface SnapshotLink {
  position: number;
  sourceKey: SourceKey;
  retrievalId: string;
}

function toSnapshot(row: Selectable<DataSnapshotsTable>): SnapshotRow {
  return {
    snapshotId: row.snapshot_id,
    mode: row.mode,
    dataset: row.dataset,
    createdAtUs: Number(row.created_at_us),
    retrievedAtUs: Number(row.retrieved_at_us),
    contentKey: row.content_key,
    rowCount: Number(row.row_count),
    transportStatus: TRANSPORT_STATUSES.find((t) => t === row.transport_status) ?? 'unavailable',
  };
}

export const findSnapshot = guarded(async function findSnapshot(db: Db, snapshotId: string): Promise<SnapshotRow | undefined> {
  const row = await db.selectFrom('data_snapshots').selectAll().where('snapshot_id', '=', snapshotId).executeTakeFirst();
  return row && toSnapshot(row);
});

export const snapshotLinks = guarded(async function snapshotLinks(db: Db, snapshotIds: readonly string[]): Promise<Map<string, SnapshotLink[]>> {
  const out = new Map<string, SnapshotLink[]>();
  if (snapshotIds.length === 0) return out;
  const rows = await db
    .selectFrom('data_snapshot_sources')
    .selectAll()
    .where('snapshot_id', 'in', [...snapshotIds])
    .orderBy('snapshot_id')
    .orderBy('position')
    .execute();
  for (const r of rows) {
    const list = out.get(r.snapshot_id) ?? [];
    list.push({ position: Number(r.position), sourceKey: r.source_key as SourceKey, retrievalId: r.retrieval_id });
    out.set(r.snapshot_id, list);
  }
  return out;
});

/**
 * Inserts the snapshot and its links unless another instance already did; returns the
 * stored row either way, so every instance reports the same creation clock.
 */
export const insertSnapshot = guarded(async function insertSnapshot(storage: Storage, snapshot: SnapshotRow, links: readonly SnapshotLink[]): Promise<SnapshotRow> {
  return storage.db.transaction().execute(async (trx) => {
    const result = await trx
      .insertInto('data_snapshots')
      .values({
        snapshot_id: snapshot.snapshotId,
        mode: snapshot.mode,
        dataset: snapshot.dataset,
        created_at_us: snapshot.createdAtUs,
        retrieved_at_us: snapshot.retrievedAtUs,
        content_key: snapshot.contentKey,
        row_count: snapshot.rowCount,
        transport_status: snapshot.transportStatus,
      })
      .onConflict((oc) => oc.column('snapshot_id').doNothing())
      .executeTakeFirst();
    if (Number(result.numInsertedOrUpdatedRows ?? 0n) === 0) {
      const stored = await trx.selectFrom('data_snapshots').selectAll().where('snapshot_id', '=', snapshot.snapshotId).executeTakeFirst();
      return stored ? toSnapshot(stored) : snapshot;
    }
    await trx
      .insertInto('data_snapshot_sources')
      .values(links.map((l) => ({ snapshot_id: snapshot.snapshotId, position: l.position, source_key: l.sourceKey, retrieval_id: l.retrievalId })))
      .execute();
    return snapshot;
  });
});

/** The newest snapshot of a dataset retrieved at or before `us` (ties: formed later wins). */
export const snapshotAtOrBefore = guarded(async function snapshotAtOrBefore(db: Db, mode: string, dataset: string, us: number): Promise<SnapshotRow | undefined> {
  const row = await db
    .selectFrom('data_snapshots')
    .selectAll()
    .where('mode', '=', mode)
    .where('dataset', '=', dataset)
    .where('retrieved_at_us', '<=', us)
    .orderBy('retrieved_at_us', 'desc')
    .orderBy('created_at_us', 'desc')
    .orderBy('snapshot_id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row && toSnapshot(row);
});

export const newestSnapshot = guarded(async function newestSnapshot(db: Db, mode: string, dataset: string): Promise<SnapshotRow | undefined> {
  const row = await db
    .selectFrom('data_snapshots')
    .selectAll()
    .where('mode', '=', mode)
    .where('dataset', '=', dataset)
    .orderBy('retrieved_at_us', 'desc')
    .orderBy('created_at_us', 'desc')
    .orderBy('snapshot_id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row && toSnapshot(row);
});

/** One page of a dataset's snapshots, newest first, and how many there are. */
export const pageSnapshots = guarded(async function pageSnapshots(db: Db, mode: string, dataset: string, limit: number, offset: number): Promise<{ total: number; rows: SnapshotRow[] }> {
  const count = await db
    .selectFrom('data_snapshots')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('mode', '=', mode)
    .where('dataset', '=', dataset)
    .executeTakeFirst();
  const rows = await db
    .selectFrom('data_snapshots')
    .selectAll()
    .where('mode', '=', mode)
    .where('dataset', '=', dataset)
    .orderBy('retrieved_at_us', 'desc')
    .orderBy('created_at_us', 'desc')
    .orderBy('snapshot_id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
  return { total: Number(count?.n ?? 0), rows: rows.map(toSnapshot) };
});

