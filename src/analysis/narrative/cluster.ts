// Greedy wording clusters: each event, in the given order, joins the first cluster (in
// creation order) whose first member is similar to it, or starts a new one.
//
// Comparing every event with every cluster head is quadratic in tokens (500 long titles
// make ~125k set intersections), so candidates are found through an index and only the
// survivors are verified exactly (the PPJoin scheme from set-similarity joins):
// * Only heads with the same entity set and signature can match, so each head belongs to
//   a bucket keyed by both (titles without tokens match only identical raw titles).
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
  for (const item of items) for (const id of item.tokens) if (id >= vocabulary) vocabulary = id + 1;
  const frequency = new Int32Array(vocabulary);
  let maxFrequency = 0;
  for (const item of items) {
    for (const id of item.tokens) if (++frequency[id] > maxFrequency) maxFrequency = frequency[id];
  }
  // Counting sort by (frequency, id): any fixed total order is correct, rarest-first
  // keeps the probed lists short.
  const start = new Int32Array(maxFrequency + 2);
  for (let id = 0; id < vocabulary; id++) start[frequency[id] + 1]++;
  for (let f = 1; f < start.length; f++) start[f] += start[f - 1];
  const rank = new Int32Array(vocabulary);
  for (let id = 0; id < vocabulary; id++) rank[id] = start[frequency[id]]++;
  return items.map((item) => {
    const out = new Int32Array(item.tokens.length);
    for (let k = 0; k < out.length; k++) out[k] = rank[item.tokens[k]];
    return out.sort();
  });
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
 * Groups `items` (already in clustering order). Returns the clusters in creation order,
 * each as the item indices in joining order (the first is the cluster's head).
 */
export function greedyClusters(items: readonly WordingFeatures[], threshold: number): number[][] {
  const ranks = rankTokens(items);
  const clusters: number[][] = [];
  const bucketIds = new Map<string, number>();
  const bucketOf: number[] = []; // per cluster
  const headsOfBucket: number[][] = []; // per bucket, cluster indices in creation order
  const emptyHeads = new Map<string, number[]>(); // bucket + raw title → clusters

  // Inverted index over head prefixes: singly linked entry lists per token rank.
  let total = 0;
  for (const r of ranks) total += r.length;
  const first = new Int32Array(ranks.reduce((m, r) => Math.max(m, r.length ? r[r.length - 1] + 1 : 0), 0)).fill(-1);
  const next = new Int32Array(total);
  const entryCluster = new Int32Array(total);
  const entryPosition = new Int32Array(total);
  let entries = 0;

  // Per cluster, valid for the current event only (stamped with its index).
  const seen = new Int32Array(items.length).fill(-1);
  const dead = new Int32Array(items.length).fill(-1);
  const overlap = new Int32Array(items.length);
  const touched: number[] = [];
  const alive: number[] = [];

  for (let index = 0; index < items.length; index++) {
    const item = items[index];
    const tokens = ranks[index];
    const empty = tokens.length === 0;
    const bucketKey = `${empty ? 'e' : 't'}\u0000${item.entitiesKey}\u0000${item.signatureKey}`;
    let bucket = bucketIds.get(bucketKey);
    if (bucket === undefined) {
      bucket = headsOfBucket.length;
      bucketIds.set(bucketKey, bucket);
      headsOfBucket.push([]);
    }

    let chosen = -1; // cluster index
    if (empty) {
      // An empty token set only matches an identical raw title (whose tokens are empty too).
      for (const c of emptyHeads.get(`${bucketKey}\u0000${item.title}`) ?? []) {
        if (keysCompatible(items[clusters[c][0]].eventKey, item.eventKey)) {
          chosen = c;
          break;
        }
      }
    } else if (threshold <= 0) {
      // Outside the schema's range (0.5–1), but keep the rule total: every Jaccard index
      // reaches such a threshold, shared tokens or not.
      for (const c of headsOfBucket[bucket]) {
        if (keysCompatible(items[clusters[c][0]].eventKey, item.eventKey)) {
          chosen = c;
          break;
        }
      }
    } else {
      const size = tokens.length;
      const probe = prefixLength(size, threshold);
      for (let k = 0; k < probe; k++) {
        for (let e = first[tokens[k]]; e !== -1; e = next[e]) {
          const c = entryCluster[e];
          if (bucketOf[c] !== bucket || dead[c] === index) continue;
          if (seen[c] !== index) {
            seen[c] = index;
            overlap[c] = 0;
            touched.push(c);
          }
          const headSize = ranks[clusters[c][0]].length;
          const bound = ++overlap[c] + Math.min(headSize - entryPosition[e] - 1, size - k - 1);
          if (bound < overlapNeeded(headSize, size, threshold)) dead[c] = index;
        }
      }
      for (const c of touched) if (dead[c] !== index) alive.push(c);
      if (alive.length > 1) alive.sort((a, b) => a - b);
      for (const c of alive) {
        const head = clusters[c][0];
        if (!keysCompatible(items[head].eventKey, item.eventKey)) continue;
        const other = ranks[head];
        const common = intersectionSize(other, tokens, overlapNeeded(other.length, size, threshold));
        if (common > 0 && common / (other.length + size - common) >= threshold) {
          chosen = c;
          break;
        }
      }
      touched.length = 0;
      alive.length = 0;
    }

    if (chosen !== -1) {
      clusters[chosen].push(index);
      continue;
    }
    const c = clusters.length;
    clusters.push([index]);
    bucketOf.push(bucket);
    headsOfBucket[bucket].push(c);
    if (empty) {
      const key = `${bucketKey}\u0000${item.title}`;
      const list = emptyHeads.get(key);
      if (list === undefined) emptyHeads.set(key, [c]);
      else list.push(c);
    } else if (threshold > 0) {
      const indexed = prefixLength(tokens.length, threshold);
      for (let k = 0; k < indexed; k++) {
        entryCluster[entries] = c;
        entryPosition[entries] = k;
        next[entries] = first[tokens[k]];
        first[tokens[k]] = entries++;
      }
    }
  }
  return clusters;
}
