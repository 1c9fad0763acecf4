// Encoded `/api/v1/query` answers kept per process, so a repeated query costs a lookup,
// not a projection, a page copy and a Python-style encoding of every row.
//
// Why this is exact: a snapshot id names its retrievals (snapshots.ts), so everything an
// answer says about the rows of one snapshot for one set of filter/paging parameters is
// fixed for as long as the snapshot exists. The one part that is not fixed is the `cache`
// member of each source record of an unpinned answer (each copy's age now, and whether
// this call waited for a fetch) — the last member of a record. So such an answer is kept
// as the bytes around those members; per answer only the `cache` objects are encoded, and
// its ETag is the entry's weak tag over the bytes around them (live-tag.ts). A pinned answer
// reports the ages when its snapshot was formed, so it is kept whole with its strong tag.
//
// What keeps it honest is the caller (service.ts answerQuery): the snapshot is chosen on
// every request exactly as without the cache — the store-backed freshness cache for the
// current snapshot, one store lookup for a pinned id (so a swept snapshot is a 422 before
// the cache is consulted) — and only then is the answer looked up by that snapshot's id.
// Memory is bounded by bytes (least recently used answers go first).
import { createHash } from 'node:crypto';
import { encodeDataBody } from './encode.js';
import { WeightedLru } from './lru.js';
import { weakTag } from './live-tag.js';

/**
 * Bytes of encoded answers one process keeps. A repeated small query is what the cache is
 * for; a walk through a large history fills it with 1–2 MB pages asked for once each, and
 * with 16 MiB such a walk held ~8 MiB more (and malloc kept more of the churn).
 */
export const ANSWER_CACHE_BYTES = 8 * 1024 * 1024;

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
  /** `{` … `,"sources":[` and the first source record up to `"cache":` */
  head: Buffer;
  /** Per later source record: `},` and that record up to `"cache":`. */
  joints: readonly Buffer[];
  /** Source records in the answer. */
  count: number;
  /** `}]` (or `]` without sources), `,"snapshot_id":` … `}` */
  tail: Buffer;
  measurement: AnswerMeasurement;
  /** The last answer made from this entry, reused while its `cache` bytes repeat. */
  last?: { caches: Buffer; bytes?: Buffer };
  /** The weak tag of every answer made from this entry (live-tag.ts): the body without its `cache` members. */
  weakTag: string;
}

export type AnswerEntry = FixedEntry | LiveEntry;

