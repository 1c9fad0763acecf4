// did_it_change: the descriptive rank-based Shiryaev–Roberts monitor over one series. Each
// reading is ranked against the readings since the last alarm (optionally weighted towards
// recent ones), the rank tail fraction becomes a mixture bet, and the statistic
// R_t = (1 + R_{t-1}) * bet grows while readings keep landing in a tail. It is a monitoring
// statistic, not a calibrated e-value or p-value. Sums and orders mirror the reference's so
// the published (rounded) statistic and every state agree with it.
import { formatFixed } from '../numeric/printf.js';
import { medianOfHalves } from '../numeric/median-halves.js';
import { pyround } from '../numeric/pyround.js';
import { STATISTIC_CAP, WARMUP_POINTS } from '../change-detector.js';
import { powCR } from '../numeric/pow-cr.js';
import { mixtureBetCR } from './mixture-bet.js';
import type { DidItChangeRequest } from '../schemas/tools.js';
import { TOOL_DEFAULTS } from '../schemas/tools.js';
import { fin } from './finite.js';
import { entryFloats, PyRecord, type PyObject } from './py.js';

type Side = 'up' | 'down';
type State = 'warming_up' | 'steady' | 'watch' | 'changed';

const MAD_TO_SIGMA = 1.4826;

const ASSUMPTIONS: readonly string[] = [
  'The readings are in chronological order and in one consistent unit.',
  'Calibrating the rank fractions would need exchangeable readings and a sequentially valid construction; neither is established here.',
  'Dependence, drift, the recency weighting and hand-picked windows all change how often the monitor raises a false alarm.',
];

const METHOD_BASE =
  'A descriptive Shiryaev–Roberts monitor: each reading is ranked against the readings since the last alarm, the ' +
  'tail fraction p_t of that rank is turned into a bet by averaging the power bets e * p_t^(e - 1) over e = 0.1 … 0.9, ' +
  'and the statistic follows R_t = (1 + R_{t-1}) * bet(p_t), restarting after an alarm.';

const INTERPRETATION =
  'Crossing a threshold is a request to look at the series, nothing more: it is not a trading signal and not a ' +
  'calibrated e-value or p-value.';

interface Effect {
  direction: 'up' | 'down' | 'flat';
  delta: number | null;
  robustZ: number | null;
  percentile: number | null;
}

function effectOf(reference: readonly number[], latest: number, lastIndex: number): Effect {
  if (reference.length === 0) return { direction: 'flat', delta: null, robustZ: null, percentile: null };
  const centre = medianOfHalves(reference);
  const deviations = reference.map((r) => fin(Math.abs(r - centre), 'reference deviation', '/values'));
  const scale = fin(MAD_TO_SIGMA * medianOfHalves(deviations), 'reference scale', '/values');
  const delta = fin(latest - centre, 'latest departure', `/values/${lastIndex}`);
  const robustZ = scale > 0 ? pyround(fin(delta / scale, 'standardized departure', `/values/${lastIndex}`), 2) : null;
  let below = 0;
  for (const r of reference) if (r < latest) below++;
  return {
    direction: delta > 0 ? 'up' : delta < 0 ? 'down' : 'flat',
    delta: pyround(delta, 6),
    robustZ,
    percentile: pyround((100.0 * below) / reference.length, 1),
  };
}

/** Rank tail fraction of x against the reference, counting ties as extreme. */
function tailFraction(reference: readonly number[], x: number, side: Side, weights: Float64Array | null): number {
  const k = reference.length;
  if (weights === null) {
    let extreme = 0;
    for (let i = 0; i < k; i++) if (side === 'up' ? reference[i] >= x : reference[i] <= x) extreme++;
    return (extreme + 1) / (k + 1);
  }
  // Weight of reference[i] is weights[k - 1 - i] (the newest has weight 1); two plain sums in index order.
  let extreme = 0;
  let total = 0;
  for (let i = 0; i < k; i++) {
    const w = weights[k - 1 - i];
    if (side === 'up' ? reference[i] >= x : reference[i] <= x) extreme += w;
  }
  for (let i = 0; i < k; i++) total += weights[k - 1 - i];
  return (extreme + 1.0) / (total + 1.0);
}

