// Double-double arithmetic (about 106 significant bits) for the correctly rounded log and
// pow. Operations write their normalised result into a caller-owned pair, so hot loops do
// not allocate. No fma in JS: exact products come from Veltkamp splitting.

/** [hi, lo] with |lo| <= ulp(hi) / 2. */
export type DD = Float64Array;

export function dd(): DD {
  return new Float64Array(2);
}

const SPLITTER = 134217729; // 2^27 + 1

/** a * b = out[0] + out[1] exactly (|a|, |b| < 2^995, no underflow). */
export function twoProd(a: number, b: number, out: DD): void {
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

/** (ah + al) * (bh + bl). */
export function ddMul(ah: number, al: number, bh: number, bl: number, out: DD): void {
  twoProd(ah, bh, out);
  const p = out[0];
  const e = out[1] + (ah * bl + al * bh);
  const s = p + e;
  out[0] = s;
  out[1] = e - (s - p);
}

/** (ah + al) + (bh + bl). */
export function ddAdd(ah: number, al: number, bh: number, bl: number, out: DD): void {
  const s = ah + bh;
  const bb = s - ah;
  const e = (ah - (s - bb)) + (bh - bb) + al + bl;
  const t = s + e;
  out[0] = t;
  out[1] = e - (t - s);
}

/** 1 / d as a double-double, for a small integer d. */
export function reciprocal(d: number, out: DD): void {
  const hi = 1 / d;
  twoProd(hi, d, out);
  // 1 - hi*d exactly (Sterbenz: hi*d is within an ulp of 1).
  const lo = ((1 - out[0]) - out[1]) / d;
  out[0] = hi;
  out[1] = lo;
}
