import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { alignByIntervals, alignIntervals, comparableKeys } from '../../../src/analysis/spectral/alignment.js';

const keys = (...lists: number[][]) => lists.map((l) => Float64Array.from(l));

describe('alignIntervals', () => {
  it('keeps everything when all members share every interval', () => {
    expect(alignIntervals({ keys: keys([1, 2, 3, 4], [1, 2, 3, 4]) })).toEqual({
      alignedPoints: 3,
      unmatchedIntervals: 0,
      discardedCommonIntervals: 0,
      offsets: [0, 0],
    });
  });

  it('starts the aligned suffix at the end of the newest unmatched interval', () => {
    // b misses clock 3: a has (2,3) and (3,4), b has (2,4).
    const out = alignIntervals({ keys: keys([1, 2, 3, 4, 5, 6], [1, 2, 4, 5, 6]) });
    expect(out).toEqual({ alignedPoints: 2, unmatchedIntervals: 3, discardedCommonIntervals: 1, offsets: [3, 2] });
  });

  it('treats a member with an extra, older history as aligned on the shared suffix only', () => {
    const out = alignIntervals({ keys: keys([0, 1, 2, 3, 4], [2, 3, 4]) });
    // (0,1) and (1,2) are unmatched; the newest ends at 2, so (2,3), (3,4) remain.
    expect(out).toEqual({ alignedPoints: 2, unmatchedIntervals: 2, discardedCommonIntervals: 0, offsets: [2, 0] });
  });

  it('yields nothing when one member stops early', () => {
    const out = alignIntervals({ keys: keys([1, 2, 3, 4], [1, 2, 3]) });
    expect(out.alignedPoints).toBe(0);
    expect(out.unmatchedIntervals).toBe(1);
    expect(out.discardedCommonIntervals).toBe(2);
  });

  it('counts an interval missing from several members once', () => {
    const out = alignIntervals({ keys: keys([1, 2, 3, 4], [1, 3, 4], [1, 3, 4]) });
    expect(out.unmatchedIntervals).toBe(3); // (1,2), (2,3) and (1,3)
    expect(out.alignedPoints).toBe(1);
  });
});

describe('comparableKeys', () => {
  it('uses the microseconds themselves when they are exact doubles', () => {
    expect(comparableKeys([[5n, 7n], [7n]])).toEqual([Float64Array.from([5, 7]), Float64Array.from([7])]);
  });

  it('falls back to ranks that preserve order and equality beyond 2^53', () => {
    const big = 2n ** 60n;
    const out = comparableKeys([[big, big + 1n, big + 3n], [big + 1n, big + 3n]]);
    expect(out).toEqual([Float64Array.from([0, 1, 2]), Float64Array.from([1, 2])]);
  });
});

describe('alignIntervals on members sharing one clock grid', () => {
  it('gives what the interval-by-interval alignment gives, for shared, shifted and unordered grids (property)', () => {
    const list = fc.array(fc.integer({ min: -5, max: 40 }), { maxLength: 12 });
    fc.assert(
      fc.property(list, fc.integer({ min: 1, max: 4 }), fc.boolean(), fc.option(list), fc.boolean(), (raw, copies, sorted, other, share) => {
        const grid = sorted ? [...new Set(raw)].sort((a, b) => a - b) : raw;
        const lists = Array.from({ length: copies }, () => grid);
        if (other !== null) lists.push([...new Set(other)].sort((a, b) => a - b));
        // Shared: one key column (or views of one buffer) for every member on the grid.
        const shared = Float64Array.from(grid);
        const input = share ? lists.map((l) => (l === grid ? shared.subarray(0) : Float64Array.from(l))) : keys(...lists);
        expect(alignIntervals({ keys: input })).toEqual(alignByIntervals(input));
      }),
      { numRuns: 1000 },
    );
  });
});
