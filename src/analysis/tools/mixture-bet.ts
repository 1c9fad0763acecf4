// The mixture of power bets, bet(p) = (1/9) sum over e = 0.1 … 0.9 of e * p^(e - 1), with
// p clipped to [1e-12, 1], summed left to right as the reference does. The powers are the
// correctly rounded ones (what glibc's pow gives the reference in nearly every case);
// Math.pow differs from those by an ulp for about 7 % of rank fractions. ln p is computed
// once per bet in double-double and shared by the nine powers.
import { dd } from '../numeric/double-double.js';
import { logDD } from '../numeric/log-dd.js';
import { expOfScaledLog } from '../numeric/pow-cr.js';
import { BET_GRID } from '../change-detector.js';

const P_FLOOR = 1e-12;
const EXPONENTS: readonly number[] = BET_GRID.map((e) => e - 1.0);
const lnp = dd();

export function mixtureBetCR(p: number): number {
  const q = p < P_FLOOR ? P_FLOOR : p > 1 ? 1 : p;
  let sum = 0;
  if (q === 1) {
    for (let k = 0; k < BET_GRID.length; k++) sum += BET_GRID[k] * 1;
  } else {
    logDD(q, lnp);
    for (let k = 0; k < BET_GRID.length; k++) sum += BET_GRID[k] * expOfScaledLog(lnp[0], lnp[1], EXPONENTS[k]);
  }
  return sum / BET_GRID.length;
}
