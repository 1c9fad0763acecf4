// `math.ulp` through the IEEE-754 bit pattern (JS has no nextafter).

const buffer = new DataView(new ArrayBuffer(8));

/** Gap between |x| and the next larger double; at the top of the range, the gap below. */
export function ulp(x: number): number {
  if (Number.isNaN(x)) return x;
  const a = Math.abs(x);
  if (a === Infinity) return a;
  if (a === Number.MAX_VALUE) return a - nextDown(a);
  return nextUp(a) - a;
}

/** The smallest double above a finite non-negative `a`. */
function nextUp(a: number): number {
  buffer.setFloat64(0, a);
  let hi = buffer.getUint32(0);
  let lo = buffer.getUint32(4);
  lo = (lo + 1) >>> 0;
  if (lo === 0) hi = (hi + 1) >>> 0;
  buffer.setUint32(0, hi);
  buffer.setUint32(4, lo);
  return buffer.getFloat64(0);
}

/** The largest double below a finite positive `a`. */
function nextDown(a: number): number {
  buffer.setFloat64(0, a);
  let hi = buffer.getUint32(0);
  let lo = buffer.getUint32(4);
  if (lo === 0) hi = (hi - 1) >>> 0;
  lo = (lo - 1) >>> 0;
  buffer.setUint32(0, hi);
  buffer.setUint32(4, lo);
  return buffer.getFloat64(0);
}
