// Anytime-valid confidence sequence for one Bernoulli arm: the beta-binomial mixture
// (uniform Beta(1,1) prior) against each candidate rate p, inverted by bisection. By
// Ville's inequality the set of rates whose mixture evidence stays below ln(1/a) excludes
// the true constant rate at any time with probability at most a (Howard, Ramdas et al.,
// arXiv:2210.01948 treats the two-arm case). The operation order follows the reference's,
// so the bisection takes the same branches whenever the logs agree.
import { lgamma } from '../numeric/lgamma.js';
import { logCorrectlyRounded } from '../numeric/log.js';
import { fin } from './finite.js';

const BISECTION_STEPS = 60;

/** ln of the beta-binomial marginal likelihood of s successes in n trials, Beta(1,1) prior. */
export function logMarginal(s: number, n: number, path: string): number {
  const a = 1.0 + s;
  const b = 1.0 + n - s;
  // Minus the prior's own log-beta, which is exactly 0 for Beta(1,1).
  const m = lgamma(a) + lgamma(b) - lgamma(a + b) - 0.0;
  return fin(m, 'log marginal likelihood', path);
}

/** Mixture log-evidence against the rate p after s successes in n trials. */
export function logEvidenceAgainst(p: number, s: number, n: number, m: number): number {
  if (p === 0) return s > 0 ? Infinity : m;
  if (p === 1) return s < n ? Infinity : m;
  return m - s * logCorrectlyRounded(p) - (n - s) * Math.log1p(-p);
}

/** The boundary between an excluded and an included rate, rounded outward (toward excluded). */
function bisect(excluded: number, included: number, s: number, n: number, m: number, threshold: number): number {
  for (let i = 0; i < BISECTION_STEPS; i++) {
    const mid = excluded / 2 + included / 2;
    if (logEvidenceAgainst(mid, s, n, m) >= threshold) excluded = mid;
    else included = mid;
  }
  return excluded;
}

/** [lower, upper] for s successes in n trials at level a (0 < a < 1). */
export function confidenceSequence(s: number, n: number, a: number, path: string): [number, number] {
  const m = logMarginal(s, n, path);
  if (n === 0) return [0.0, 1.0];
  const threshold = -logCorrectlyRounded(a);
  const centre = s / n;
  // Defensive: the observed rate always has evidence below zero, so this never holds.
  if (logEvidenceAgainst(centre, s, n, m) >= threshold) return [0.0, 1.0];
  const lower = logEvidenceAgainst(0.0, s, n, m) < threshold ? 0.0 : bisect(0.0, centre, s, n, m, threshold);
  const upper = logEvidenceAgainst(1.0, s, n, m) < threshold ? 1.0 : bisect(1.0, centre, s, n, m, threshold);
  return [Math.max(0.0, lower), Math.min(1.0, upper)];
}
