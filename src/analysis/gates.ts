// Source gates and domain checks shared by market_assessment and spectral_assessment.
//
// A series is only analysed when its source may be used and its clock is trustworthy at
// `as_of`. The gates never repair data: they report why a series cannot be read, and the
// contiguous tail is the newest run of points after the last missing value or calendar gap.
//
// Market adds its own `insufficient_contiguous_history` gate after its transform; that
// gate is deliberately not here.
import { AppError } from '../core/errors.js';
import { compareCodePoints } from '../core/strings.js';
import { type Instant, secondsBetween } from '../core/time.js';
import { type ClockColumn, InstantParser } from './clock-parser.js';
import { AnalysisErrors } from './errors.js';

export { ClockColumn, InstantParser, ObservationClocks } from './clock-parser.js';

export interface GateObservation {
  observed_at: string;
  value: number | null;
  available_at?: string;
  sample_size?: number | null;
}

export interface GateSeries {
  id: string;
  kind: string;
  source: { rights: string };
  max_age_seconds: number;
  max_gap_seconds?: number;
  observations: GateObservation[];
}

/** Gate issue tokens, in the order they are checked and reported. */
export type GateIssue =
  | 'source_use_not_permitted_or_unknown'
  | 'no_observations'
  | 'future_observation'
  | 'not_yet_available'
  | 'availability_precedes_observation'
  | 'stale_observation'
  | 'latest_value_missing';

/** Informational warnings raised by the gates, in the order they are appended. */
export type GateWarning =
  | 'availability_history_incomplete'
  | 'calendar_gap_policy_not_supplied'
  | 'missing_observations_preserved'
  | 'calendar_gaps_preserved';

/**
 * What `gateSeries` returns:
 * - `issues`: gate tokens in check order (rights, no observations, future, not yet
 *   available, availability before observation, stale, latest value missing). Non-empty
 *   means the series must not be analysed.
 * - `warnings`: the gate warnings in append order (callers may append their own later).
 * - `observed`: parsed `observed_at` of every observation, input order.
 * - `observedKeys`: the same instants as exact doubles (microseconds), usable for fast
 *   comparisons, or null when some instant lies beyond ±2^53 µs (years before ~1685 or
 *   after ~2255) — then use the instants of `observed`.
 * - `tailStart` / `tail`: the contiguous tail is `observations.slice(tailStart)` (the
 *   observations array itself when that is all of it: read it, never write to it).
 * - `tailFinite`: every tail value is a finite number (the tail holds no nulls).
 * - `gapIndices`: indices i where the step from i-1 to i exceeds `max_gap_seconds`.
 * - `missingPoints`: number of null values in the whole series.
 * - `ageSeconds`: `as_of` minus the last `observed_at` in seconds (null without points).
 * - `observedAt` / `availableAt`: the last observation's clocks as supplied, or null.
 * - `availabilityComplete`: at least one point and every point has `available_at`.
 */
export interface SeriesGateResult {
  issues: GateIssue[];
  warnings: string[];
  observed: ClockColumn;
  observedKeys: Float64Array | null;
  tailStart: number;
  tail: GateObservation[];
  tailFinite: boolean;
  gapIndices: number[];
  missingPoints: number;
  ageSeconds: number | null;
  observedAt: string | null;
  availableAt: string | null;
  availabilityComplete: boolean;
}

const SAFE_MICROS = 9007199254740992n; // 2^53

/** Throws duplicate_series_id when two series share an id. */
export function assertUniqueSeriesIds(series: readonly { id: string }[]): void {
  const seen = new Set<string>();
  for (let i = 0; i < series.length; i++) {
    const id = series[i].id;
    if (seen.has(id)) {
      throw new AppError(AnalysisErrors.duplicate_series_id, `series id ${JSON.stringify(id)} is used more than once; ids must be unique`, {
        path: `/series/${i}/id`,
      });
    }
    seen.add(id);
  }
}

/**
 * Domain checks for one series: strictly increasing clocks, then positive prices, then
 * non-negative counts. `index` is the series' position in the request (for the error
 * path). Returns the parsed `observed_at` clocks so the gates need not parse again;
 * `observed` may pass them in when already read (e.g. by `readObservationClocks`, which
 * has then reported any invalid one).
 */
export function assertSeriesDomain(series: GateSeries, index: number, parser: InstantParser, observed?: ClockColumn): ClockColumn {
  const obs = series.observations;
  const clocks = observed ?? parser.readClocks(obs, 'observed_at', `/series/${index}/observations`);
  const keys = clocks.exact ? clocks.keys : null;
  const instants = keys === null ? (clocks.instants() as Instant[]) : [];
  for (let i = 1; i < obs.length; i++) {
    if (keys !== null ? keys[i] <= keys[i - 1] : instants[i] <= instants[i - 1]) {
      throw new AppError(
        AnalysisErrors.non_increasing_timestamps,
        `${series.id}: each observed_at must be later than the one before it (no repeats, no reordering)`,
        { path: `/series/${index}/observations/${i}/observed_at` },
      );
    }
  }
  if (series.kind === 'price') {
    for (let i = 0; i < obs.length; i++) {
      const v = obs[i].value;
      if (v !== null && v <= 0) {
        throw new AppError(AnalysisErrors.non_positive_price, `${series.id}: a price must be greater than zero`, {
          path: `/series/${index}/observations/${i}/value`,
        });
      }
    }
  } else if (series.kind === 'count') {
    for (let i = 0; i < obs.length; i++) {
      const v = obs[i].value;
      if (v !== null && v < 0) {
        throw new AppError(AnalysisErrors.negative_count, `${series.id}: a count cannot be below zero`, {
          path: `/series/${index}/observations/${i}/value`,
        });
      }
    }
  }
  return clocks;
}

