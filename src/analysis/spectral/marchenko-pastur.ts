// Marchenko–Pastur support for the eigenvalues of a correlation matrix of n iid
// unit-variance series over T observations: an idealised noise band, not a test.
import { markFloat } from '../../core/json.js';
import type { MarchenkoPasturReference } from './types.js';

export interface MpBand {
  q: number;
  lower: number;
  upper: number;
}

export function marchenkoPasturBand(seriesCount: number, observations: number): MpBand {
  const q = seriesCount / (observations - 1);
  const root = Math.sqrt(q);
  const lo = 1 - root;
  const hi = 1 + root;
  return { q, lower: lo * lo, upper: hi * hi };
}

export function marchenkoPasturReference(band: MpBand, observations: number, eigenvalues: ArrayLike<number>): MarchenkoPasturReference {
  let above = 0;
  let below = 0;
  let inBand = 0;
  for (let i = 0; i < eigenvalues.length; i++) {
    const v = eigenvalues[i];
    if (v > band.upper) above++;
    else if (v < band.lower) below++;
    else inBand++;
  }
  const reference: MarchenkoPasturReference = {
    name: 'marchenko_pastur_iid_unit_variance',
    q: band.q,
    sample_degrees_of_freedom: observations - 1,
    lower_edge: band.lower,
    upper_edge: band.upper,
    above_upper_count: above,
    below_lower_count: below,
    in_band_count: inBand,
    finite_sample_calibrated: false,
    p_value: null,
    is_e_value: false,
  };
  // q = 1 (window one longer than the panel) gives the integral edges 0 and 4.
  for (const key of ['q', 'lower_edge', 'upper_edge'] as const) {
    if (Number.isInteger(reference[key])) markFloat(reference, key);
  }
  return reference;
}
