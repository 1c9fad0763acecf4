// Encoded `/api/v1/query` answers kept per process, so a repeated query costs a lookup,
// not a projection, a page copy and a Python-style encoding of every row.
//
// Why this is exact: a snapshot id names its retrievals (snapshots.ts), so everything an
// answer says about the rows of one snapshot for one set of filter/paging parameters is
// fixed for as long as the snapshot exists. The one part that is not fixed is `sources`
// of an unpinned answer (each copy's age now, and whether this call waited for a fetch),
// so a JSON answer is kept as the bytes before `sources` and the bytes after it; the
// sources are encoded per answer and the ETag finishes a SHA-256 state taken after the
// head. A pinned answer's sources are fixed too, so it is kept whole with its tag.
//
// What keeps it honest is the caller (service.ts answerQuery): the snapshot is chosen on
// every request exactly as without the cache — the store-backed freshness cache for the
// current snapshot, one store lookup for a pinned id (so a swept snapshot is a 422 before
// the cache is consulted) — and only then is the answer looked up by that snapshot's id.
// Memory is bounded by bytes (least recently used answers go first).
import { createHash, type Hash } from 'node:crypto';
import { encodeDataBody } from './encode.js';
import { WeightedLru } from './lru.js';

/** Bytes of encoded answers one process keeps. */
export const ANSWER_CACHE_BYTES = 32 * 1024 * 1024;

/** What the usage measurement needs of an answer (measurement.ts), computed once per answer. */
export interface AnswerMeasurement {
  eligible: boolean;
  digest: string;
}

interface Tagged {
  bytes: Buffer;
  etag: string;
}

interface FixedEntry {
  kind: 'fixed';
  tagged: Tagged;
  measurement: AnswerMeasurement;
}

interface LiveEntry {
  kind: 'live';
  /** `{` … `,"sources":` */
  head: Buffer;
  /** SHA-256 over `head`, copied for each answer. */
  headHash: Hash;
  /** `,"snapshot_id":` … `}` */
  tail: Buffer;
  measurement: AnswerMeasurement;
  /** The last answer made from this entry, reused while its sources bytes repeat. */
  last?: { sources: Buffer; etag: string; bytes?: Buffer };
}

export type AnswerEntry = FixedEntry | LiveEntry;

/** One representation of a query answer: its tag, and its bytes when a 200 needs them. */
export interface QueryAnswer {
  snapshotId: string;
  pinned: boolean;
  etag: string;
  bytes(): Buffer;
  measurement: AnswerMeasurement;
}

export interface AnswerKeyParams {
  entity: string;
  startDate: string;
  endDate: string;
  limit: number;
  offset: number;
}

/**
 * The cache key: everything that decides an answer's bytes besides the clock. The entity
 * text is kept as sent (not folded), so two spellings are two entries but never one wrong one.
 * A CSV body has no source records, so pinned and unpinned CSV answers are one entry.
 */
export function answerKey(snapshotId: string, format: 'json' | 'csv', pinned: boolean, p: AnswerKeyParams): string {
  return JSON.stringify([snapshotId, format, format === 'csv' ? false : pinned, p.entity, p.startDate, p.endDate, p.limit, p.offset]);
}

function tagOf(bytes: Buffer): string {
  return `"${createHash('sha256').update(bytes).digest('hex')}"`;
}

const OPEN = Buffer.from('{');
const COMMA = Buffer.from(',');
const CLOSE = Buffer.from('}');
const SOURCES = Buffer.from(',"sources":');

/** `"a":1,"b":2` of the encoded `{"a":1,"b":2}`: an object's members, to splice into another. */
function members(value: object): Buffer {
  const bytes = encodeDataBody(value);
  return bytes.subarray(1, bytes.length - 1);
}

/** A CSV answer: fixed bytes. */
export function csvEntry(bytes: Buffer, measurement: AnswerMeasurement): AnswerEntry {
  return { kind: 'fixed', tagged: { bytes, etag: tagOf(bytes) }, measurement };
}

/**
 * A JSON answer from the members before `sources` (`head`, non-empty), the members after
 * it (`tail`, non-empty) and, for a pinned answer, its fixed source records.
 */
export function jsonEntry(head: object, tail: object, sources: unknown, measurement: AnswerMeasurement): AnswerEntry {
  const headBytes = Buffer.concat([OPEN, members(head), SOURCES]);
  const tailBytes = Buffer.concat([COMMA, members(tail), CLOSE]);
  if (sources !== null) {
    const bytes = Buffer.concat([headBytes, encodeDataBody(sources), tailBytes]);
    return { kind: 'fixed', tagged: { bytes, etag: tagOf(bytes) }, measurement };
  }
  return { kind: 'live', head: headBytes, headHash: createHash('sha256').update(headBytes), tail: tailBytes, measurement };
}

/** The representation of one answer from its entry; `sources` gives the source records now (live entries only). */
export function answerOf(entry: AnswerEntry, snapshotId: string, pinned: boolean, sources: () => unknown): QueryAnswer {
  const { measurement } = entry;
  if (entry.kind === 'fixed') {
    const { tagged } = entry;
    return { snapshotId, pinned, etag: tagged.etag, bytes: () => tagged.bytes, measurement };
  }
  const encoded = encodeDataBody(sources());
  let last = entry.last;
  if (!last || !last.sources.equals(encoded)) {
    const etag = `"${entry.headHash.copy().update(encoded).update(entry.tail).digest('hex')}"`;
    entry.last = last = { sources: encoded, etag };
  }
  const made = last;
  return {
    snapshotId,
    pinned,
    etag: made.etag,
    bytes: () => (made.bytes ??= Buffer.concat([entry.head, made.sources, entry.tail])),
    measurement,
  };
}

function weightOf(entry: AnswerEntry): number {
  // A live entry may also hold its last whole body.
  return entry.kind === 'fixed' ? entry.tagged.bytes.length : 2 * (entry.head.length + entry.tail.length);
}

export class AnswerCache {
  private readonly lru: WeightedLru<string, AnswerEntry>;

  constructor(budgetBytes = ANSWER_CACHE_BYTES) {
    this.lru = new WeightedLru(budgetBytes, weightOf);
  }

  get(key: string): AnswerEntry | undefined {
    return this.lru.get(key);
  }

  set(key: string, entry: AnswerEntry): void {
    this.lru.set(key, entry);
  }
}
