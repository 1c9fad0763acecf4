// Retention of the data store.
//
// - A snapshot older than the retention period (default 90 days) is removed.
// - A snapshot older than the pin window (default 24 h) whose sources had exactly the
//   same outcome and bytes as the snapshot before it (same dataset, retrieval order) is
//   removed too: it differs from its predecessor only in clocks. So `as_retrieved_at`
//   still finds the same content (the first snapshot that had it), while a minute-by-
//   minute history of an unchanged source does not pile up. Every snapshot stays
//   answerable by id for at least the pin window.
// - A retrieval older than the retention period that no remaining snapshot names is
//   removed (until then it is the record of that attempt).
// - A document blob is removed only when no retrieval names it any more and nothing in
//   the funding archive mentions it (attempt receipts, packet manifests and reviews):
//   publisher documents share the table and are never touched by this sweep.
// Blob removal runs under the blob lock, which retrieval inserts (and funding captures)
// also hold, so a blob cannot vanish between "still needed?" and a new reference to it.

import { sql, type Kysely } from 'kysely';
import type { Config } from '../core/config.js';
import type { Instant } from '../core/time.js';
import type { Database } from '../storage/schema.js';
import type { Storage } from '../storage/storage.js';
import { BLOB_LOCK } from './store.js';

export interface SweepReport {
  snapshots_removed: number;
  retrievals_removed: number;
  blobs_removed: number;
}

const BATCH = 400;

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += BATCH) out.push(items.slice(i, i + BATCH));
  return out;
}

async function snapshotsToRemove(db: Kysely<Database>, retentionCutoff: number, pinCutoff: number): Promise<string[]> {
  const rows = await db
    .selectFrom('data_snapshots')
    .select(['snapshot_id', 'mode', 'dataset', 'content_key', 'created_at_us', 'retrieved_at_us'])
    .orderBy('mode')
    .orderBy('dataset')
    .orderBy('retrieved_at_us')
    .orderBy('created_at_us')
    .orderBy('snapshot_id')
    .execute();
  const remove: string[] = [];
  // The last snapshot of the current series that stays: thinning compares with it, so a
  // run of equal snapshots keeps exactly its first member.
  let kept: (typeof rows)[number] | undefined;
  for (const row of rows) {
    if (kept && (kept.mode !== row.mode || kept.dataset !== row.dataset)) kept = undefined;
    const created = Number(row.created_at_us);
    if (created < retentionCutoff) {
      remove.push(row.snapshot_id);
    } else if (created < pinCutoff && kept !== undefined && kept.content_key === row.content_key) {
      remove.push(row.snapshot_id);
    } else {
      kept = row;
    }
  }
  return remove;
}

async function fundingMentions(trx: Kysely<Database>, dialect: Storage['dialect'], sha256: string): Promise<boolean> {
  const attempt = await trx
    .selectFrom('funding_attempts')
    .select('attempt_id')
    .where('receipts_json', 'like', `%${sha256}%`)
    .limit(1)
    .executeTakeFirst();
  if (attempt) return true;
  const needle = Buffer.from(sha256, 'utf8');
  const packet = dialect === 'postgres'
    ? await sql<{ packet_id: string }>`select packet_id from funding_packets where position(${needle} in manifest) > 0 or position(${needle} in review) > 0 limit 1`.execute(trx)
    : await sql<{ packet_id: string }>`select packet_id from funding_packets where instr(manifest, ${needle}) > 0 or instr(review, ${needle}) > 0 limit 1`.execute(trx);
  return packet.rows.length > 0;
}

export async function sweepDataStore(
  storage: Storage,
  config: Pick<Config, 'snapshotRetentionDays' | 'snapshotPinHours'>,
  clock: () => Instant,
): Promise<SweepReport> {
  const db = storage.db;
  const nowUs = Number(clock());
  const retentionCutoff = nowUs - config.snapshotRetentionDays * 86_400_000_000;
  const pinCutoff = nowUs - config.snapshotPinHours * 3_600_000_000;

  const snapshots = await snapshotsToRemove(db, retentionCutoff, pinCutoff);
  for (const batch of chunks(snapshots)) {
    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom('data_snapshot_sources').where('snapshot_id', 'in', batch).execute();
      await trx.deleteFrom('data_snapshots').where('snapshot_id', 'in', batch).execute();
    });
  }

  const retrievals = await db
    .selectFrom('data_retrievals')
    .select(['retrieval_id', 'content_sha256'])
    .where('retrieved_at_us', '<', retentionCutoff)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('data_snapshot_sources').select('retrieval_id').whereRef('data_snapshot_sources.retrieval_id', '=', 'data_retrievals.retrieval_id'))))
    .execute();
  let retrievalsRemoved = 0;
  for (const batch of chunks(retrievals)) {
    const ids = batch.map((r) => r.retrieval_id);
    // The NOT EXISTS again: a snapshot formed since the select keeps its retrievals.
    const result = await db
      .deleteFrom('data_retrievals')
      .where('retrieval_id', 'in', ids)
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom('data_snapshot_sources').select('retrieval_id').whereRef('data_snapshot_sources.retrieval_id', '=', 'data_retrievals.retrieval_id'))))
      .executeTakeFirst();
    retrievalsRemoved += Number(result.numDeletedRows ?? 0n);
  }

  const candidates = [...new Set(retrievals.map((r) => r.content_sha256).filter((s): s is string => s !== null))];
  let blobsRemoved = 0;
  for (const batch of chunks(candidates)) {
    blobsRemoved += await storage.serialized(BLOB_LOCK, async (trx) => {
      let removed = 0;
      for (const sha256 of batch) {
        const used = await trx.selectFrom('data_retrievals').select('retrieval_id').where('content_sha256', '=', sha256).limit(1).executeTakeFirst();
        if (used || (await fundingMentions(trx, storage.dialect, sha256))) continue;
        const result = await trx.deleteFrom('funding_publisher_blobs').where('sha256', '=', sha256).executeTakeFirst();
        removed += Number(result.numDeletedRows ?? 0n);
      }
      return removed;
    });
  }
  return { snapshots_removed: snapshots.length, retrievals_removed: retrievalsRemoved, blobs_removed: blobsRemoved };
}
