// Greedy wording clusters: each event, in the given order, joins the first cluster (in
// creation order) whose first member is similar to it, or starts a new one.
//
// Comparing every event with every cluster head is quadratic in tokens (500 long titles
// make ~125k set intersections), so candidates are found through an index and only the
// survivors are verified exactly (the PPJoin scheme from set-similarity joins):
// * Only heads with the same entity set and signature can match, so each head belongs to
//   a bucket keyed by both (titles without tokens match only identical raw titles). A
//   bucket with few heads is simply checked head by head; the index below is built for a
//   bucket once it holds more than DIRECT_LIMIT heads.
// * Prefix filter: order all tokens globally, rarest first. If J(A, B) ≥ t then
//   |A ∩ B| ≥ α_A := ⌈t·|A|⌉ (likewise for B), and the smallest common token lies within
//   the first |A| − α_A + 1 tokens of A and the first |B| − α_B + 1 tokens of B. Heads are
//   indexed by their prefix tokens only, and an event probes with its own prefix.
// * Positional filter: while probing in rank order, the matches seen so far plus the
//   tokens left after the current positions bound the final overlap; a head whose bound
//   falls below ⌈t·(|A|+|B|)/(1+t)⌉ (the overlap J ≥ t needs) is dropped.
// * Every bound is loosened by one so that no rounding in it can drop a pair that the
//   double-precision test `|A∩B| / |A∪B| ≥ t` — which decides in the end — would accept.
// * Survivors are verified in creation order with the exact rule; the first that passes
//   wins — the same choice as the pairwise scan (`similar` in similarity.ts), which the
//   tests check on random inputs.
import type { WordingFeatures } from './similarity.js';

function keysCompatible(a: string | undefined, b: string | undefined): boolean {
  return a === undefined || b === undefined || a === b;
}

/** Token sets as ascending arrays of global ranks (rarest token = rank 0). */
function rankTokens(items: readonly WordingFeatures[]): Int32Array[] {
  let vocabulary = 0;
  let total = 0;
  for (const item of items) {
    total += item.tokens.length;
    for (const id of item.tokens) if (id >= vocabulary) vocabulary = id + 1;
  }
  const frequency = new Int32Array(vocabulary);
  let maxFrequency = 0;
  for (const item of items) {
    for (const id of item.tokens) if (++frequency[id] > maxFrequency) maxFrequency = frequency[id];
  }
  // Counting sort of the token ids by (frequency, id): any fixed total order is correct,
  // rarest-first keeps the probed lists short.
  const start = new Int32Array(maxFrequency + 2);
  for (let id = 0; id < vocabulary; id++) start[frequency[id] + 1]++;
  for (let f = 1; f < start.length; f++) start[f] += start[f - 1];
  const byRank = new Int32Array(vocabulary);
  for (let id = 0; id < vocabulary; id++) byRank[start[frequency[id]]++] = id;
  // Which items hold each token (CSR layout), so one sweep in rank order writes every
  // item's ranks already sorted — cheaper than sorting each list.
  const offset = new Int32Array(vocabulary + 1);
  for (let id = 0; id < vocabulary; id++) offset[id + 1] = offset[id] + frequency[id];
  const fill = offset.slice(0, vocabulary);
  const holders = new Int32Array(total);
  items.forEach((item, index) => {
    for (const id of item.tokens) holders[fill[id]++] = index;
  });
  const out = items.map((item) => new Int32Array(item.tokens.length));
  const written = new Int32Array(items.length);
  for (let r = 0; r < vocabulary; r++) {
    const id = byRank[r];
    for (let h = offset[id]; h < offset[id + 1]; h++) {
      const index = holders[h];
      out[index][written[index]++] = r;
    }
  }
  return out;
}

/** |a ∩ b| for ascending arrays, or -1 as soon as it cannot reach `needed`. */
function intersectionSize(a: Int32Array, b: Int32Array, needed: number): number {
  let i = 0;
  let j = 0;
  let common = 0;
  while (i < a.length && j < b.length) {
    const x = a[i];
    const y = b[j];
    if (x === y) {
      common++;
      i++;
      j++;
    } else {
      if (x < y) i++;
      else j++;
      if (common + Math.min(a.length - i, b.length - j) < needed) return -1;
    }
  }
  return common;
}

