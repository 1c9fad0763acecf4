// One rolling window of the aligned panel: per-member normalisation, the correlation
// matrix, its eigen-decomposition, the Marchenko–Pastur reference band, the experimental
// shrinkage candidate, concentration measures, leading loadings and lag-one correlations.
import { AppError } from '../../core/errors.js';
import { markFloat } from '../../core/json.js';
import { AnalysisErrors } from '../errors.js';
import { jacobiEigen } from '../linalg/jacobi.js';
import { dotExactBounded } from '../numeric/bounded-kernels.js';
import { dotExact } from '../numeric/exact-kernels.js';
import { expCorrectlyRounded } from '../numeric/exp.js';
import { ExactSum } from '../numeric/fsum.js';
import { logCorrectlyRounded } from '../numeric/log.js';
import { normaliseInto } from '../numeric/normalise.js';
import { marchenkoPasturBand, marchenkoPasturReference } from './marchenko-pastur.js';
import { floatArray, floatMatrix, overflowError, putFloat } from './numbers.js';
import type { AssessedWindow, SpectralWindow, UnresolvedWindow } from './types.js';

/** Eigenvalues below this are a failed positive-semidefinite check, not rounding. */
export const PSD_TOLERANCE = -1e-10;
/** Eigenvalues above this count towards the numerical rank. */
export const RANK_THRESHOLD = 1e-10;

export interface AlignedPanel {
  ids: string[];
  /** Per member, aligned interval values (length = aligned points). */
  values: Float64Array[];
  /** Per member, representation tolerances for price members, else null. */
  tolerances: (Float64Array | null)[];
}

/** What dynamics needs from an assessed window. */
export interface WindowSpectrum {
  eigenvalues: Float64Array;
  correlation: Float64Array;
  leading: Float64Array;
  leadingShare: number;
  leadingGap: number;
}

export interface WindowOutcome {
  window: SpectralWindow;
  spectrum: WindowSpectrum | null;
}

const acc = new ExactSum();

/**
 * Assesses intervals [end - length, end) of the panel. `scratch` must hold at least
 * n * length doubles; it is overwritten.
 */
