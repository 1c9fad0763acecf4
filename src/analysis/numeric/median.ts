// `statistics.median` and the MAD spread built on it.

const ascending = (a: number, b: number): number => a - b;

/**
 * Python's `statistics.median`: middle element for odd counts, `(a + b) / 2` of the two
 * middle ones for even counts. The sort is stable with -0 == 0, like Python's, so a
 * signed zero picked as the middle element is the same one Python would pick.
 */
export function median(values: ArrayLike<number>): number {
  const n = values.length;
  if (n === 0) throw new RangeError('median of an empty list');
  const sorted = Array.prototype.slice.call(values) as number[];
  sorted.sort(ascending);
  const mid = n >> 1;
  if (n % 2 === 1) return sorted[mid];
  return (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Scale factor that makes the MAD a consistent estimate of a normal standard deviation. */
export const MAD_FACTOR = 1.4826;

/** `1.4826 * median(|x - median(x)|)`. */
export function madSpread(values: ArrayLike<number>): number {
  const center = median(values);
  const deviations = new Array<number>(values.length);
  for (let i = 0; i < values.length; i++) deviations[i] = Math.abs(values[i] - center);
  return MAD_FACTOR * median(deviations);
}
