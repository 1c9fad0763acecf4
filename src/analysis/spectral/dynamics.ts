// Descriptive change between two consecutive assessed windows. None of these numbers is
// calibrated: they say how much the spectrum moved, not whether the move is significant.
import { ExactSum } from '../numeric/fsum.js';
import { putFloat } from './numbers.js';
import type { SpectralDynamics } from './types.js';
import type { WindowSpectrum } from './window.js';

/** Leading eigengaps at or below this make the leading vector direction meaningless. */
export const DEGENERATE_GAP = 1e-6;

const acc = new ExactSum();

export function windowDynamics(from: string, to: string, prev: WindowSpectrum, cur: WindowSpectrum): SpectralDynamics {
  const n = prev.eigenvalues.length;
  acc.reset();
  for (let k = 0; k < n; k++) {
    const d = prev.eigenvalues[k] - cur.eigenvalues[k];
    acc.add(d * d);
  }
  const eigenRms = Math.sqrt(acc.value() / n);
  acc.reset();
  for (let i = 0; i < n * n; i++) {
    const d = prev.correlation[i] - cur.correlation[i];
    acc.add(d * d);
  }
  const correlationRms = Math.sqrt(acc.value() / (n * n));
  let overlap: number | null = null;
  let comparison: SpectralDynamics['leading_vector_comparison'] = 'unresolved_degenerate_mode';
  if (prev.leadingGap > DEGENERATE_GAP && cur.leadingGap > DEGENERATE_GAP) {
    acc.reset();
    for (let k = 0; k < n; k++) acc.add(prev.leading[k] * cur.leading[k]);
    const dot = acc.value();
    overlap = Math.min(1, dot * dot);
    comparison = 'descriptive';
  }
  const out: SpectralDynamics = {
    from,
    to,
    leading_variance_share_change: cur.leadingShare - prev.leadingShare,
    eigenvalue_rms_change: eigenRms,
    correlation_rms_change: correlationRms,
    leading_vector_squared_overlap: overlap,
    leading_vector_comparison: comparison,
    calibrated_regime_change: false,
  };
  putFloat(out, 'leading_variance_share_change', out.leading_variance_share_change);
  putFloat(out, 'eigenvalue_rms_change', eigenRms);
  putFloat(out, 'correlation_rms_change', correlationRms);
  if (overlap !== null) putFloat(out, 'leading_vector_squared_overlap', overlap);
  return out;
}
