// market_assessment: source-gated, descriptive screening of caller-supplied market series.
//
// Pure function of the request. Each series passes the shared source gates, is cut to its
// newest unbroken run of points, is transformed (prices to log returns, everything else
// as supplied) and, given enough points, gets robust diagnostics over its final window.
// Across series, strongly co-moving windows are listed as related movements.
import { AppError, isAppError } from '../core/errors.js';
import { compareCodePoints } from '../core/strings.js';
import type { Instant } from '../core/time.js';
import { AnalysisErrors } from './errors.js';
import {
  assertSeriesDomain,
  assertUniqueSeriesIds,
  type ClockColumn,
  gateSeries,
  InstantParser,
  type SeriesGateResult,
} from './gates.js';
import { measurementCoverage } from './market/coverage.js';
import { withSeriesDigests } from './series-digests.js';
import { analyseWindow } from './market/diagnostics.js';
import { markFloats } from './market/numbers.js';
import { applyMarketPolicy } from './market/policy.js';
import { type AlignedWindow, relatedMovements } from './market/related.js';
import {
  insufficientReading,
  MARKET_LIMITS,
  MARKET_METHOD,
  MARKET_SCHEMA,
  READING_NONE,
  READING_REVIEW,
  READING_WATCH,
} from './market/text.js';
import { logReturnWindow } from './market/transform.js';
import { pyFloatOf } from './numeric/py-number.js';
import type {
  AttentionItem,
  MarketAssessment,
  MarketPolicy,
  MarketRequest,
  MarketSeries,
  SeriesResult,
} from './market/types.js';

export type * from './market/types.js';

const READINGS = {
  review: READING_REVIEW,
  watch: READING_WATCH,
  no_supported_departure: READING_NONE,
} as const;

interface SeriesOutcome {
  result: SeriesResult;
  window: AlignedWindow | null;
}

export function assessMarket(request: MarketRequest): MarketAssessment {
  return withSeriesDigests(request, computeMarketBody(request));
}

/** The assessment without its two digests (which `assessMarket` appends). */
export type MarketBody = Omit<MarketAssessment, 'request_sha256' | 'policy_sha256'>;

/**
 * Everything `assessMarket` reports except `request_sha256` and `policy_sha256`.
 * Separate so the (request-size bound) digest cost can be measured and reasoned about
 * apart from the analysis itself.
 */
export function computeMarketBody(request: MarketRequest): MarketBody {
  const policy = applyMarketPolicy(request.policy);
  const parser = new InstantParser();
  const asOf = parser.parse(request.as_of, '/as_of');
  const series = request.series;

  // Domain errors, in the documented order: ids first, then each series in input order.
  assertUniqueSeriesIds(series);
  const observed = new Array<ClockColumn>(series.length);
  for (let i = 0; i < series.length; i++) observed[i] = checkSeriesDomain(series[i], i, parser);

  const outcomes = series.map((s, i) => assessSeries(s, gateSeries(s, asOf, parser, observed[i]), policy));
  const results = outcomes.map((o) => o.result);

  const visibilityGaps: string[] = [];
  const queue: (AttentionItem & { priority: number })[] = [];
  for (const r of results) {
    if (r.status === 'insufficient_visibility') visibilityGaps.push(r.id);
    else if (r.status === 'review' || r.status === 'watch') {
      queue.push({ id: r.id, status: r.status, reasons: [...r.reasons], group: r.group, priority: r.priority ?? 0 });
    }
  }
  queue.sort((a, b) => b.priority - a.priority || compareCodePoints(a.id, b.id));
  const attentionQueue: AttentionItem[] = queue.map(({ id, status, reasons, group }) => ({ id, status, reasons, group }));

  const windows: AlignedWindow[] = [];
  for (const o of outcomes) if (o.window !== null) windows.push(o.window);

  const assessed = results.length - visibilityGaps.length;
  const status =
    results.length === 0 || assessed === 0 ? 'insufficient_visibility' : visibilityGaps.length > 0 ? 'partial' : 'assessed';

  return {
    schema: MARKET_SCHEMA,
    as_of: request.as_of,
    status,
    policy,
    series: results,
    attention_queue: attentionQueue,
    visibility_gaps: visibilityGaps,
    related_movements: relatedMovements(windows),
    coverage: {
      requested_series: results.length,
      assessed_series: assessed,
      complete_for_supplied_series: results.length > 0 && visibilityGaps.length === 0,
      market_universe_complete: false,
    },
    method: MARKET_METHOD,
    limits: [...MARKET_LIMITS],
    execution_authority: false,
  };
}

/**
 * The shared domain checks, with the market's wording: clients of the reference match on
 * "increasing", "strictly positive" and "negative" in these messages.
 */