/** One representation of a query answer: its tag, and its bytes when a 200 needs them. */
export interface QueryAnswer {
  snapshotId: string;
  pinned: boolean;
  etag: string;
  bytes(): Buffer;
  measurement: AnswerMeasurement;
  /** For a chosen snapshot: the clock (µs) up to which the same query is sure to get this answer again. */
  standsUntilUs?: number;
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

/**
 * `bytes` in memory of its own. A small Buffer is a view into one of Node's shared 8 KiB
 * slabs, and a kept view keeps its whole slab: 10,000 small answers kept this way held
 * 149 MB of slabs for a few MB of answers (found from outside: RSS 117 → 371 MiB over 20,000
 * distinct query URLs). Everything an entry keeps goes through here.
 */
function own(bytes: Buffer): Buffer {
  if (bytes.byteOffset === 0 && bytes.buffer.byteLength === bytes.length) return bytes;
  return ownedConcat([bytes]);
}

/** `Buffer.concat(parts)` written once into memory of its own (see `own`). */
function ownedConcat(parts: readonly Uint8Array[]): Buffer {
  const out = Buffer.allocUnsafeSlow(parts.reduce((n, part) => n + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/**
 * What an entry costs besides its bytes: the objects, the key, the SHA-256 state (native)
 * and each buffer's own allocation. Counted so that many tiny answers are bounded too.
 */
const ENTRY_OVERHEAD = 2048;
const BUFFER_OVERHEAD = 128;

function tagOf(bytes: Buffer): string {
  return `"${createHash('sha256').update(bytes).digest('hex')}"`;
}

const OPEN = Buffer.from('{');
const COMMA = Buffer.from(',');
const CLOSE = Buffer.from('}');
const SOURCES = Buffer.from(',"sources":');
const LIST_OPEN = Buffer.from('[');
const LIST_CLOSE = Buffer.from(']');
const CACHE_FIRST = Buffer.from('"cache":');
const CACHE_AFTER = Buffer.from(',"cache":');
const RECORD_JOINT = Buffer.from('},');
const RECORDS_CLOSE = Buffer.from('}]');

/** `"a":1,"b":2` of the encoded `{"a":1,"b":2}`: an object's members, to splice into another. */
function members(value: object): Buffer {
  const bytes = encodeDataBody(value);
  return bytes.subarray(1, bytes.length - 1);
}

/** A CSV answer: fixed bytes. */
export function csvEntry(bytes: Buffer, measurement: AnswerMeasurement): AnswerEntry {
  return { kind: 'fixed', tagged: { bytes: own(bytes), etag: tagOf(bytes) }, measurement };
}

/**
 * A JSON answer from the members before `sources` (`head`), its source records and the
 * members after them (`tail`); `head` and `tail` are non-empty. A `fixed` answer is kept
 * whole; a `live` one around each record's `cache` member (see answerOf).
 */
export function jsonEntry(head: object, tail: object, sources: readonly object[], kind: 'fixed' | 'live', measurement: AnswerMeasurement): AnswerEntry {
  const headBytes = Buffer.concat([OPEN, members(head), SOURCES]);
  const tailBytes = Buffer.concat([COMMA, members(tail), CLOSE]);
  if (kind === 'fixed' || !sources.every((r) => Object.keys(r).at(-1) === 'cache')) {
    // A record whose ages cannot be cut out is encoded whole, and only kept for a fixed answer.
    const bytes = Buffer.concat([headBytes, encodeDataBody(sources), tailBytes]);
    if (kind === 'fixed') return { kind: 'fixed', tagged: { bytes: own(bytes), etag: tagOf(bytes) }, measurement };
    throw new Error('a source record must end with its cache member');
  }
  // `{…,"cache":` of each record: its members without `cache`, then the key.
  const opens = sources.map((record) => {
    const rest: Record<string, unknown> = { ...record };
    delete rest.cache;
    const inner = members(rest);
    return Buffer.concat([OPEN, inner, inner.length > 0 ? CACHE_AFTER : CACHE_FIRST]);
  });
  const first = opens.length > 0 ? [opens[0]] : [];
  const all = ownedConcat([headBytes, LIST_OPEN, ...first]);
  const joints = opens.slice(1).map((open) => ownedConcat([RECORD_JOINT, open]));
  const closing = ownedConcat([opens.length > 0 ? RECORDS_CLOSE : LIST_CLOSE, tailBytes]);
  const without = createHash('sha256').update(all);
  for (const joint of joints) without.update(joint);
  return {
    kind: 'live',
    head: all,
    joints,
    count: opens.length,
    tail: closing,
    measurement,
    // Head, joints and tail are every byte but the `cache` objects.
    weakTag: weakTag(without.update(closing).digest('hex')),
  };
}

/** The representation of one answer from its entry; `caches` gives each source's `cache` member now (live entries only). */
export function answerOf(entry: AnswerEntry, snapshotId: string, pinned: boolean, caches: () => readonly object[]): QueryAnswer {
  const { measurement } = entry;
  if (entry.kind === 'fixed') {
    const { tagged } = entry;
    return { snapshotId, pinned, etag: tagged.etag, bytes: () => tagged.bytes, measurement };
  }
  const now = caches();
  if (now.length !== entry.count) throw new Error('source count changed within one snapshot');
  // Each `cache` object, then the joint to the next record: the middle of the body.
  const parts: Buffer[] = [];
  for (let i = 0; i < now.length; i++) {
    parts.push(encodeDataBody(now[i]));
    if (i < entry.joints.length) parts.push(entry.joints[i]);
  }
  const middle = parts.length === 1 ? parts[0] : Buffer.concat(parts);
  let last = entry.last;
  if (!last || !last.caches.equals(middle)) entry.last = last = { caches: own(middle) };
  const made = last;
  return {
    snapshotId,
    pinned,
    etag: entry.weakTag,
    bytes: () => (made.bytes ??= ownedConcat([entry.head, made.caches, entry.tail])),
    measurement,
  };
}

/** What an entry counts against the cache's budget. */
export function weightOf(entry: AnswerEntry): number {
  // A live entry may also hold its last whole body.
  if (entry.kind === 'fixed') return ENTRY_OVERHEAD + BUFFER_OVERHEAD + entry.tagged.bytes.length;
  const buffers = 4 + entry.joints.length;
  return ENTRY_OVERHEAD + buffers * BUFFER_OVERHEAD + 2 * (entry.head.length + entry.tail.length + entry.joints.reduce((n, j) => n + j.length, 0));
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
