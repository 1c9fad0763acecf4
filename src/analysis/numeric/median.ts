// `statistics.median` and the MAD spread built on it.

const ascending = (a: number, b: number): number => a - b;

/** Up to this many values an insertion sort beats Array.prototype.sort and its copy. */
const SMALL = 64;
const scratch = new Float64Array(SMALL);

/**
 * Python's `statistics.median`: middle element for odd counts, `(a + b) / 2` of the two
 * middle ones for even counts. The sort is stable with -0 == 0, like Python's, so a
 * signed zero picked as the middle element is the same one Python would pick.
 */
export function median(values: ArrayLike<number>): number {
  const n = values.length;
  if (n === 0) throw new RangeError('median of an empty list');
  const sorted = n <= SMALL ? insertionSorted(values, n) : null;
  if (sorted === null) return sortedMedian(values, n);
  const mid = n >> 1;
  if (n % 2 === 1) return sorted[mid];
  return (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * The values sorted into `scratch` by a stable insertion sort (moving only past strictly
 * greater values, so -0 and 0 keep their input order as in the general sort), or null
 * when a NaN makes the comparison order the general sort's business.
 */
function insertionSorted(values: ArrayLike<number>, n: number): Float64Array | null {
  const out = scratch;
  for (let i = 0; i < n; i++) {
    const x = values[i];
    if (x !== x) return null;
    let j = i;
    while (j > 0 && out[j - 1] > x) {
      out[j] = out[j - 1];
      j--;
    }
    out[j] = x;
  }
  return out;
}

function sortedMedian(values: ArrayLike<number>, n: number): number {
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
  const deviations = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) deviations[i] = Math.abs(values[i] - center);
  return MAD_FACTOR * median(deviations);
}
