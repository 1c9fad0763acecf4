// Price transform: log returns as a difference of logs (never the log of a ratio, which
// rounds differently), with a per-point bound on the error the representation itself
// introduces, so that arithmetic noise is never reported as a departure. The logs are
// correctly rounded (numeric/log.ts): on a smooth path the returns are rounding noise, so
// they must be the reference's logs to the last bit.
import { logCorrectlyRounded } from '../numeric/log.js';
import { ulp } from '../numeric/ulp.js';

/** Safety factor on the ULP sum: a few roundings per log and one per difference. */
const TOLERANCE_FACTOR = 4;

/**
 * Fills `out[0..count)` with the log returns labelled by `tail[first .. first+count)`
 * (each uses the point before it, so `first >= 1`) and returns the largest
 * representation tolerance among them.
 */
export function logReturnWindow(
  tail: readonly { value: number | null }[],
  first: number,
  count: number,
  out: Float64Array,
): number {
  let previous = logCorrectlyRounded(tail[first - 1].value as number);
  let precision = 0;
  for (let i = 0; i < count; i++) {
    const current = logCorrectlyRounded(tail[first + i].value as number);
    const d = current - previous;
    out[i] = d;
    const tolerance = TOLERANCE_FACTOR * (ulp(previous) + ulp(current) + ulp(d));
    if (tolerance > precision) precision = tolerance;
    previous = current;
  }
  return precision;
}
