// The data group's service functions: what the HTTP routes call. Each takes the context
// (built once per app from its deps) and the raw query, validates before touching the
// network or the store, and returns a plain body the route encodes with encodeDataBody.
//
//   queryDataset(ctx, query)   → QueryResult     (/api/v1/query; MCP, agent routes)
//   answerQuery(ctx, params)   → QueryAnswer     (/api/v1/query over HTTP: the same answer's bytes and ETag, kept per process)
//   listSources(ctx)           → QueryResult     (/api/v1/sources = source_health, defaults)
//   listDatasets(ctx)          → DatasetEntry[]  (/api/v1/datasets; never fetches)
//   listSnapshots(ctx, query)  → SnapshotList    (/api/v1/snapshots)
//   releaseIdentity(config)    → Release         (/api/v1/release; from ./release.js)
//   sweep(ctx)                 → SweepReport     (retention; for a background service)

import { cloneJson } from '../core/json.js';
import type { Config } from '../core/config.js';
import { formatInstantZ, type Instant } from '../core/time.js';
import type { Storage } from '../storage/storage.js';
import { AnswerCache, answerKey, answerOf, csvEntry, jsonEntry, type QueryAnswer } from './answer-cache.js';
import { SourceCache } from './cache.js';
import {
  ABSENCE_POLICY, CARRIER_VERIFICATION, DEFAULT_LIMIT, EVIDENCE_STATUS, MAXIMUM_LIMIT, SNAPSHOTS_SCHEMA, STATUS_SEMANTICS, TABLE_SCHEMA,
} from './constants.js';
import { DATASETS, datasetSpec } from './datasets.js';
import { rowsCsv } from './csv.js';
import { DocumentCache } from './documents.js';
import { DataErrors, problem, QueryValidationError } from './errors.js';
import { platformSourceFetch, sourcePolicy, type SourceFetch } from './fetch-source.js';
import { SOURCE_FETCH_LIMITER, type Limiter } from './limiter.js';
import { evidenceDigest, measurementEligible } from './measurement.js';
import { pageOf } from './query.js';
import { cacheInfo, sourceRecord, type CacheInfo } from './records.js';
import { buildRegistry, fixedFacts, type SourceRegistry } from './registry.js';
import { prefixedSha } from './retrieval.js';
import { createSampleFetch } from './samples.js';
import { rowColumns, type DatasetEntry, type QueryResult, type Release, type SnapshotList, type SourceRecord } from './schemas.js';
import { Snapshots, SWEEP_PROOF_US, type ServedSnapshot } from './snapshots.js';
import { findRetrievals, newestSnapshot, pageSnapshots, snapshotAtOrBefore, snapshotLinks } from './store.js';
import { sweepDataStore, type SweepReport } from './sweep.js';
import { validateQuery, validateSnapshotList, type QueryParams, type RawQuery } from './validate.js';

import { releaseIdentity } from './release.js';

export { releaseIdentity };
export type { DatasetEntry, QueryAnswer, QueryResult, Release, SnapshotList };

export type DataConfig = Pick<Config,
  'mode' | 'sourceUrls' | 'sourceCacheTtl' | 'sourceErrorTtl' | 'snapshotRetentionDays' | 'snapshotPinHours' | 'releaseCommit'>;

export interface DataDeps {
  storage: Storage;
  config: DataConfig;
  clock: () => Instant;
  /** Outbound fetch; defaults to the bundled samples in sample mode, the platform fetcher otherwise. */
  fetch?: SourceFetch;
  limiter?: Limiter;
  /** Store polling interval while another instance fetches (ms). */
  pollMs?: number;
  /** Projected snapshot rows kept in this process (snapshots.ts). */
  snapshotRowBudget?: number;
}

export interface DataContext {
  readonly storage: Storage;
  readonly config: DataConfig;
  readonly clock: () => Instant;
  readonly registry: SourceRegistry;
  readonly cache: SourceCache;
  readonly snapshots: Snapshots;
  /** Encoded query answers by snapshot and parameters (answer-cache.ts). */
  readonly answers: AnswerCache;
}

export function createDataContext(deps: DataDeps): DataContext {
  const registry = buildRegistry(deps.config);
  const documents = new DocumentCache();
  const fetch = deps.fetch
    ?? (deps.config.mode === 'sample' ? createSampleFetch(deps.clock) : platformSourceFetch(sourcePolicy(registry.entries.map((e) => e.url))));
  const cache = new SourceCache({
    storage: deps.storage,
    registry,
    fetch,
    clock: deps.clock,
    config: deps.config,
    limiter: deps.limiter ?? SOURCE_FETCH_LIMITER,
    documents,
    pollMs: deps.pollMs,
  });
  const snapshots = new Snapshots({ storage: deps.storage, registry, cache, documents, clock: deps.clock, mode: deps.config.mode, rowBudget: deps.snapshotRowBudget });
  return { storage: deps.storage, config: deps.config, clock: deps.clock, registry, cache, snapshots, answers: new AnswerCache() };
}