/** A lower bound (loosened by one) on the overlap that J ≥ t requires; t > 0. */
function overlapNeeded(sizeA: number, sizeB: number, threshold: number): number {
  return Math.max(1, Math.ceil((threshold * (sizeA + sizeB)) / (1 + threshold)) - 1);
}

/** How many of a set's rarest tokens must be indexed/probed; t > 0. */
function prefixLength(size: number, threshold: number): number {
  const alpha = Math.max(1, Math.ceil(threshold * size) - 1);
  return Math.max(0, size - alpha + 1);
}

/**
 * The exact rule between a cluster head and an event of the same bucket (so entities and
 * signature already agree, and neither token set is empty).
 */
function similarHead(
  items: readonly WordingFeatures[],
  ranks: readonly Int32Array[],
  head: number,
  item: number,
  threshold: number,
): boolean {
  if (!keysCompatible(items[head].eventKey, items[item].eventKey)) return false;
  const a = ranks[head];
  const b = ranks[item];
  const common = intersectionSize(a, b, overlapNeeded(a.length, b.length, threshold));
  return common > 0 && common / (a.length + b.length - common) >= threshold;
}

/**
 * The prefix index of all buckets at once: for a (bucket, token rank) pair, a linked list
 * of entries (cluster index, position of the token in that head's ranks). The list heads
 * sit in an open-addressing table keyed by `bucket · vocabulary + rank`; entries live in
 * flat typed arrays, so indexing allocates nothing per token.
 */
class PrefixIndex {
  // Doubles: the key space (buckets × vocabulary) may exceed 2^31 for oversized inputs.
  private keys: Float64Array;
  private firsts: Int32Array;
  private used = 0;
  readonly next: Int32Array;
  readonly cluster: Int32Array;
  readonly position: Int32Array;
  private entries = 0;

  constructor(private readonly vocabulary: number, capacity: number) {
    this.keys = new Float64Array(1024).fill(-1);
    this.firsts = new Int32Array(1024);
    this.next = new Int32Array(capacity);
    this.cluster = new Int32Array(capacity);
    this.position = new Int32Array(capacity);
  }

  private slotOf(key: number): number {
    const keys = this.keys;
    const mask = keys.length - 1;
    let slot = Math.imul(key | 0, 0x9e3779b1) & mask;
    while (keys[slot] !== -1 && keys[slot] !== key) slot = (slot + 1) & mask;
    return slot;
  }

  /** First entry of the list for (bucket, rank), or -1. */
  first(bucket: number, rank: number): number {
    const key = bucket * this.vocabulary + rank;
    const slot = this.slotOf(key);
    return this.keys[slot] === key ? this.firsts[slot] : -1;
  }

  add(bucket: number, rank: number, cluster: number, position: number): void {
    const key = bucket * this.vocabulary + rank;
    let slot = this.slotOf(key);
    if (this.keys[slot] !== key) {
      if ((this.used + 1) * 2 > this.keys.length) {
        this.grow();
        slot = this.slotOf(key);
      }
      this.keys[slot] = key;
      this.firsts[slot] = -1;
      this.used++;
    }
    const e = this.entries++;
    this.cluster[e] = cluster;
    this.position[e] = position;
    this.next[e] = this.firsts[slot];
    this.firsts[slot] = e;
  }

  private grow(): void {
    const oldKeys = this.keys;
    const oldFirsts = this.firsts;
    this.keys = new Float64Array(oldKeys.length * 2).fill(-1);
    this.firsts = new Int32Array(oldKeys.length * 2);
    for (let s = 0; s < oldKeys.length; s++) {
      if (oldKeys[s] === -1) continue;
      const slot = this.slotOf(oldKeys[s]);
      this.keys[slot] = oldKeys[s];
      this.firsts[slot] = oldFirsts[s];
    }
  }
}

interface Bucket {
  readonly id: number;
  /** Cluster indices of the bucket's heads, in creation order. */
  readonly heads: number[];
  /** Whether the heads' prefixes are in the index (once there are more than DIRECT_LIMIT). */
  indexed: boolean;
}

// Up to this many heads, checking each head directly costs less than probing an index.
const DIRECT_LIMIT = 8;

/**
 * Groups `items` (already in clustering order). Returns the clusters in creation order,
 * each as the item indices in joining order (the first is the cluster's head).
 */
