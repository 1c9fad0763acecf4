// The median the statistical tools use: sort ascending; an odd count takes the middle
// element, an even count adds the two middle elements each halved first (s[m-1]/2 + s[m]/2).
// That is not statistics.median's (a + b) / 2: the two differ in the last bit, and near
// the bottom of the double range (two halves of 5e-324 are 0) in more than that.

const ascending = (a: number, b: number): number => a - b;

/** The sorted copy keeps -0 and 0 in input order, as Python's stable sort does. */
export function sortedAscending(values: readonly number[]): number[] {
  return values.slice().sort(ascending);
}

export function medianOfHalves(values: readonly number[]): number {
  const n = values.length;
  if (n === 0) throw new RangeError('median of an empty list');
  const s = sortedAscending(values);
  const m = n >> 1;
  return n % 2 === 1 ? s[m] : s[m - 1] / 2 + s[m] / 2;
}