export function assessWindow(
  panel: AlignedPanel,
  end: number,
  length: number,
  clocks: { start: string; end: string },
  scratch: Float64Array,
): WindowOutcome {
  const n = panel.ids.length;
  const start = end - length;
  const head = {
    window_start: clocks.start,
    window_end: clocks.end,
    observations: length,
    series_ids: [...panel.ids],
  };

  const unresolved: string[] = [];
  for (let s = 0; s < n; s++) {
    const column = panel.values[s];
    const z = scratch.subarray(s * length, (s + 1) * length);
    let ok = normaliseInto(column, start, length, z);
    const tol = panel.tolerances[s];
    if (ok && tol !== null) {
      // A price member whose log returns all sit within representation error is noise.
      let max = -Infinity;
      let min = Infinity;
      let largestTolerance = 0;
      for (let t = start; t < end; t++) {
        const v = column[t];
        if (v > max) max = v;
        if (v < min) min = v;
        if (tol[t] > largestTolerance) largestTolerance = tol[t];
      }
      if (max - min <= 2 * largestTolerance) ok = false;
    }
    if (!ok) unresolved.push(`constant_or_unresolved_series:${panel.ids[s]}`);
  }
  if (unresolved.length > 0) {
    const window: UnresolvedWindow = { ...head, status: 'insufficient_visibility', reasons: unresolved };
    return { window, spectrum: null };
  }

  const largest = rowLargest(scratch, length, n);
  const correlation = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    const zi = i * length;
    for (let j = i; j < n; j++) {
      const zj = j * length;
      const c = dotExactBounded(scratch, zi, scratch, zj, length, largest[i], largest[j]);
      correlation[i * n + j] = c;
      correlation[j * n + i] = c;
    }
  }

  const { values: rawValues, vectors } = jacobiEigen(correlation, n);
  if (rawValues[n - 1] < PSD_TOLERANCE) {
    throw new AppError(
      AnalysisErrors.not_positive_semidefinite,
      `the window correlation matrix has eigenvalue ${rawValues[n - 1]}, below the positive-semidefinite tolerance`,
    );
  }
  const eigenvalues = new Float64Array(n);
  for (let k = 0; k < n; k++) eigenvalues[k] = Math.max(rawValues[k], 0);

  const band = marchenkoPasturBand(n, length);
  const reference = marchenkoPasturReference(band, length, eigenvalues);

  // Shrinkage candidate: flatten the in-band part of the spectrum to its mean.
  const shrunk = Float64Array.from(eigenvalues);
  acc.reset();
  let inBand = 0;
  for (let k = 0; k < n; k++) {
    if (eigenvalues[k] >= band.lower && eigenvalues[k] <= band.upper) {
      acc.add(eigenvalues[k]);
      inBand++;
    }
  }
  if (inBand > 0) {
    const mean = acc.value() / inBand;
    for (let k = 0; k < n; k++) if (eigenvalues[k] >= band.lower && eigenvalues[k] <= band.upper) shrunk[k] = mean;
  }
  // R_ij = sum_k v_ik * lambda'_k * v_jk, products taken left to right.
  const components = new Float64Array(n * n); // components[i*n + k] = v_ik
  const weighted = new Float64Array(n * n); // weighted[i*n + k] = v_ik * lambda'_k
  for (let k = 0; k < n; k++) {
    const vec = vectors[k];
    for (let i = 0; i < n; i++) {
      components[i * n + k] = vec[i];
      weighted[i * n + k] = vec[i] * shrunk[k];
    }
  }
  const weightedLargest = rowLargest(weighted, n);
  const componentsLargest = rowLargest(components, n);
  const rebuilt = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      rebuilt[i * n + j] = dotExactBounded(weighted, i * n, components, j * n, n, weightedLargest[i], componentsLargest[j]);
    }
  }
  const roots = new Float64Array(n);
  for (let i = 0; i < n; i++) roots[i] = Math.sqrt(rebuilt[i * n + i]);
  const cleaned = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      const v = rebuilt[i * n + j] / (roots[i] * roots[j]);
      if (!Number.isFinite(v)) throw overflowError();
      cleaned[i * n + j] = v;
    }
  }

  // Concentration of the (clipped) spectrum.
  acc.reset();
  for (let k = 0; k < n; k++) acc.add(eigenvalues[k]);
  const trace = acc.value();
  acc.reset();
  for (let k = 0; k < n; k++) acc.add(eigenvalues[k] * eigenvalues[k]);
  const sumSquares = acc.value();
  acc.reset();
  for (let k = 0; k < n; k++) {
    if (eigenvalues[k] > 0) {
      const p = eigenvalues[k] / trace;
      acc.add(p * logCorrectlyRounded(p));
    }
  }
  const entropy = acc.value();
  let numericalRank = 0;
  for (let k = 0; k < n; k++) if (eigenvalues[k] > RANK_THRESHOLD) numericalRank++;
  const leadingShare = eigenvalues[0] / trace;
  const participation = (trace * trace) / sumSquares;
  const effectiveRank = expCorrectlyRounded(-entropy);
  const leadingGap = eigenvalues[0] - eigenvalues[1];
  for (const v of [leadingShare, participation, effectiveRank, leadingGap]) {
    if (!Number.isFinite(v)) throw overflowError();
  }

  // Leading vector, signed so its largest component (first on ties) is non-negative.
  const leading = Float64Array.from(vectors[0]);
  let pivot = 0;
  for (let i = 1; i < n; i++) if (Math.abs(leading[i]) > Math.abs(leading[pivot])) pivot = i;
  if (leading[pivot] < 0) for (let i = 0; i < n; i++) leading[i] = -leading[i];
  const loadings: Record<string, number> = Object.create(null) as Record<string, number>;
  for (let i = 0; i < n; i++) {
    Object.defineProperty(loadings, panel.ids[i], { value: leading[i], enumerable: true, writable: true, configurable: true });
    if (Number.isInteger(leading[i])) markFloat(loadings, panel.ids[i]);
  }

  const lagOne = lagOneCorrelations(panel, start, length, scratch);

  const window: AssessedWindow = {
    ...head,
    status: 'assessed',
    reasons: [],
    correlation: floatMatrix(correlation, n),
    eigenvalues: floatArray(eigenvalues),
    leading_variance_share: leadingShare,
    participation_ratio: participation,
    effective_rank: effectiveRank,
    numerical_rank: numericalRank,
    leading_eigengap: leadingGap,
    leading_loadings: loadings,
    lag_one_correlations: lagOne,
    reference,
    shrinkage_candidate: {
      status: 'experimental',
      correlation: floatMatrix(cleaned, n),
      method: 'equalize_in_band_eigenvalues_then_restore_unit_diagonal',
      low_and_high_outliers_preserved_before_diagonal_normalization: true,
      positive_definite_guaranteed: false,
      out_of_sample_validated: false,
    },
  };
  for (const key of ['leading_variance_share', 'participation_ratio', 'effective_rank', 'leading_eigengap']) {
    putFloat(window, key, (window as unknown as Record<string, number>)[key]);
  }
  return { window, spectrum: { eigenvalues, correlation, leading, leadingShare, leadingGap } };
}

/**
 * Largest magnitude of each of `rows` rows of `width` entries (default: a square matrix):
 * the bounds that let `dotExactBounded` split the products of those rows.
 */
function rowLargest(values: Float64Array, width: number, rows = width): Float64Array {
  const largest = new Float64Array(rows);
  for (let r = 0; r < rows; r++) {
    let m = 0;
    for (let t = r * width, stop = t + width; t < stop; t++) {
      const v = Math.abs(values[t]);
      if (v > m) m = v;
    }
    largest[r] = m;
  }
  return largest;
}

function lagOneCorrelations(
  panel: AlignedPanel,
  start: number,
  length: number,
  scratch: Float64Array,
): { id: string; correlation: number | null }[] {
  const m = length - 1;
  // The normalised columns are no longer needed; reuse the front of the scratch buffer.
  const a = scratch.subarray(0, m);
  const b = scratch.subarray(m, 2 * m);
  return panel.ids.map((id, s) => {
    const column = panel.values[s];
    const entry: { id: string; correlation: number | null } = { id, correlation: null };
    if (normaliseInto(column, start, m, a) && normaliseInto(column, start + 1, m, b)) {
      putFloat(entry, 'correlation', dotExact(a, 0, b, 0, m));
    }
    return entry;
  });
}
