// The robust departure of one value from a reference: (x - median) / (1.4826 * MAD), with
// the tools' halves median, or null when the reference has no spread. Each intermediate
// goes through the finiteness guard in the reference's order.
import { medianOfHalves } from '../numeric/median-halves.js';
import { fin } from './finite.js';

export const MAD_TO_SIGMA = 1.4826;

export function robustZ(reference: readonly number[], x: number, path: string): number | null {
  if (reference.length === 0) return null;
  const centre = medianOfHalves(reference);
  const deviations = reference.map((v) => fin(Math.abs(v - centre), 'reference deviation', path));
  const scale = fin(MAD_TO_SIGMA * medianOfHalves(deviations), 'reference scale', path);
  if (!(scale > 0)) return null;
  return fin((x - centre) / scale, 'standardized departure', path);
}
