// Panel alignment by common contiguous intervals. An interval is the pair (start, end) of
// consecutive observation clocks; members align only on intervals they all share, and
// nothing older than the newest disagreement is used, so no member is ever filled,
// interpolated or silently shortened to pairwise overlaps.
import type { Instant } from '../../core/time.js';

export interface AlignmentInput {
  /** Exact comparable keys of the tail clocks (intervals + 1 entries), per member. */
  keys: Float64Array[];
}

export interface AlignmentOutcome {
  alignedPoints: number;
  unmatchedIntervals: number;
  discardedCommonIntervals: number;
  /** Per member: index of its first aligned interval (the aligned set is a suffix). */
  offsets: number[];
}

const SAFE = 9007199254740992n;

/**
 * Exact double keys for instants: the microsecond count itself when every instant fits
 * in ±2^53, otherwise ranks of the sorted distinct instants. Either way equality and
 * order of keys are those of the instants.
 */
export function comparableKeys(instants: readonly Instant[][]): Float64Array[] {
  let safe = true;
  outer: for (const list of instants) {
    for (const t of list) {
      if (t > SAFE || t < -SAFE) {
        safe = false;
        break outer;
      }
    }
  }
  if (safe) return instants.map((list) => Float64Array.from(list, (t) => Number(t)));
  const distinct = [...new Set(instants.flat())].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const rank = new Map<Instant, number>();
  distinct.forEach((t, i) => rank.set(t, i));
  return instants.map((list) => Float64Array.from(list, (t) => rank.get(t) as number));
}

export function alignIntervals({ keys }: AlignmentInput): AlignmentOutcome {
  if (sameIncreasingKeys(keys)) {
    // Members on one clock grid (the usual panel) share every interval.
    return {
      alignedPoints: Math.max(0, keys[0].length - 1),
      unmatchedIntervals: 0,
      discardedCommonIntervals: 0,
      offsets: keys.map(() => 0),
    };
  }
  return alignByIntervals(keys);
}

/** `alignIntervals` without the shortcut for members on one clock grid. */
export function alignByIntervals(keys: Float64Array[]): AlignmentOutcome {
  const members = keys.length;
  const counts = keys.map((k) => Math.max(0, k.length - 1));
  const base = keys[0];
  const baseCount = counts[0];

  // Which of the first member's intervals does every other member also have?
  const common = new Uint8Array(baseCount).fill(1);
  for (let s = 1; s < members; s++) {
    const other = keys[s];
    const otherCount = counts[s];
    let p = 0;
    for (let j = 0; j < baseCount; j++) {
      const start = base[j];
      while (p < otherCount && other[p] < start) p++;
      if (!(p < otherCount && other[p] === start && other[p + 1] === base[j + 1])) common[j] = 0;
    }
  }
  let commonCount = 0;
  for (let j = 0; j < baseCount; j++) commonCount += common[j];

  let allCommon = true;
  for (let s = 0; s < members; s++) if (counts[s] !== commonCount) allCommon = false;
  if (allCommon) {
    return {
      alignedPoints: commonCount,
      unmatchedIntervals: 0,
      discardedCommonIntervals: 0,
      offsets: counts.map(() => 0),
    };
  }

  // Distinct intervals that some member lacks, and the latest end among them.
  const commonStarts = new Float64Array(commonCount);
  const commonEnds = new Float64Array(commonCount);
  for (let j = 0, c = 0; j < baseCount; j++) {
    if (common[j]) {
      commonStarts[c] = base[j];
      commonEnds[c] = base[j + 1];
      c++;
    }
  }
  const mismatched = new Set<string>();
  let lastBadEnd = -Infinity;
  for (let s = 0; s < members; s++) {
    const k = keys[s];
    let p = 0;
    for (let j = 0; j < counts[s]; j++) {
      const start = k[j];
      const end = k[j + 1];
      while (p < commonCount && commonStarts[p] < start) p++;
      if (p < commonCount && commonStarts[p] === start && commonEnds[p] === end) continue;
      mismatched.add(`${start}:${end}`);
      if (end > lastBadEnd) lastBadEnd = end;
    }
  }

  let aligned = 0;
  for (let c = 0; c < commonCount; c++) if (commonStarts[c] >= lastBadEnd) aligned++;
  // Every interval starting at or after the last bad end is common, so the aligned set
  // is the same-length suffix of every member's interval list.
  return {
    alignedPoints: aligned,
    unmatchedIntervals: mismatched.size,
    discardedCommonIntervals: commonCount - aligned,
    offsets: counts.map((c) => c - aligned),
  };
}

/** The first member's keys increase strictly and every member has them (NaN matches nothing). */
function sameIncreasingKeys(keys: Float64Array[]): boolean {
  const base = keys[0];
  for (let i = 1; i < base.length; i++) if (!(base[i] > base[i - 1])) return false;
  for (let s = 1; s < keys.length; s++) {
    const other = keys[s];
    if (other.length !== base.length) return false;
    // Members reading the same clock strings share one key column (see the clock parser).
    if (other.buffer === base.buffer && other.byteOffset === base.byteOffset) continue;
    for (let i = 0; i < base.length; i++) if (other[i] !== base[i]) return false;
  }
  return true;
}
