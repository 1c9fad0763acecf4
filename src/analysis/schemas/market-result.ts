// Result body of POST /v1/market/assess (`noisefloor.market-assessment.v1`), members in
// the order the body carries them.
import { Type, type Static } from 'typebox';
import { Bool, closed, False, Int, Num, Sha256, SeriesKind, SeriesSourceResult, Str, nullable, oneOf } from './results-common.js';

export const MarketPolicyResult = closed({ baseline_points: Int, recent_points: Int, move_threshold: Num, volatility_ratio: Num, coverage_drop_fraction: Num });

export const SeriesStatus = oneOf(['review', 'watch', 'no_supported_departure', 'insufficient_visibility'] as const);

export const MarketMeasurementCoverage = closed({
  status: oneOf(['not_supplied', 'incomplete', 'stable', 'changed'] as const),
  relative_change: nullable(Num),
});

export const MonitorResultSchema = closed({
  state: oneOf(['no_data', 'warming_up', 'steady', 'watch', 'changed'] as const),
  statistic: Num,
  statistic_type: Type.Literal('shiryaev_roberts'),
  is_e_value: False,
  change_points: Type.Array(Int),
  guarantee: Type.Null(),
});

export const MarketDiagnosticsSchema = closed({
  baseline_median: Num,
  recent_median: Num,
  median_change: Num,
  latest_change: Num,
  baseline_robust_spread: Num,
  recent_robust_spread: Num,
  robust_departure: nullable(Num),
  latest_robust_departure: nullable(Num),
  volatility_ratio: nullable(Num),
  persistence_points: Int,
  representation_tolerance: Num,
  representation_tolerance_basis: Str,
  lag_one_correlation: nullable(Num),
  coverage: MarketMeasurementCoverage,
  monitor: MonitorResultSchema,
  window_start: Str,
  window_end: Str,
});

export const MarketSeriesResult = closed({
  id: Str,
  kind: SeriesKind,
  unit: Str,
  source: SeriesSourceResult,
  group: Str,
  status: SeriesStatus,
  reasons: Type.Array(Str),
  warnings: Type.Array(Str),
  observed_at: nullable(Str),
  available_at: nullable(Str),
  age_seconds: nullable(Num),
  observation_count: Int,
  contiguous_points: Int,
  required_points: Int,
  missing_points: Int,
  gap_indices: Type.Array(Int),
  transform: oneOf(['log_return', 'identity'] as const),
  analyzed_unit: Str,
  diagnostics: nullable(MarketDiagnosticsSchema),
  priority: Type.Union([Type.Literal(2), Type.Literal(1), Type.Literal(0), Type.Null()]),
  is_e_value: False,
  validity: Type.Literal('descriptive'),
  guarantee: Type.Null(),
  availability_timestamps_complete: Bool,
  as_published_history_verified: False,
  analyzed_points: Type.Optional(Int),
  reading: Str,
});

export const AttentionItemSchema = closed({ id: Str, status: oneOf(['review', 'watch'] as const), reasons: Type.Array(Str), group: Str });

export const RelatedMovementSchema = closed({
  series: Type.Array(Str, { minItems: 2, maxItems: 2 }),
  correlation: Num,
  aligned_points: Int,
  independent_confirmation: False,
});

export const MarketCoverageSchema = closed({ requested_series: Int, assessed_series: Int, complete_for_supplied_series: Bool, market_universe_complete: False });

export const MarketResponse = closed(
  {
    schema: Type.Literal('noisefloor.market-assessment.v1'),
    as_of: Str,
    status: oneOf(['assessed', 'partial', 'insufficient_visibility'] as const),
    policy: MarketPolicyResult,
    series: Type.Array(MarketSeriesResult),
    attention_queue: Type.Array(AttentionItemSchema),
    visibility_gaps: Type.Array(Str),
    related_movements: Type.Array(RelatedMovementSchema),
    coverage: MarketCoverageSchema,
    method: Str,
    limits: Type.Array(Str),
    execution_authority: False,
    request_sha256: Sha256,
    policy_sha256: Sha256,
  },
  'Descriptive per-series review at the stated clock, in input order.',
);

export type MarketAssessment = Static<typeof MarketResponse>;