async function choose(ctx: DataContext, params: QueryParams): Promise<ServedSnapshot> {
  if (params.snapshot !== null) return ctx.snapshots.byId(params.dataset, params.snapshot);
  if (params.asRetrievedAt !== null) {
    const row = await snapshotAtOrBefore(ctx.storage.db, ctx.config.mode, params.dataset, Number(params.asRetrievedAt));
    if (!row) {
      throw new QueryValidationError([problem(
        DataErrors.no_snapshot_at_or_before, 'as_retrieved_at', 'no_snapshot', 'no stored snapshot of this dataset was retrieved at or before this instant',
        formatInstantZ(params.asRetrievedAt),
      )]);
    }
    return ctx.snapshots.byId(params.dataset, row.snapshotId);
  }
  return ctx.snapshots.current(params.dataset);
}

/** Answers one query from one snapshot (validated first; nothing fetched for bad input). */
export async function queryDataset(ctx: DataContext, raw: RawQuery): Promise<QueryResult> {
  return queryValidated(ctx, validateQuery(raw));
}

export async function queryValidated(ctx: DataContext, params: QueryParams): Promise<QueryResult> {
  const served = await choose(ctx, params);
  const head = answerHead(ctx, served, params);
  return { ...head, sources: sourcesNow(ctx, served), ...answerTail(ctx, served) };
}

/** The members of a query answer before `sources`: fixed for one snapshot and one set of paging/filter parameters. */
export type AnswerHead = Omit<QueryResult, 'sources' | 'snapshot_id' | 'snapshot_retrieved_at' | 'sample'>;
/** The members after `sources`: fixed for one snapshot. */
export type AnswerTail = Pick<QueryResult, 'snapshot_id' | 'snapshot_retrieved_at' | 'sample'>;

function answerHead(ctx: DataContext, served: ServedSnapshot, params: QueryParams): AnswerHead {
  const { state } = served;
  const page = pageOf(state.rows, params);
  return {
    schema: TABLE_SCHEMA,
    dataset: params.dataset,
    description: datasetSpec(params.dataset).description,
    results: page.results,
    total_rows: page.total_rows,
    returned_rows: page.returned_rows,
    offset: page.offset,
    limit: page.limit,
    next_offset: page.next_offset,
    transport_status: state.transportStatus,
    status_semantics: STATUS_SEMANTICS,
    evidence_status: EVIDENCE_STATUS,
    carrier_verification: CARRIER_VERIFICATION,
    absence_policy: ABSENCE_POLICY,
    diagnostics: page.diagnostics,
  };
}

/**
 * How old each source copy of an answer is. A chosen snapshot reports each copy's age
 * when the snapshot was formed, so answering it again gives the same bytes (and ETag);
 * the current snapshot reports the age now (and whether this call waited for a fetch).
 */
function cachesNow(ctx: DataContext, served: ServedSnapshot): CacheInfo[] {
  const { state } = served;
  const ageAt = served.pinned ? state.row.createdAtUs : Number(ctx.clock());
  return state.sources.map((s, i) => cacheInfo(s.retrieval, ageAt, served.hits[i], ctx.cache.ttlSeconds(s.retrieval)));
}

/** The source records of an answer. */
function sourcesNow(ctx: DataContext, served: ServedSnapshot): SourceRecord[] {
  const caches = cachesNow(ctx, served);
  return served.state.sources.map((s, i) => cloneJson(sourceRecord(s.key, s.retrieval, s.reported, caches[i])));
}

function answerTail(ctx: DataContext, served: ServedSnapshot): AnswerTail {
  const { row } = served.state;
  const tail: AnswerTail = { snapshot_id: row.snapshotId, snapshot_retrieved_at: formatInstantZ(BigInt(row.retrievedAtUs)) };
  if (ctx.config.mode === 'sample') tail.sample = true;
  return tail;
}

/**
 * The `/api/v1/query` representation (JSON or CSV bytes and strong ETag) without building
 * the answer again when this process already encoded it: the same bytes
 * `encodeDataBody(await queryValidated(ctx, params))` (or `rowsCsv` of its rows) would give.
 * The snapshot is chosen exactly as queryValidated chooses it (freshness cache, store
 * lookup of a pinned id) on every call; only what is fixed for that snapshot and those
 * parameters is reused (see answer-cache.ts).
 */
