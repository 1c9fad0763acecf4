// Error-free transformations (Knuth two-sum, Dekker split/two-product). JS has no fma,
// so the exact low part of a product comes from Veltkamp splitting. Results are written
// into a caller-owned pair to keep hot loops allocation-free.

/** [hi, lo] scratch pair: hi = fl(op), lo = exact error. */
export type Pair = Float64Array;

export function newPair(): Pair {
  return new Float64Array(2);
}

/** a + b = out[0] + out[1] exactly (any magnitudes). */
export function twoSum(a: number, b: number, out: Pair): void {
  const s = a + b;
  const bb = s - a;
  out[0] = s;
  out[1] = (a - (s - bb)) + (b - bb);
}

const SPLITTER = 134217729; // 2^27 + 1

/**
 * a * b = out[0] + out[1] exactly, provided |a|, |b| < 2^995 and the product neither
 * overflows nor lands in the subnormal range.
 */
export function twoProduct(a: number, b: number, out: Pair): void {
  const p = a * b;
  let t = SPLITTER * a;
  const ah = t - (t - a);
  const al = a - ah;
  t = SPLITTER * b;
  const bh = t - (t - b);
  const bl = b - bh;
  out[0] = p;
  out[1] = ((ah * bh - p) + ah * bl + al * bh) + al * bl;
}