function checkSeriesDomain(series: MarketSeries, index: number, parser: InstantParser): ClockColumn {
  try {
    return assertSeriesDomain(series, index, parser);
  } catch (error) {
    if (!isAppError(error)) throw error;
    const options = { path: error.path, cause: error };
    switch (error.code) {
      case AnalysisErrors.non_increasing_timestamps.code:
        throw new AppError(
          AnalysisErrors.non_increasing_timestamps,
          `${series.id}: observation timestamps must be unique and strictly increasing`,
          options,
        );
      case AnalysisErrors.non_positive_price.code:
        throw new AppError(AnalysisErrors.non_positive_price, `${series.id}: every price must be strictly positive`, options);
      case AnalysisErrors.negative_count.code:
        throw new AppError(AnalysisErrors.negative_count, `${series.id}: counts must not be negative`, options);
      default:
        throw error;
    }
  }
}

function assessSeries(series: MarketSeries, gate: SeriesGateResult, policy: MarketPolicy): SeriesOutcome {
  const b = policy.baseline_points;
  const r = policy.recent_points;
  const need = b + r;
  const isPrice = series.kind === 'price';
  const tail = gate.tail;
  const m = tail.length;
  const contiguous = isPrice ? Math.max(0, m - 1) : m;

  const issues: string[] = [...gate.issues];
  if (contiguous < need) issues.push('insufficient_contiguous_history');
  const warnings = gate.warnings;

  if (issues.length > 0) {
    const result = seriesResult(series, gate, policy, contiguous, {
      status: 'insufficient_visibility',
      reasons: issues,
      warnings,
      diagnostics: null,
      priority: null,
      reading: insufficientReading(issues),
    });
    return { result, window: null };
  }

  // The window is the last `need` derived points; for prices the k-th return is labelled
  // by the later of its two points, so in both cases the window sits on tail[m-need:].
  const first = m - need;
  const values = new Float64Array(need);
  let precision = 0;
  if (isPrice) {
    precision = logReturnWindow(tail, first, need, values);
  } else {
    for (let i = 0; i < need; i++) {
      const v = tail[first + i].value as number;
      // The int token -0 is the int 0, which the reference reports as 0.0.
      values[i] = v === 0 ? pyFloatOf(tail[first + i], 'value') : v;
    }
  }

  const coverage = measurementCoverage(tail, first, b, r, policy.coverage_drop_fraction);
  if (coverage.warning !== null) warnings.push(coverage.warning);

  const analysis = analyseWindow({
    values,
    precision,
    policy,
    coverage,
    windowStart: tail[first].observed_at,
    windowEnd: tail[m - 1].observed_at,
  });

  const result = seriesResult(series, gate, policy, contiguous, {
    status: analysis.status,
    reasons: analysis.reasons,
    warnings,
    diagnostics: analysis.diagnostics,
    priority: analysis.priority,
    analyzedPoints: need,
    reading: READINGS[analysis.status],
  });
  return { result, window: alignedWindow(series.id, gate, first, analysis.monitorValues) };
}

interface Verdict {
  status: SeriesResult['status'];
  reasons: string[];
  warnings: string[];
  diagnostics: SeriesResult['diagnostics'];
  priority: SeriesResult['priority'];
  /** Present only for assessed series. */
  analyzedPoints?: number;
  reading: string;
}

/** One per-series result with its members in the published order. */
function seriesResult(
  series: MarketSeries,
  gate: SeriesGateResult,
  policy: MarketPolicy,
  contiguous: number,
  verdict: Verdict,
): SeriesResult {
  const isPrice = series.kind === 'price';
  const result: SeriesResult = {
    id: series.id,
    kind: series.kind,
    unit: series.unit,
    source: { ...series.source },
    group: series.group ?? series.id,
    status: verdict.status,
    reasons: verdict.reasons,
    warnings: verdict.warnings,
    observed_at: gate.observedAt,
    available_at: gate.availableAt,
    age_seconds: gate.ageSeconds,
    observation_count: series.observations.length,
    contiguous_points: contiguous,
    required_points: policy.baseline_points + policy.recent_points,
    missing_points: gate.missingPoints,
    gap_indices: gate.gapIndices,
    transform: isPrice ? 'log_return' : 'identity',
    analyzed_unit: isPrice ? 'log_return' : series.unit,
    diagnostics: verdict.diagnostics,
    priority: verdict.priority,
    is_e_value: false,
    validity: 'descriptive',
    guarantee: null,
    availability_timestamps_complete: gate.availabilityComplete,
    as_published_history_verified: false,
  } as SeriesResult;
  if (verdict.analyzedPoints !== undefined) result.analyzed_points = verdict.analyzedPoints;
  result.reading = verdict.reading;
  markFloats(result, 'age_seconds');
  return result;
}

function alignedWindow(id: string, gate: SeriesGateResult, first: number, values: Float64Array): AlignedWindow {
  const offset = gate.tailStart + first;
  const n = values.length;
  if (gate.observedKeys !== null) return { id, instants: null, keys: gate.observedKeys.slice(offset, offset + n), values };
  const instants = (gate.observed.instants() as Instant[]).slice(offset, offset + n);
  const keys = new Float64Array(n);
  for (let i = 0; i < n; i++) keys[i] = Number(instants[i]);
  return { id, instants, keys, values };
}