export async function answerQuery(ctx: DataContext, params: QueryParams): Promise<QueryAnswer> {
  const served = await choose(ctx, params);
  const format = params.format ?? 'json';
  const key = answerKey(served.state.row.snapshotId, format, served.pinned, params);
  let entry = ctx.answers.get(key);
  if (!entry) {
    const head = answerHead(ctx, served, params);
    const tail = answerTail(ctx, served);
    const sources = sourcesNow(ctx, served);
    const full: QueryResult = { ...head, sources, ...tail };
    const measurement = { eligible: measurementEligible(full), digest: evidenceDigest(full) };
    entry = format === 'csv'
      ? csvEntry(rowsCsv(head.results), measurement)
      : jsonEntry(head, tail, sources, served.pinned ? 'fixed' : 'live', measurement);
    ctx.answers.set(key, entry);
  }
  const answer = answerOf(entry, served.state.row.snapshotId, served.pinned, () => cachesNow(ctx, served));
  // A chosen snapshot is answered from its rows until a sweep may have removed it (snapshots.ts).
  if (served.pinned) answer.standsUntilUs = served.state.row.createdAtUs + SWEEP_PROOF_US;
  return answer;
}

/** `/sources`: the source_health table with default paging; query parameters are ignored. */
export function listSources(ctx: DataContext): Promise<QueryResult> {
  return queryValidated(ctx, {
    dataset: 'source_health', entity: '', startDate: '', endDate: '', limit: DEFAULT_LIMIT, offset: 0, snapshot: null, asRetrievedAt: null,
  });
}

/** The catalogue with column schema and the newest stored snapshot's row count; never fetches. */
export async function listDatasets(ctx: DataContext): Promise<DatasetEntry[]> {
  const columns = rowColumns();
  return Promise.all(DATASETS.map(async (spec) => {
    const newest = await newestSnapshot(ctx.storage.db, ctx.config.mode, spec.id);
    const entry: DatasetEntry = {
      id: spec.id,
      name: spec.name,
      topics: [...spec.topics],
      description: spec.description,
      filters: ['entity', 'start_date', 'end_date'],
      default_limit: DEFAULT_LIMIT,
      maximum_limit: MAXIMUM_LIMIT,
      columns: columns.map((c) => ({ ...c })),
      row_count: newest ? newest.rowCount : null,
      snapshot_id: newest ? newest.snapshotId : null,
    };
    if (ctx.config.mode === 'sample') entry.sample = true;
    return entry;
  }));
}

/** Stored snapshots of one dataset, newest first, paged. Clocks at full precision. */
export async function listSnapshots(ctx: DataContext, raw: RawQuery): Promise<SnapshotList> {
  const params = validateSnapshotList(raw);
  const db = ctx.storage.db;
  const { total, rows } = await pageSnapshots(db, ctx.config.mode, params.dataset, params.limit, params.offset);
  const links = await snapshotLinks(db, rows.map((r) => r.snapshotId));
  const retrievals = await findRetrievals(db, [...links.values()].flat().map((l) => l.retrievalId));
  const results = rows.map((row) => ({
    snapshot_id: row.snapshotId,
    dataset: params.dataset,
    retrieved_at: formatInstantZ(BigInt(row.retrievedAtUs)),
    created_at: formatInstantZ(BigInt(row.createdAtUs)),
    row_count: row.rowCount,
    transport_status: row.transportStatus,
    sources: (links.get(row.snapshotId) ?? []).flatMap((l) => {
      const r = retrievals.get(l.retrievalId);
      if (!r) return [];
      return [{
        topic: fixedFacts(l.sourceKey).topic,
        source_url: r.sourceUrl,
        ok: r.ok,
        retrieved_at: formatInstantZ(BigInt(r.retrievedAtUs)),
        content_sha256: prefixedSha(r.contentSha256),
      }];
    }),
  }));
  const end = params.offset + params.limit;
  const listing: SnapshotList = {
    schema: SNAPSHOTS_SCHEMA,
    dataset: params.dataset,
    results,
    total_rows: total,
    returned_rows: results.length,
    offset: params.offset,
    limit: params.limit,
    next_offset: end < total ? end : null,
  };
  if (ctx.config.mode === 'sample') listing.sample = true;
  return listing;
}

/** The release identity; in sample mode it says so too. */
export function release(ctx: Pick<DataContext, 'config'>): Release {
  const body: Release = releaseIdentity(ctx.config);
  if (ctx.config.mode === 'sample') body.sample = true;
  return body;
}

export function sweep(ctx: DataContext): Promise<SweepReport> {
  return sweepDataStore(ctx.storage, ctx.config, ctx.clock);
}
