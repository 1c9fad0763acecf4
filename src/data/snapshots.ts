// Snapshots: the set of retrievals one dataset was projected from, with an id derived
// from them (same retrievals ⇒ same id, on every instance). Queries without `snapshot`
// form (or find) the snapshot of the current retrievals; `snapshot=<id>` and
// `as_retrieved_at` read a stored one back. Projected rows are kept per snapshot in this
// process, so paging costs a slice, not a projection.

import { MIN_SNAPSHOT_PIN_HOURS, type SourceKey } from '../core/config.js';
import { sha256Hex } from '../core/hash.js';
import { AppError } from '../core/errors.js';
import type { Instant } from '../core/time.js';
import type { Storage } from '../storage/storage.js';
import type { SourceCache } from './cache.js';
import type { TransportStatus } from './constants.js';
import { datasetSpec, type DatasetId } from './datasets.js';
import type { DocumentCache } from './documents.js';
import { DataErrors, problem, QueryValidationError } from './errors.js';
import { WeightedLru } from './lru.js';
import { projectDatasetInSlices, transportStatus, type LoadedSource } from './project.js';
import type { SourceRegistry } from './registry.js';
import type { Retrieval } from './retrieval.js';
import type { RowTable } from './row-table.js';
import { sourceReported } from './source-reported.js';
import { findRetrievals, findSnapshot, insertSnapshot, snapshotLinks, type SnapshotRow } from './store.js';

export interface SnapshotState {
  row: SnapshotRow;
  dataset: DatasetId;
  sources: readonly LoadedSource[];
  rows: RowTable;
  transportStatus: TransportStatus;
}

export interface ServedSnapshot {
  state: SnapshotState;
  /** Per source: whether the retrieval was a fresh store entry (true) or fetched for this call. */
  hits: readonly boolean[];
  /** Chosen by the caller (by id or vintage) rather than formed from the current retrievals. */
  pinned: boolean;
}

/**
 * The sweep (sweep.ts) removes a snapshot only once it is older than the pin window, and
 * no configuration allows a pin window under MIN_SNAPSHOT_PIN_HOURS (config.ts refuses it),
 * so a snapshot whose stored creation clock is younger than that is still stored. An hour
 * is taken off for instances whose clocks run ahead of this one's.
 */
export const SWEEP_PROOF_US = (MIN_SNAPSHOT_PIN_HOURS - 1) * 3_600_000_000;

export function snapshotIdOf(mode: string, dataset: string, retrievalIds: readonly string[]): string {
  return sha256Hex(['evidence-desk.data-snapshot.v1', mode, dataset, ...retrievalIds].join('\n')).slice(0, 32);
}

/** Equal for two snapshots whose sources had the same outcome and bytes. */
export function contentKeyOf(sources: readonly { retrieval: Retrieval }[]): string {
  return sha256Hex(sources.map(({ retrieval: r }) => `${r.sourceUrl}\n${r.ok ? 'ok' : 'failed'}\n${r.contentSha256 ?? ''}`).join('\n'));
}

export interface SnapshotDeps {
  storage: Storage;
  registry: SourceRegistry;
  cache: SourceCache;
  documents: DocumentCache;
  clock: () => Instant;
  mode: string;
  /** Projected rows kept in this process (default SNAPSHOT_ROW_BUDGET). */
  rowBudget?: number;
}

/**
 * Rows are the heavy part (~90 bytes each, kept by column: row-table.ts): 100 000 of them are
 * kept. The two most recently used snapshots with more (a large atlas history: 120 000 rows,
 * ~10 MB, from a 2.9 MB document) are kept too, outside that budget, so paging through one
 * costs one projection instead of one per page, and a pinned walk beside the current table
 * (a new snapshot at each source refresh) does not evict it; the 4 MiB cap on a source
 * document bounds each.
 */
export const SNAPSHOT_ROW_BUDGET = 100_000;
export const OVERSIZED_SNAPSHOTS = 2;

export class Snapshots {
  private readonly states: WeightedLru<string, SnapshotState>;
  private readonly building = new Map<string, Promise<SnapshotState>>();

  constructor(private readonly deps: SnapshotDeps) {
    this.states = new WeightedLru(deps.rowBudget ?? SNAPSHOT_ROW_BUDGET, (s) => s.rows.length + 1, { oversizedSlots: OVERSIZED_SNAPSHOTS });
  }