/** Series indices sorted by id in code point order (the spectral panel order). */
export function idOrder(series: readonly { id: string }[]): number[] {
  const order = series.map((_, i) => i);
  order.sort((a, b) => compareCodePoints(series[a].id, series[b].id));
  return order;
}

/**
 * Applies the source gates to one series at `asOf`. `observed` and `available` may be
 * passed when the caller already parsed the clocks (e.g. from `assertSeriesDomain`).
 */
export function gateSeries(
  series: GateSeries,
  asOf: Instant,
  parser: InstantParser = new InstantParser(),
  observed?: ClockColumn,
  available?: ClockColumn,
): SeriesGateResult {
  const obs = series.observations;
  const n = obs.length;
  const clocks = observed ?? parser.readClocks(obs, 'observed_at');
  const observedKeys = clocks.exact ? clocks.keys : null;
  const availability = available ?? parser.readClocks(obs, 'available_at');
  const availableKeys = availability.exact ? availability.keys : null;

  const issues: GateIssue[] = [];
  const warnings: GateWarning[] = [];
  if (series.source.rights !== 'permitted') issues.push('source_use_not_permitted_or_unknown');
  if (n === 0) issues.push('no_observations');

  let future = false;
  let notYetAvailable = false;
  let availabilityBeforeObservation = false;
  let availabilityMissing = false;
  const asOfExact = asOf <= SAFE_MICROS && asOf >= -SAFE_MICROS;
  if (observedKeys !== null && availableKeys !== null && asOfExact) {
    // Every clock is an exact double: compare numbers, not BigInts.
    const now = Number(asOf);
    for (let i = 0; i < n; i++) {
      const t = observedKeys[i];
      if (t > now) future = true;
      const available = availableKeys[i];
      if (available !== available) {
        availabilityMissing = true;
        continue;
      }
      if (available > now) notYetAvailable = true;
      if (available < t) availabilityBeforeObservation = true;
    }
  } else {
    const instants = clocks.instants() as Instant[];
    const availableInstants = availability.instants();
    for (let i = 0; i < n; i++) {
      if (instants[i] > asOf) future = true;
      const available = availableInstants[i];
      if (available === undefined) {
        availabilityMissing = true;
        continue;
      }
      if (available > asOf) notYetAvailable = true;
      if (available < instants[i]) availabilityBeforeObservation = true;
    }
  }
  if (future) issues.push('future_observation');
  if (notYetAvailable) issues.push('not_yet_available');
  if (availabilityBeforeObservation) issues.push('availability_precedes_observation');

  let ageSeconds: number | null = null;
  if (n > 0) {
    ageSeconds = secondsBetween(asOf, clocks.instant(n - 1) as Instant);
    if (ageSeconds > series.max_age_seconds) issues.push('stale_observation');
  }

  if (availabilityMissing) warnings.push('availability_history_incomplete');
  const maxGap = series.max_gap_seconds;
  if (maxGap === undefined) warnings.push('calendar_gap_policy_not_supplied');

  // Contiguous tail: restart after every missing value and at every calendar gap.
  let missingPoints = 0;
  const gapIndices: number[] = [];
  let start = 0;
  let lastNonFinite = -1;
  for (let i = 0; i < n; i++) {
    const value = obs[i].value;
    if (value === null) {
      missingPoints++;
      start = i + 1;
    } else if (!Number.isFinite(value)) {
      lastNonFinite = i;
    }
    if (i > 0 && maxGap !== undefined && stepSeconds(clocks, observedKeys, i) > maxGap) {
      start = Math.max(start, i);
      gapIndices.push(i);
    }
  }
  if (missingPoints > 0) warnings.push('missing_observations_preserved');
  if (gapIndices.length > 0) warnings.push('calendar_gaps_preserved');
  if (n > 0 && obs[n - 1].value === null) issues.push('latest_value_missing');

  let availabilityComplete = n > 0;
  if (availabilityMissing) availabilityComplete = false;

  const last = n > 0 ? obs[n - 1] : null;
  return {
    issues,
    warnings,
    observed: clocks,
    observedKeys,
    tailStart: start,
    tail: start === 0 ? obs : obs.slice(start),
    tailFinite: lastNonFinite < start,
    gapIndices,
    missingPoints,
    ageSeconds,
    observedAt: last === null ? null : last.observed_at,
    availableAt: last === null || last.available_at === undefined ? null : last.available_at,
    availabilityComplete,
  };
}

/** Seconds from point i-1 to point i, as Python's timedelta.total_seconds() gives it. */
function stepSeconds(clocks: ClockColumn, keys: Float64Array | null, i: number): number {
  if (keys !== null) {
    const diff = keys[i] - keys[i - 1];
    // Both keys are exact integers; their difference is exact below 2^53.
    if (diff <= 9007199254740992) return diff / 1e6;
  }
  return secondsBetween(clocks.instant(i) as Instant, clocks.instant(i - 1) as Instant);
}
