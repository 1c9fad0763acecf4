import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { greedyClusters } from '../../../src/analysis/narrative/cluster.js';
import { similar, wordingFeatures, type WordingFeatures } from '../../../src/analysis/narrative/similarity.js';

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
        const items = events.map((e) => wordingFeatures(e));
        expect(greedyClusters(items, threshold)).toEqual(naiveClusters(items, threshold));
      }),
      { numRuns: 400, seed: 7401 },
    );
  });

  it('is order dependent and not transitive, as specified', () => {
    const a = wordingFeatures({ title: 'alpha bravo charlie delta', entities: [] });
    const b = wordingFeatures({ title: 'charlie delta echo foxtrot', entities: [] });
    const ab = wordingFeatures({ title: 'alpha bravo charlie delta echo foxtrot', entities: [] });
    expect(greedyClusters([a, b, ab], 0.5)).toEqual([[0, 2], [1]]);
    expect(greedyClusters([b, a, ab], 0.5)).toEqual([[0, 2], [1]]);
    expect(greedyClusters([ab, a, b], 0.5)).toEqual([[0, 1, 2]]);
  });

  it('groups titles without tokens only when the raw titles are identical', () => {
    const items = ['!!!', '!!!', '???', ' !!!'].map((title) => wordingFeatures({ title, entities: [] }));
    expect(greedyClusters(items, 0.8)).toEqual([[0, 1], [2], [3]]);
  });
});
