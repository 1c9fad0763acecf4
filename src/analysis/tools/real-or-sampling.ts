// real_or_sampling: did the latest metric reading move beyond its own history, and if so,
// does the historical linear relation between metric and sample size account for it? The
// departure is a robust z against the earlier readings; the relation is an ordinary
// least-squares line fitted on the history only (the latest pair is left out), and the
// latest pair's residual is compared with the historical residuals. It describes an
// association; it cannot say whether sampling caused the move.
import { AppError } from '../../core/errors.js';
import { formatFixed } from '../numeric/printf.js';
import { medianOfHalves } from '../numeric/median-halves.js';
import { pyround } from '../numeric/pyround.js';
import type { RealOrSamplingRequest } from '../schemas/tools.js';
import { AnalysisErrors } from '../errors.js';
import { ToolErrors } from './errors.js';
import { fin } from './finite.js';
import { entryFloats, PyRecord, type PyObject } from './py.js';
import { robustZ } from './robust-z.js';

export const MIN_PAIRS = 10;
const MOVE_Z = 2.0;
const GOOD_FIT_R = 0.3;
const SURVIVES = 0.5;

const METHOD =
  'The latest metric reading is compared with the earlier ones through a median/MAD departure; when it departs, a ' +
  'least-squares line of metric on sample size is fitted to the earlier pairs and the latest residual is compared ' +
  'with the historical residuals the same way.';

const CAVEATS: readonly string[] = [
  'A linear association with sample size neither proves nor rules out a sampling explanation.',
  'The latest pair is kept out of the fit, so the line describes the history only.',
  'Dependence between readings, changes in composition and nonlinear relations are not controlled for.',
  'Trading volume in a market is not the same thing as the number of units a measurement covered.',
  'REAL and SAMPLING_ARTIFACT are kept as labels for compatibility; both are descriptive, not causal, findings.',
];

type Verdict = 'NO_MOVE' | 'UNCLEAR' | 'SAMPLING_ARTIFACT' | 'REAL';

const TOO_LARGE_MESSAGE =
  'the values are too large for the denominator fit: a squared deviation overflows double precision; rescale the values';

/** A deviation squared; a finite deviation whose square overflows is refused as in the reference. */
function square(d: number, path: string): number {
  const s = d * d;
  if (Number.isFinite(d) && !Number.isFinite(s)) {
    throw new AppError(AnalysisErrors.derived_statistic_overflow, TOO_LARGE_MESSAGE, { path });
  }
  return s;
}

interface Fit {
  slope: number;
  intercept: number;
  r: number;
}

/** Least-squares fit of y on x, or null when x has no variation. Naive sums in index order. */
function fitLine(x: readonly number[], y: readonly number[]): Fit | null {
  const k = x.length;
  let sx = 0;
  for (let i = 0; i < k; i++) sx += x[i] / k;
  const mx = fin(sx, 'mean denominator', '/sample_sizes');
  let sy = 0;
  for (let i = 0; i < k; i++) sy += y[i] / k;
  const my = fin(sy, 'mean metric', '/values');
  let sxx = 0;
  for (let i = 0; i < k; i++) sxx += square(x[i] - mx, '/sample_sizes');
  sxx = fin(sxx, 'denominator variation', '/sample_sizes');
  let syy = 0;
  for (let i = 0; i < k; i++) syy += square(y[i] - my, '/values');
  syy = fin(syy, 'metric variation', '/values');
  if (sxx <= 0) return null;
  let sxy = 0;
  for (let i = 0; i < k; i++) sxy += (x[i] - mx) * (y[i] - my);
  sxy = fin(sxy, 'covariation', '/values');
  const slope = fin(sxy / sxx, 'slope', '/values');
  let r = syy > 0 ? sxy / Math.sqrt(sxx) / Math.sqrt(syy) : 0.0;
  r = Math.min(Math.max(r, -1.0), 1.0);
  const intercept = fin(my - slope * mx, 'intercept', '/values');
  return { slope, intercept, r };
}

function readingFor(verdict: Verdict, assessment: string, r: number | null): string {
  switch (assessment) {
    case 'no_supported_departure':
      return 'The latest metric reading does not depart from its history at the descriptive threshold; that is not proof that it is stable.';
    case 'departure_from_zero_spread':
      return 'The latest metric reading differs from a history with no spread at all, so no standardized size can be given to the move.';
    case 'denominator_explanation_unidentified':
      return 'The metric departed, but the sample size never varied in the history, so its relation to the metric cannot be identified.';
    case 'weak_linear_association':
      return `The metric departed, but its historical linear association with sample size is weak (r = ${formatFixed(r ?? 0, 2)}), too weak to say whether sample size accounts for the move.`;
    default:
      return verdict === 'SAMPLING_ARTIFACT'
        ? 'The move is in line with the historical relation between metric and sample size. That is consistent with a sampling effect but not evidence that sampling caused it.'
        : 'The move remains after conditioning on the historical linear relation with sample size. Neither its cause nor its importance is established.';
  }
}