  /** The snapshot of the dataset's current retrievals, fetching what is stale. */
  async current(dataset: DatasetId): Promise<ServedSnapshot> {
    const spec = datasetSpec(dataset);
    const picks = await Promise.all(spec.sources.map((key) => this.deps.cache.current(this.deps.registry.get(key))));
    const id = snapshotIdOf(this.deps.mode, dataset, picks.map((p) => p.retrieval.retrievalId));
    const state = await this.once(id, async () => {
      const links = spec.sources.map((key, position) => ({ position, sourceKey: key, retrievalId: picks[position].retrieval.retrievalId }));
      const existing = await findSnapshot(this.deps.storage.db, id);
      const sources = await this.load(links.map((l, i) => ({ key: l.sourceKey, retrieval: picks[i].retrieval })));
      const built = await this.build(dataset, sources, existing ?? null);
      if (existing) return built;
      // Another instance may have formed it first: its row (creation clock) is the one.
      const stored = await insertSnapshot(this.deps.storage, built.row, links);
      return stored.createdAtUs === built.row.createdAtUs ? built : { ...built, row: stored };
    });
    return { state, hits: picks.map((p) => p.hit), pinned: false };
  }

  /**
   * A stored snapshot by id; 422 when the store holds no such snapshot of this dataset.
   * The store is asked (one key lookup) unless this process holds the snapshot and it is
   * younger than SWEEP_PROOF_US: no sweep can have removed it yet (see below), so its
   * rows are the answer on every instance. Past that age the store is asked every time,
   * so a snapshot the retention sweep removed is gone for every instance at once, even one
   * that still has its rows.
   */
  async byId(dataset: DatasetId, id: string): Promise<ServedSnapshot> {
    const held = this.states.get(id);
    if (held && held.dataset === dataset && held.row.mode === this.deps.mode && Number(this.deps.clock()) - held.row.createdAtUs < SWEEP_PROOF_US) {
      return { state: held, hits: held.sources.map(() => true), pinned: true };
    }
    const row = await findSnapshot(this.deps.storage.db, id);
    if (!row || row.mode !== this.deps.mode || row.dataset !== dataset) throw notStored(id);
    const state = await this.once(id, () => this.readBack(dataset, row));
    return { state, hits: state.sources.map(() => true), pinned: true };
  }

  /** Reads a stored snapshot row back: its retrievals and their documents. */
  async readBack(dataset: DatasetId, row: SnapshotRow): Promise<SnapshotState> {
    const db = this.deps.storage.db;
    const links = (await snapshotLinks(db, [row.snapshotId])).get(row.snapshotId) ?? [];
    const retrievals = await findRetrievals(db, links.map((l) => l.retrievalId));
    const expected = datasetSpec(dataset).sources.length;
    if (links.length !== expected || links.some((l) => !retrievals.has(l.retrievalId))) throw unreadable(row.snapshotId);
    const sources = await this.load(links.map((l) => ({ key: l.sourceKey, retrieval: retrievals.get(l.retrievalId)! })));
    return await this.build(dataset, sources, row);
  }

  private async once(id: string, make: () => Promise<SnapshotState>): Promise<SnapshotState> {
    const cached = this.states.get(id);
    if (cached) return cached;
    let pending = this.building.get(id);
    if (!pending) {
      pending = make()
        .then((state) => {
          this.states.set(id, state);
          return state;
        })
        .finally(() => this.building.delete(id));
      this.building.set(id, pending);
    }
    return pending;
  }

  private async load(picks: readonly { key: SourceKey; retrieval: Retrieval }[]): Promise<LoadedSource[]> {
    return Promise.all(picks.map(async ({ key, retrieval }) => {
      if (!retrieval.ok) return { key, retrieval, document: undefined, reported: null };
      const document = await this.deps.documents.get(this.deps.storage.db, retrieval.contentSha256!);
      if (document === undefined) throw unreadable(retrieval.retrievalId);
      const adapter = this.deps.registry.get(key).adapter;
      return { key, retrieval, document, reported: sourceReported(adapter, document, retrieval.sourceUrl, `sha256:${retrieval.contentSha256}`) };
    }));
  }

  private async build(dataset: DatasetId, loaded: readonly LoadedSource[], existing: SnapshotRow | null): Promise<SnapshotState> {
    const rows = await projectDatasetInSlices(dataset, loaded);
    const status = transportStatus(loaded);
    const row: SnapshotRow = existing ?? {
      snapshotId: snapshotIdOf(this.deps.mode, dataset, loaded.map((s) => s.retrieval.retrievalId)),
      mode: this.deps.mode,
      dataset,
      createdAtUs: Number(this.deps.clock()),
      retrievedAtUs: Math.max(...loaded.map((s) => s.retrieval.retrievedAtUs)),
      contentKey: contentKeyOf(loaded),
      rowCount: rows.length,
      transportStatus: status,
    };
    // Documents are not kept with the rows; the document cache has them if needed again.
    const sources = loaded.map((s) => ({ ...s, document: undefined }));
    return { row, dataset, sources, rows, transportStatus: status };
  }
}

function notStored(id: string): QueryValidationError {
  return new QueryValidationError([
    problem(DataErrors.snapshot_not_stored, 'snapshot', 'snapshot_not_stored', 'no stored snapshot of this dataset has this id (never made here, or removed by retention)', id),
  ]);
}

function unreadable(what: string): AppError {
  return new AppError(DataErrors.snapshot_unreadable, `stored evidence ${what} could not be read back intact`);
}