export function greedyClusters(items: readonly WordingFeatures[], threshold: number): number[][] {
  const ranks = rankTokens(items);
  let vocabulary = 0;
  let total = 0;
  for (const r of ranks) {
    total += r.length;
    if (r.length > 0 && r[r.length - 1] >= vocabulary) vocabulary = r[r.length - 1] + 1;
  }
  const prefixIndex = new PrefixIndex(vocabulary, total);
  const clusters: number[][] = [];
  const buckets = new Map<string, Bucket>();
  const emptyHeads = new Map<string, number[]>(); // bucket + raw title → clusters

  // Per cluster, valid for the current event only (stamped with its index).
  const seen = new Int32Array(items.length).fill(-1);
  const dead = new Int32Array(items.length).fill(-1);
  const overlap = new Int32Array(items.length);
  const touched: number[] = [];
  const alive: number[] = [];

  const addToIndex = (bucket: number, c: number): void => {
    const tokens = ranks[clusters[c][0]];
    const indexed = prefixLength(tokens.length, threshold);
    for (let k = 0; k < indexed; k++) prefixIndex.add(bucket, tokens[k], c, k);
  };

  for (let item = 0; item < items.length; item++) {
    const features = items[item];
    const tokens = ranks[item];
    const size = tokens.length;
    const empty = size === 0;
    const bucketKey = `${empty ? 'e' : 't'}\u0000${features.entitiesKey}\u0000${features.signatureKey}`;
    let bucket = buckets.get(bucketKey);
    if (bucket === undefined) {
      bucket = { id: buckets.size, heads: [], indexed: false };
      buckets.set(bucketKey, bucket);
    }

    let chosen = -1; // cluster index
    if (empty) {
      // An empty token set only matches an identical raw title (whose tokens are empty too).
      for (const c of emptyHeads.get(`${bucketKey}\u0000${features.title}`) ?? []) {
        if (keysCompatible(items[clusters[c][0]].eventKey, features.eventKey)) {
          chosen = c;
          break;
        }
      }
    } else if (threshold <= 0) {
      // Outside the schema's range (0.5–1), but keep the rule total: every Jaccard index
      // reaches such a threshold, shared tokens or not.
      for (const c of bucket.heads) {
        if (keysCompatible(items[clusters[c][0]].eventKey, features.eventKey)) {
          chosen = c;
          break;
        }
      }
    } else if (!bucket.indexed) {
      for (const c of bucket.heads) {
        if (similarHead(items, ranks, clusters[c][0], item, threshold)) {
          chosen = c;
          break;
        }
      }
    } else {
      const probe = prefixLength(size, threshold);
      const { next, cluster: entryCluster, position: entryPosition } = prefixIndex;
      for (let k = 0; k < probe; k++) {
        for (let e = prefixIndex.first(bucket.id, tokens[k]); e !== -1; e = next[e]) {
          const c = entryCluster[e];
          if (dead[c] === item) continue;
          if (seen[c] !== item) {
            seen[c] = item;
            overlap[c] = 0;
            touched.push(c);
          }
          const headSize = ranks[clusters[c][0]].length;
          const bound = ++overlap[c] + Math.min(headSize - entryPosition[e] - 1, size - k - 1);
          if (bound < overlapNeeded(headSize, size, threshold)) dead[c] = item;
        }
      }
      for (const c of touched) if (dead[c] !== item) alive.push(c);
      if (alive.length > 1) alive.sort((a, b) => a - b);
      for (const c of alive) {
        if (similarHead(items, ranks, clusters[c][0], item, threshold)) {
          chosen = c;
          break;
        }
      }
      touched.length = 0;
      alive.length = 0;
    }

    if (chosen !== -1) {
      clusters[chosen].push(item);
      continue;
    }
    const c = clusters.length;
    clusters.push([item]);
    bucket.heads.push(c);
    if (empty) {
      const key = `${bucketKey}\u0000${features.title}`;
      const list = emptyHeads.get(key);
      if (list === undefined) emptyHeads.set(key, [c]);
      else list.push(c);
    } else if (threshold > 0) {
      if (bucket.indexed) addToIndex(bucket.id, c);
      else if (bucket.heads.length > DIRECT_LIMIT) {
        bucket.indexed = true;
        for (const head of bucket.heads) addToIndex(bucket.id, head);
      }
    }
  }
  return clusters;
}
