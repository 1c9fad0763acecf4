// spectral_assessment: correlation-eigenvalue diagnostics of an aligned panel of series,
// over rolling windows, with an idealised iid reference band. Research output only.
//
// The panel is all-or-nothing: a member that fails a source gate, or lacks contiguous
// intervals, blocks the assessment rather than being dropped, and members only align on
// intervals they all observed (no filling, no pairwise deletion).
import { copyMember, cloneJson, markFloat } from '../core/json.js';
import { type Instant, formatInstantZ } from '../core/time.js';
import { withSeriesDigests } from './series-digests.js';
import { InstantParser, type ObservationClocks, type SeriesGateResult, assertSeriesDomain, assertUniqueSeriesIds, gateSeries, idOrder } from './gates.js';
import { alignIntervals, comparableKeys } from './spectral/alignment.js';
import { coverageNeedsReview, measurementCoverage } from './spectral/coverage.js';
import { windowDynamics } from './spectral/dynamics.js';
import { withNumericErrors } from './spectral/numbers.js';
import { FloatArena } from './numeric/float-arena.js';
import { SPECTRAL_LIMITS } from './spectral/text.js';
import { type SeriesIntervals, deferredIntervals, fillLogReturns, roundIntervals, transformName } from './spectral/transform.js';
import type {
  SpectralAlignment,
  SpectralDynamics,
  SpectralPolicy,
  SpectralRequest,
  SpectralResult,
  SpectralSeries,
  SpectralSeriesRecord,
  SpectralStatus,
  SpectralWindow,
} from './spectral/types.js';
import { type AlignedPanel, type WindowSpectrum, assessWindow } from './spectral/window.js';

export type * from './spectral/types.js';

export const SPECTRAL_SCHEMA = 'noisefloor.spectral-assessment.v1';

export const SPECTRAL_DEFAULT_POLICY: Readonly<SpectralPolicy> = Object.freeze({
  window_points: 60,
  step_points: 20,
  max_windows: 4,
});

/** Panel-level reasons, in the order they are reported. */
export type SpectralPanelReason =
  | 'at_least_two_series_required'
  | 'window_must_exceed_series_count_for_reference'
  | 'one_or_more_series_ineligible'
  | 'insufficient_contiguous_intervals'
  | 'insufficient_aligned_contiguous_history'
  | 'one_or_more_windows_unresolved';

/** Defaults overlaid by the caller's policy members, each keeping its number kind. */
export function applySpectralPolicy(policy: SpectralRequest['policy']): SpectralPolicy {
  const applied = { ...SPECTRAL_DEFAULT_POLICY };
  if (policy) {
    for (const key of Object.keys(policy)) copyMember(applied, key, policy, key);
  }
  return applied;
}

interface Member {
  series: SpectralSeries;
  gate: SeriesGateResult;
  intervals: SeriesIntervals;
  record: SpectralSeriesRecord;
}

/**
 * Runs the assessment. `request` has passed the operation schema. `rawRequest` is the
 * parsed body as received, for `request_sha256`; it defaults to `request`.
 */
export function assessSpectral(request: SpectralRequest, rawRequest?: unknown): SpectralResult {
  const raw = (rawRequest ?? request) as { series: unknown; as_of: unknown; policy?: unknown };
  return withSeriesDigests(raw, computeSpectralBody(request));
}

/** The result without its two digests (which `assessSpectral` appends). */
export type SpectralBody = Omit<SpectralResult, 'request_sha256' | 'policy_sha256'>;

/**
 * Everything `assessSpectral` reports except `request_sha256` and `policy_sha256`.
 * Separate so the (request-size bound) digest cost can be measured and reasoned about
 * apart from the analysis itself.
 */
export function computeSpectralBody(request: SpectralRequest): SpectralBody {
  return withNumericErrors(() => assess(request));
}

