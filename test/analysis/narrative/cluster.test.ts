import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clusterIdOf } from '../../../src/analysis/narrative/cluster-id.js';
import { sha256Hex } from '../../../src/core/hash.js';
import { greedyClusters } from '../../../src/analysis/narrative/cluster.js';
import { similar, WordingAnalyser, type WordingFeatures } from '../../../src/analysis/narrative/similarity.js';

/** The rule as the contract states it: compare with each cluster's first member, in order. */
function naiveClusters(items: WordingFeatures[], threshold: number): number[][] {
  const clusters: number[][] = [];
  items.forEach((item, index) => {
    const target = clusters.find((c) => similar(items[c[0]], item, threshold));
    if (target) target.push(index);
    else clusters.push([index]);
  });
  return clusters;
}

const word = fc.constantFrom('alpha', 'bravo', 'charlie', 'delta', 'echo', 'raises', 'cuts', 'not', '5', '5%', 'million', '—', '!!');
const event = fc.record({
  title: fc.array(word, { maxLength: 7 }).map((ws) => ws.join(' ')),
  entities: fc.array(fc.constantFrom('A', 'B'), { maxLength: 2 }),
  event_key: fc.option(fc.constantFrom('k1', 'k2'), { nil: undefined }),
});

describe('indexed greedy clustering', () => {
  it('chooses exactly what the pairwise first-member scan chooses', () => {
    fc.assert(
      fc.property(fc.array(event, { maxLength: 40 }), fc.constantFrom(0.5, 0.6, 2 / 3, 0.75, 0.8, 1), (events, threshold) => {
        const analyser = new WordingAnalyser();
        const items = events.map((e) => analyser.features(e));
        expect(greedyClusters(items, threshold)).toEqual(naiveClusters(items, threshold));
      }),
      { numRuns: 400, seed: 7401 },
    );
  });

  it('still agrees on long titles over a larger vocabulary and arbitrary thresholds (prefix and position filters)', () => {
    const vocabulary = Array.from({ length: 40 }, (_, i) => `w${i}`);
    const long = fc.record({
      title: fc.array(fc.constantFrom(...vocabulary), { minLength: 0, maxLength: 35 }).map((ws) => ws.join(' ')),
      entities: fc.constantFrom<string[]>(['A'], ['A'], ['B']),
      event_key: fc.option(fc.constantFrom('k1', 'k2'), { nil: undefined, freq: 4 }),
    });
    fc.assert(
      fc.property(fc.array(long, { maxLength: 60 }), fc.double({ min: 0.5, max: 1, noNaN: true }), (events, threshold) => {
        const analyser = new WordingAnalyser();
        const items = events.map((e) => analyser.features(e));
        expect(greedyClusters(items, threshold)).toEqual(naiveClusters(items, threshold));
      }),
      { numRuns: 300, seed: 2026 },
    );
  });

  it('agrees when buckets grow large enough to be indexed, with near-duplicates to find', () => {
    const vocabulary = Array.from({ length: 200 }, (_, i) => `v${i}`);
    const scenario = fc
      .array(
        fc.record({
          copyOf: fc.option(fc.nat(), { nil: undefined, freq: 2 }),
          words: fc.array(fc.constantFrom(...vocabulary), { minLength: 1, maxLength: 30 }),
          edits: fc.array(fc.tuple(fc.nat(), fc.constantFrom(...vocabulary)), { maxLength: 4 }),
          key: fc.option(fc.constantFrom('k1', 'k2'), { nil: undefined, freq: 5 }),
        }),
        { minLength: 20, maxLength: 80 },
      )
      .map((specs) => {
        const titles: string[][] = [];
        return specs.map((spec) => {
          let words = spec.words;
          if (spec.copyOf !== undefined && titles.length > 0) {
            // A near-duplicate of an earlier title: a few words replaced.
            words = [...titles[spec.copyOf % titles.length]];
            for (const [at, w] of spec.edits) words[at % words.length] = w;
          }
          titles.push(words);
          return { title: words.join(' '), entities: ['A'], event_key: spec.key };
        });
      });
    fc.assert(
      fc.property(scenario, fc.constantFrom(0.5, 0.6, 0.7, 0.8, 0.9, 1), (events, threshold) => {
        const analyser = new WordingAnalyser();
        const items = events.map((e) => analyser.features(e));
        const expected = naiveClusters(items, threshold);
        expect(greedyClusters(items, threshold)).toEqual(expected);
      }),
      { numRuns: 300, seed: 77 },
    );
  });

  it('finds a pair with the least overlap the threshold allows when the shared words are the commonest', () => {
    // Nine fillers fill the bucket past the direct-check limit, so the prefix index is in
    // use, and make cx/cy the most frequent tokens (ranked last). A = {ux, uy, cx, cy}
    // and B = {cx, cy} have J = 2/4 = 0.5 exactly: the shared tokens sit at the very end
    // of A's prefix, which therefore must not be one token shorter. (No digits anywhere:
    // they would put the titles into different signature buckets.)
    const analyser = new WordingAnalyser();
    const letters = 'abcdefghi';
    const fillers = [...letters].map((l) => `f${l}a f${l}b f${l}c f${l}d cx cy`);
    const items = [...fillers, 'ux uy cx cy', 'cx cy'].map((title) => analyser.features({ title, entities: [] }));
    const clusters = greedyClusters(items, 0.5);
    expect(clusters).toEqual(naiveClusters(items, 0.5));
    expect(clusters.find((c) => c[0] === 9)).toEqual([9, 10]);
  });

  it('decides exact-boundary Jaccard values the way the double division does', () => {
    // 4/5 = 0.8 and 2/3 ≥ 0.6666666666666666: both sit exactly on the threshold.
    const analyser = new WordingAnalyser();
    const a = analyser.features({ title: 'a b c d', entities: [] });
    const b = analyser.features({ title: 'a b c d e', entities: [] });
    const c = analyser.features({ title: 'a b', entities: [] });
    const d = analyser.features({ title: 'a b c', entities: [] });
    expect(greedyClusters([a, b], 0.8)).toEqual([[0, 1]]);
    expect(greedyClusters([a, b], 0.8000000000000002)).toEqual([[0], [1]]);
    expect(greedyClusters([c, d], 2 / 3)).toEqual([[0, 1]]);
  });

  it('is order dependent and not transitive, as specified', () => {
    const analyser = new WordingAnalyser();
    const a = analyser.features({ title: 'alpha bravo charlie delta', entities: [] });
    const b = analyser.features({ title: 'charlie delta echo foxtrot', entities: [] });
    const ab = analyser.features({ title: 'alpha bravo charlie delta echo foxtrot', entities: [] });
    expect(greedyClusters([a, b, ab], 0.5)).toEqual([[0, 2], [1]]);
    expect(greedyClusters([b, a, ab], 0.5)).toEqual([[0, 2], [1]]);
    expect(greedyClusters([ab, a, b], 0.5)).toEqual([[0, 1, 2]]);
  });

  it('groups titles without tokens only when the raw titles are identical', () => {
    const analyser = new WordingAnalyser();
    const items = ['!!!', '!!!', '???', ' !!!'].map((title) => analyser.features({ title, entities: [] }));
    expect(greedyClusters(items, 0.8)).toEqual([[0, 1], [2], [3]]);
  });
});

describe('cluster ids', () => {
  it('hash the canonical JSON of the sorted member ids', () => {
    expect(clusterIdOf(['early', 'late'])).toBe('nf-f32288fd4328e25a');
  });

  it('escape ids exactly as Python json.dumps(ensure_ascii=False) does', () => {
    // Reference: hashlib.sha256(json.dumps(ids, separators=(",", ":"), ensure_ascii=False).encode()).
    const ids = ['"', '\\', '\n', '\u0000', '\u001f', '\u007f', '\u2028', '𐐀', 'é'];
    const text = '["\\"","\\\\","\\n","\\u0000","\\u001f","\u007f","\u2028","𐐀","é"]';
    expect(clusterIdOf(ids)).toBe('nf-' + sha256Hex(text).slice(0, 16));
  });
});
