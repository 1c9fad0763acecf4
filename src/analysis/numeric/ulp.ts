// `math.ulp` through the IEEE-754 bit pattern (JS has no nextafter). For every finite
// double the gap to the next larger one is 2^(E - 1075) for biased exponent E >= 1, and
// 2^-1074 for zero and subnormals; CPython's value at the top of the range (the gap
// below DBL_MAX) is the same power of two. A table keeps this branch-light, since price
// panels ask for three ulps per interval.

const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);
const HI = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 1 : 0; // little-endian: high word second

const GAPS = new Float64Array(2047);
GAPS[0] = 2 ** -1074;
for (let e = 1; e < 2047; e++) GAPS[e] = 2 ** (e - 1075);

/** Gap between |x| and the next larger double (at DBL_MAX, the gap below); 0 -> 5e-324. */
export function ulp(x: number): number {
  f64[0] = x;
  const biased = (u32[HI] >>> 20) & 0x7ff;
  if (biased === 0x7ff) return Number.isNaN(x) ? x : Infinity;
  return GAPS[biased];
}
