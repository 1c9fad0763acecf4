// Python's `round(x, ndigits)` for floats: half-even on the exact binary value, then the
// nearest double to the decimal result. `Math.round(x * 1e4) / 1e4` gets exact ties
// (0.03125 -> 0.0312 in Python) and products that round across .5 wrong.
import { newPair, twoProduct } from './eft.js';
import { fromScaled, scaledHalfEven } from './exact-decimal.js';
import { EXACT_POW10, roundPairHalfEven } from './round15.js';

const prod = newPair();

export function pyround(x: number, ndigits: number): number {
  if (!Number.isInteger(ndigits)) throw new TypeError('ndigits must be an integer');
  if (!Number.isFinite(x) || x === 0) return x;
  // CPython's cut-offs: beyond these the answer is x itself or a signed zero.
  if (ndigits > 323) return x;
  if (ndigits < -308) return 0 * x;
  const a = Math.abs(x);
  if (ndigits >= 0 && ndigits <= 22) {
    twoProduct(a, EXACT_POW10[ndigits], prod);
    if (prod[0] < 4503599627370496 && Number.isFinite(prod[1])) {
      const v = roundPairHalfEven(prod[0], prod[1]) / EXACT_POW10[ndigits];
      return x < 0 ? -v : v;
    }
  }
  const v = fromScaled(scaledHalfEven(a, ndigits), ndigits, x < 0);
  if (!Number.isFinite(v)) throw new RangeError('rounded value too large to represent');
  return v;
}