function assess(request: SpectralRequest): SpectralBody {
  const parser = new InstantParser();
  const asOf = parser.parse(request.as_of, '/as_of');
  const input = request.series;
  assertUniqueSeriesIds(input);
  const order = idOrder(input);
  // Domain errors surface in id order, all of them before any transform runs.
  const clocks = new Map<number, ObservationClocks>();
  for (const index of order) {
    const read = parser.readObservationClocks(input[index].observations, `/series/${index}/observations`);
    assertSeriesDomain(input[index], index, parser, read.observed);
    clocks.set(index, read);
  }

  const policy = applySpectralPolicy(request.policy);
  const arena = new FloatArena();
  const members: Member[] = order.map((index) => buildMember(input[index], asOf, parser, clocks.get(index) as ObservationClocks, arena));
  const n = members.length;

  const alignment: SpectralAlignment = {
    method: 'common_contiguous_interval_suffix',
    aligned_points: 0,
    first_observation_sets_interval_start: true,
    filled_points: 0,
  };
  const reasons: SpectralPanelReason[] = [];
  if (n < 2) reasons.push('at_least_two_series_required');
  if (policy.window_points <= n) reasons.push('window_must_exceed_series_count_for_reference');
  if (members.some((m) => m.gate.issues.length > 0)) reasons.push('one_or_more_series_ineligible');
  if (members.some((m) => m.intervals.count === 0)) reasons.push('insufficient_contiguous_intervals');
  if (reasons.length > 0) return finish(request, policy, members, 'insufficient_visibility', reasons, [], [], alignment);

  const keys = tailKeys(members);
  const aligned = alignIntervals({ keys });
  alignment.aligned_points = aligned.alignedPoints;
  alignment.unmatched_intervals = aligned.unmatchedIntervals;
  alignment.discarded_common_intervals = aligned.discardedCommonIntervals;
  const length = policy.window_points;
  const total = aligned.alignedPoints;
  if (total < length) {
    reasons.push('insufficient_aligned_contiguous_history');
    return finish(request, policy, members, 'insufficient_visibility', reasons, [], [], alignment);
  }

  const panel: AlignedPanel = {
    ids: members.map((m) => m.series.id),
    values: members.map((m, s) => m.intervals.values.subarray(aligned.offsets[s], aligned.offsets[s] + total)),
    tolerances: members.map((m, s) =>
      m.intervals.tolerances === null ? null : m.intervals.tolerances.subarray(aligned.offsets[s], aligned.offsets[s] + total),
    ),
  };
  // Aligned interval t runs from clock(t) to clock(t + 1) of the first member's tail.
  const first = members[0];
  const clockBase = first.gate.tailStart + aligned.offsets[0];
  const clock = (t: number): string => formatInstantZ(first.gate.observed.instant(clockBase + t) as Instant);

  const ends: number[] = [];
  for (let i = 0; i < policy.max_windows; i++) {
    const end = total - i * policy.step_points;
    if (end >= length) ends.push(end);
  }
  ends.sort((a, b) => a - b);
  // Only the intervals some window reads are computed (prices) and rounded to 15 digits.
  const read = ends[0] - length;
  members.forEach((m, s) => {
    if (m.intervals.tolerances !== null) fillLogReturns(m.intervals, m.gate.tail, aligned.offsets[s] + read);
  });
  for (const column of panel.values) roundIntervals(column, read, total);

  const scratch = new Float64Array(n * length);
  const windows: SpectralWindow[] = [];
  const spectra: (WindowSpectrum | null)[] = [];
  for (const end of ends) {
    const outcome = assessWindow(panel, end, length, { start: clock(end - length), end: clock(end) }, scratch);
    windows.push(outcome.window);
    spectra.push(outcome.spectrum);
  }

  const dynamics: SpectralDynamics[] = [];
  for (let w = 1; w < windows.length; w++) {
    const prev = spectra[w - 1];
    const cur = spectra[w];
    if (prev !== null && cur !== null) dynamics.push(windowDynamics(windows[w - 1].window_end, windows[w].window_end, prev, cur));
  }

  const allAssessed = spectra.every((s) => s !== null);
  let status: SpectralStatus;
  if (allAssessed) status = 'assessed';
  else if (spectra[spectra.length - 1] !== null) status = 'partial';
  else status = 'insufficient_visibility';
  if (!allAssessed) reasons.push('one_or_more_windows_unresolved');
  return finish(request, policy, members, status, reasons, windows, dynamics, alignment);
}

function buildMember(series: SpectralSeries, asOf: Instant, parser: InstantParser, clocks: ObservationClocks, arena: FloatArena): Member {
  const gate = gateSeries(series, asOf, parser, clocks.observed, clocks.availability());
  const eligible = gate.issues.length === 0;
  const intervals: SeriesIntervals = eligible
    ? deferredIntervals(series.kind, gate.tail, { finite: gate.tailFinite, arena })
    : { count: 0, values: new Float64Array(0), tolerances: null };
  const coverage = measurementCoverage(gate.tail);
  const warnings = [...gate.warnings];
  if (coverageNeedsReview(coverage)) warnings.push('review_measurement_coverage');
  const record: SpectralSeriesRecord = {
    id: series.id,
    kind: series.kind,
    unit: series.unit,
    source: cloneJson(series.source),
    group: series.group ?? series.id,
    transform: transformName(series.kind),
    reasons: [...gate.issues],
    warnings,
    observed_at: gate.observedAt,
    available_at: gate.availableAt,
    age_seconds: gate.ageSeconds,
    gap_indices: gate.gapIndices,
    missing_points: gate.missingPoints,
    availability_timestamps_complete: gate.availabilityComplete,
    as_published_history_verified: false,
    measurement_coverage: coverage,
    contiguous_intervals: intervals.count,
  };
  if (record.age_seconds !== null) markFloat(record, 'age_seconds');
  return { series, gate, intervals, record };
}

/** Exact comparable keys of every member's tail clocks (see comparableKeys). */
function tailKeys(members: Member[]): Float64Array[] {
  if (members.every((m) => m.gate.observedKeys !== null)) {
    return members.map((m) => (m.gate.observedKeys as Float64Array).subarray(m.gate.tailStart));
  }
  return comparableKeys(members.map((m) => (m.gate.observed.instants() as Instant[]).slice(m.gate.tailStart)));
}

function finish(
  request: SpectralRequest,
  policy: SpectralPolicy,
  members: Member[],
  status: SpectralStatus,
  reasons: SpectralPanelReason[],
  windows: SpectralWindow[],
  dynamics: SpectralDynamics[],
  alignment: SpectralAlignment,
): SpectralBody {
  return {
    schema: SPECTRAL_SCHEMA,
    as_of: request.as_of,
    status,
    maturity: 'research',
    validity: 'descriptive',
    guarantee: null,
    is_e_value: false,
    policy,
    series: members.map((m) => m.record),
    reasons,
    windows,
    latest: windows.length > 0 ? windows[windows.length - 1] : null,
    dynamics,
    alignment,
    coverage: {
      requested_series: members.length,
      // Nothing counts as complete when no window could be formed at all.
      complete_for_supplied_series: windows.length > 0 && windows.every((w) => w.status === 'assessed'),
      market_universe_complete: false,
    },
    limits: [...SPECTRAL_LIMITS],
    execution_authority: false,
  };
}

