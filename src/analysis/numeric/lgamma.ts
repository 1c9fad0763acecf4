// CPython 3.11's math.lgamma for x >= 1 (the only arguments the confidence sequences use).
//
// CPython does not call the C library here: it evaluates Lanczos' approximation with its
// own coefficients (g = 6.024680040776729583740234375, 13 terms, the rational sum written
// as a ratio of two polynomials), in a fixed operation order. Reproducing that order, with
// a correctly rounded log in place of glibc's, gives the reference's value bit for bit
// except where glibc's log itself is misrounded.
import { logCorrectlyRounded } from './log.js';

const LANCZOS_G = 6.02468004077673;

// Numerator and denominator coefficients, lowest power first (CPython's tables).
const NUM = [
  23531376880.41076, 42919803642.6491, 35711959237.35567, 17921034426.03721, 6039542586.352028, 1439720407.3117216,
  248874557.86205417, 31426415.585400194, 2876370.6289353725, 186056.26539522348, 8071.672002365816,
  210.82427775157936, 2.5066282746310002,
];
const DEN = [0, 39916800, 120543840, 150917976, 105258076, 45995730, 13339535, 2637558, 357423, 32670, 1925, 66, 1];
const TERMS = NUM.length;

/** The Lanczos rational sum: Horner in x below 5, in 1/x above (CPython's two branches). */
function lanczosSum(x: number): number {
  let num = 0;
  let den = 0;
  if (x < 5) {
    for (let i = TERMS - 1; i >= 0; i--) {
      num = num * x + NUM[i];
      den = den * x + DEN[i];
    }
  } else {
    for (let i = 0; i < TERMS; i++) {
      num = num / x + NUM[i];
      den = den / x + DEN[i];
    }
  }
  return num / den;
}

/** ln Γ(x) for finite x >= 1, as CPython 3.11 computes it. */
export function lgamma(x: number): number {
  if (!(x >= 1) || !Number.isFinite(x)) throw new RangeError('lgamma is implemented for finite x >= 1 only');
  if (x <= 2 && Math.floor(x) === x) return 0; // lgamma(1) = lgamma(2) = 0 exactly
  const r = logCorrectlyRounded(lanczosSum(x)) - LANCZOS_G;
  // (x + g) - 0.5 in this order, as the reference does; not x + (g - 0.5).
  return r + (x - 0.5) * (logCorrectlyRounded(x + LANCZOS_G - 0.5) - 1);
}