function readingText(state: State, driver: Side | null, robustZ: number | null, sinceChange: number | null): string {
  const spread = robustZ === null ? '' : `; the latest reading sits ${formatFixed(Math.abs(robustZ), 1)}× the usual spread from the reference median`;
  switch (state) {
    case 'warming_up':
      if (sinceChange !== null) {
        return (
          `CHANGED ${sinceChange} reading${sinceChange === 1 ? '' : 's'} ago; the monitor restarted there and needs ` +
          `${WARMUP_POINTS} new readings before it can flag another change.`
        );
      }
      return `Warming up: the monitor needs ${WARMUP_POINTS} readings before it can flag a change.`;
    case 'steady':
      return 'Steady: the readings give no supported sign of a change. An absent alarm is not proof that nothing changed.';
    case 'watch':
      return `Possible change (${driver}): the monitoring statistic passed its watch level${spread}. Review the series before acting on it.`;
    case 'changed':
      return `CHANGED (${driver}): the monitoring statistic passed its change level${spread}. Review what happened around this reading.`;
  }
}

export function didItChange(request: DidItChangeRequest): PyObject {
  const values = entryFloats(request.values);
  const n = values.length;
  const twoSided = request.two_sided ?? TOOL_DEFAULTS.did_it_change.two_sided;
  const halfLife = request.half_life;
  const sides: readonly Side[] = twoSided ? ['up', 'down'] : ['up'];
  const watchAt = 100.0 * sides.length;
  const changedAt = 500.0 * sides.length;

  // weights[j] is the weight of the reading j places before the newest: 0.5^(j / h).
  let weights: Float64Array | null = null;
  if (halfLife !== undefined) {
    weights = new Float64Array(n);
    for (let j = 0; j < n; j++) weights[j] = powCR(0.5, j / halfLife);
  }

  const stat = { up: 0, down: 0 };
  let reference: number[] = [];
  let lastReference: number[] = [];
  const alarms: number[] = [];
  let state: State = 'warming_up';
  let statistic = 0;
  let driver: Side | null = null;

  for (let i = 0; i < n; i++) {
    const x = values[i];
    if (i === n - 1) lastReference = reference.slice();
    const warming = reference.length < WARMUP_POINTS;
    if (!warming) {
      for (const side of sides) {
        stat[side] = Math.min((1.0 + stat[side]) * mixtureBetCR(tailFraction(reference, x, side, weights)), STATISTIC_CAP);
      }
    }
    let peak = stat[sides[0]];
    driver = sides[0];
    for (const side of sides) {
      if (stat[side] > peak) {
        peak = stat[side];
        driver = side;
      }
    }
    if (peak === 0) driver = null;
    state = warming ? 'warming_up' : peak >= changedAt ? 'changed' : peak >= watchAt ? 'watch' : 'steady';
    statistic = pyround(peak, 4);
    reference.push(x);
    if (state === 'changed') {
      alarms.push(i);
      stat.up = 0;
      stat.down = 0;
      reference = [];
    }
  }

  const effect = effectOf(lastReference, values[n - 1], n - 1);
  const sinceChange = alarms.length === 0 ? null : n - 1 - alarms[alarms.length - 1];
  return new PyRecord()
    .int('n', n)
    .set('state', state)
    .float('evidence', statistic)
    .float('monitoring_statistic', statistic)
    .set('statistic_type', 'shiryaev_roberts')
    .set('is_e_value', false)
    .set('validity', 'descriptive')
    .set('weighted', halfLife !== undefined)
    .set('assumptions', [...ASSUMPTIONS])
    .set('direction', driver)
    .set(
      'effect',
      new PyRecord()
        .set('direction', effect.direction)
        .float('delta', effect.delta)
        .float('robust_z', effect.robustZ)
        .float('percentile', effect.percentile)
        .build(),
    )
    .int('effect_reference_size', lastReference.length)
    .set('change_points', alarms)
    .float('watch_at', watchAt)
    .float('changed_at', changedAt)
    .set('readings_since_change', sinceChange)
    .set('reading', readingText(state, driver, effect.robustZ, sinceChange))
    .set('guarantee', null)
    .set('interpretation', INTERPRETATION)
    .set(
      'method',
      METHOD_BASE +
        (twoSided
          ? ' Two-sided: upward and downward departures each have their own statistic, and both thresholds are doubled because two are watched.'
          : ' One-sided: only upward departures are monitored.'),
    )
    .build();
}
