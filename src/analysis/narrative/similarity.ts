// Pairwise "same wording" test between two eligible events, computed from features that
// are prepared once per event (a title is normalised and tokenised exactly once).
import { SignatureBuilder } from './signature.js';
import { TokenDictionary } from './tokens.js';

export interface WordingFeatures {
  /** The raw title, compared verbatim when either token set is empty. */
  readonly title: string;
  /** Distinct token ids (one dictionary per request, see `WordingAnalyser`). */
  readonly tokens: readonly number[];
  /** Canonical form of the entity set (order and duplicates ignored). */
  readonly entitiesKey: string;
  readonly eventKey: string | undefined;
  readonly signatureKey: string;
}

/** Canonical text for a set of strings: equal exactly when the sets are equal. */
export function entitySetKey(entities: readonly string[]): string {
  // JSON.stringify quotes every member, so no choice of separator can collide.
  return JSON.stringify([...new Set(entities)].sort());
}

/** Prepares the wording features of the events of one request (shared token ids). */
export class WordingAnalyser {
  readonly dictionary = new TokenDictionary();
  private readonly signatures = new SignatureBuilder(this.dictionary);

  features(event: { title: string; entities: readonly string[]; event_key?: string }): WordingFeatures {
    const tokens = this.dictionary.tokenizeTitle(event.title);
    return {
      title: event.title,
      tokens,
      entitiesKey: entitySetKey(event.entities),
      eventKey: event.event_key,
      signatureKey: this.signatures.keyOf(tokens),
    };
  }
}

/** Two event keys conflict only when both are given and differ. */
export function eventKeysCompatible(a: string | undefined, b: string | undefined): boolean {
  return a === undefined || b === undefined || a === b;
}

/**
 * `|A ∩ B| / |A ∪ B| ≥ threshold`, with the quotient rounded once as a double, the way
 * Python's true division of two ints rounds it.
 */
export function jaccardReaches(intersection: number, sizeA: number, sizeB: number, threshold: number): boolean {
  return intersection / (sizeA + sizeB - intersection) >= threshold;
}

/**
 * The reference definition, pair by pair (features from the same analyser). Clustering
 * uses an indexed equivalent (cluster.ts); this stays the readable statement of the rule
 * and the tests' oracle.
 */
export function similar(a: WordingFeatures, b: WordingFeatures, threshold: number): boolean {
  if (a.entitiesKey !== b.entitiesKey) return false;
  if (!eventKeysCompatible(a.eventKey, b.eventKey)) return false;
  if (a.signatureKey !== b.signatureKey) return false;
  if (a.tokens.length === 0 || b.tokens.length === 0) return a.title === b.title;
  const other = new Set(b.tokens);
  let intersection = 0;
  for (const token of a.tokens) if (other.has(token)) intersection++;
  return jaccardReaches(intersection, a.tokens.length, b.tokens.length, threshold);
}