export function realOrSampling(request: RealOrSamplingRequest): PyObject {
  const values = entryFloats(request.values);
  const sizes = request.sample_sizes;
  const n = values.length;
  if (sizes.length !== n) {
    throw new AppError(
      ToolErrors.length_mismatch,
      `values has ${n} readings but sample_sizes has ${sizes.length}; they must pair up one to one, in the same order`,
      { path: '/sample_sizes' },
    );
  }
  const out = new PyRecord()
    .int('n_pairs', n)
    .set('validity', 'descriptive')
    .set('guarantee', null)
    .set('is_causal', false)
    .set('method', METHOD)
    .set('caveats', [...CAVEATS]);
  const finish = (verdict: Verdict, assessment: string, r: number | null = null): PyObject =>
    out.set('verdict', verdict).set('assessment', assessment).set('reading', readingFor(verdict, assessment, r)).build();

  if (n < MIN_PAIRS) {
    return out
      .set('verdict', 'NOT_ENOUGH_HISTORY')
      .set('assessment', 'insufficient_history')
      .set('reading', `This check needs at least ${MIN_PAIRS} paired readings; it was given ${n}.`)
      .build();
  }

  const metrics = values.slice(0, n - 1);
  const denominators = sizes.slice(0, n - 1);
  const m1 = values[n - 1];
  const d1 = sizes[n - 1];
  const delta = fin(m1 - medianOfHalves(metrics), 'metric departure', `/values/${n - 1}`);
  const zM = robustZ(metrics, m1, '/values');
  const zD = robustZ(denominators, d1, '/sample_sizes');
  const medD = medianOfHalves(denominators);
  // medD is 0 when the two middle sizes are the smallest subnormal (each half underflows);
  // the reference then divides by zero and crashes. Here it is a non-finite change.
  const pct = fin(100 * ((d1 - medD) / medD), 'denominator change', '/sample_sizes');
  out
    .float('metric_now', m1)
    .float('sample_size_now', d1)
    .float('metric_departure', zM === null ? null : pyround(zM, 2))
    .float('metric_delta', delta)
    .set('zero_reference_spread', zM === null)
    .float('sample_size_departure', zD === null ? null : pyround(zD, 2))
    .float('sample_size_change_pct', pct);

  if ((zM === null && delta === 0) || (zM !== null && Math.abs(zM) < MOVE_Z)) return finish('NO_MOVE', 'no_supported_departure');
  if (zM === null) return finish('UNCLEAR', 'departure_from_zero_spread');

  const fit = fitLine(denominators, metrics);
  if (fit === null) return finish('UNCLEAR', 'denominator_explanation_unidentified');
  out.set('fit', new PyRecord().float('slope', fit.slope).float('intercept', fit.intercept).float('correlation', pyround(fit.r, 3)).build());
  let lo = denominators[0];
  let hi = denominators[0];
  for (const d of denominators) {
    if (d < lo) lo = d;
    if (d > hi) hi = d;
  }
  out.set('denominator_extrapolation', !(lo <= d1 && d1 <= hi));
  if (Math.abs(fit.r) < GOOD_FIT_R) return finish('UNCLEAR', 'weak_linear_association', fit.r);

  const residuals = denominators.map((d, i) => fin(metrics[i] - (fit.intercept + fit.slope * d), 'historical residual', `/values/${i}`));
  const e1 = fin(m1 - (fit.intercept + fit.slope * d1), 'latest residual', `/values/${n - 1}`);
  const zR = robustZ(residuals, e1, '/values');
  out.float('departure_after_conditioning', zR === null ? null : pyround(zR, 2));
  let explained: boolean;
  if (zR === null) {
    let largest = 0.0;
    for (const e of residuals) if (Math.abs(e) > largest) largest = Math.abs(e);
    explained = Math.abs(e1) <= Math.max(largest, 1e-9) * 10;
  } else {
    explained = !(Math.abs(zR) >= Math.abs(zM) * SURVIVES && Math.abs(zR) >= MOVE_Z);
  }
  return explained
    ? finish('SAMPLING_ARTIFACT', 'consistent_with_denominator_association')
    : finish('REAL', 'departure_survives_linear_conditioning');
}
