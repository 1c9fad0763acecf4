// Greedy wording clusters: each event, in the given order, joins the first cluster (in
// creation order) whose first member is similar to it, or starts a new one.
//
// Comparing every event with every cluster head is quadratic in tokens (500 long titles
// make ~125k set intersections), so the heads are indexed instead. Only heads with the
// same entity set and signature can match, so heads live in buckets keyed by both; within
// a bucket an inverted index (token → heads holding it) yields every head's intersection
// size in one pass over the new event's tokens. Heads sharing no token have Jaccard 0 and
// can never reach a threshold ≥ 0.5; among the rest the lowest creation index that passes
// the event-key rule and the Jaccard bound wins — the same choice as the pairwise scan
// (`similar` in similarity.ts), which the tests check on random inputs.
import { eventKeysCompatible, jaccardReaches, type WordingFeatures } from './similarity.js';

interface Bucket {
  /** Cluster indices of this bucket's heads, in creation order. */
  heads: number[];
  /** Token → positions in `heads` whose head has the token (ascending). */
  postings: Map<string, number[]>;
  /** For heads with no tokens: raw title → positions in `heads`. */
  byTitle: Map<string, number[]>;
}

/**
 * Groups `items` (already in clustering order). Returns the clusters in creation order,
 * each as the item indices in joining order (the first is the cluster's head).
 */
export function greedyClusters(items: readonly WordingFeatures[], threshold: number): number[][] {
  const clusters: number[][] = [];
  const buckets = new Map<string, Bucket>();
  const counts = new Int32Array(items.length);
  const touched: number[] = [];

  for (let index = 0; index < items.length; index++) {
    const item = items[index];
    const empty = item.tokens.size === 0;
    // An empty token set only matches an identical raw title, whose tokens are then empty
    // too, so empty and non-empty titles never share a bucket.
    const bucketKey = `${empty ? 'e' : 't'}\u0000${item.entitiesKey}\u0000${item.signatureKey}`;
    let bucket = buckets.get(bucketKey);
    if (bucket === undefined) {
      bucket = { heads: [], postings: new Map(), byTitle: new Map() };
      buckets.set(bucketKey, bucket);
    }

    let chosen = -1; // position in bucket.heads
    if (empty) {
      for (const position of bucket.byTitle.get(item.title) ?? []) {
        const head = items[clusters[bucket.heads[position]][0]];
        if (eventKeysCompatible(head.eventKey, item.eventKey)) {
          chosen = position;
          break;
        }
      }
    } else if (threshold <= 0) {
      // Outside the schema's range (0.5–1), but keep the rule total: every Jaccard index
      // reaches such a threshold, shared tokens or not.
      for (let position = 0; position < bucket.heads.length && chosen === -1; position++) {
        if (eventKeysCompatible(items[clusters[bucket.heads[position]][0]].eventKey, item.eventKey)) chosen = position;
      }
    } else {
      for (const token of item.tokens) {
        const list = bucket.postings.get(token);
        if (list === undefined) continue;
        for (const position of list) {
          if (counts[position]++ === 0) touched.push(position);
        }
      }
      for (const position of touched) {
        if (chosen !== -1 && position > chosen) continue;
        const head = items[clusters[bucket.heads[position]][0]];
        if (
          eventKeysCompatible(head.eventKey, item.eventKey) &&
          jaccardReaches(counts[position], head.tokens.size, item.tokens.size, threshold)
        ) {
          chosen = position;
        }
      }
      for (const position of touched) counts[position] = 0;
      touched.length = 0;
    }

    if (chosen !== -1) {
      clusters[bucket.heads[chosen]].push(index);
      continue;
    }
    const position = bucket.heads.length;
    bucket.heads.push(clusters.length);
    clusters.push([index]);
    if (empty) {
      const list = bucket.byTitle.get(item.title);
      if (list === undefined) bucket.byTitle.set(item.title, [position]);
      else list.push(position);
    } else if (threshold <= 0) {
      // Outside the schema's range (0.5–1), but keep the rule total: every Jaccard index
      // reaches such a threshold, shared tokens or not.
      for (let position = 0; position < bucket.heads.length && chosen === -1; position++) {
        if (eventKeysCompatible(items[clusters[bucket.heads[position]][0]].eventKey, item.eventKey)) chosen = position;
      }
    } else {
      for (const token of item.tokens) {
        const list = bucket.postings.get(token);
        if (list === undefined) bucket.postings.set(token, [position]);
        else list.push(position);
      }
    }
  }
  return clusters;
}
