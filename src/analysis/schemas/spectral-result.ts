// Result body of POST /v1/spectral/assess (`noisefloor.spectral-assessment.v1`), members
// in the order the body carries them.
import { Type, type Static } from 'typebox';
import { Bool, closed, False, Int, Matrix, Num, Sha256, SeriesKind, SeriesSourceResult, Str, True, nullable, oneOf } from './results-common.js';

export const SpectralPolicyResult = closed({ window_points: Int, step_points: Int, max_windows: Int });

export const SpectralTransformSchema = oneOf(['log_return', 'identity_return', 'first_difference'] as const);

export const SpectralMeasurementCoverage = closed({
  status: oneOf(['not_supplied', 'incomplete', 'variable', 'constant_declared_count'] as const),
  declared_points: Int,
  tail_points: Int,
  minimum: nullable(Num),
  maximum: nullable(Num),
  sampling_adjustment_applied: False,
});

export const SpectralSeriesRecordSchema = closed({
  id: Str,
  kind: SeriesKind,
  unit: Str,
  source: SeriesSourceResult,
  group: Str,
  transform: SpectralTransformSchema,
  reasons: Type.Array(Str),
  warnings: Type.Array(Str),
  observed_at: nullable(Str),
  available_at: nullable(Str),
  age_seconds: nullable(Num),
  gap_indices: Type.Array(Int),
  missing_points: Int,
  availability_timestamps_complete: Bool,
  as_published_history_verified: False,
  measurement_coverage: SpectralMeasurementCoverage,
  contiguous_intervals: Int,
});

export const MarchenkoPasturReferenceSchema = closed({
  name: Type.Literal('marchenko_pastur_iid_unit_variance'),
  q: Num,
  sample_degrees_of_freedom: Int,
  lower_edge: Num,
  upper_edge: Num,
  above_upper_count: Int,
  below_lower_count: Int,
  in_band_count: Int,
  finite_sample_calibrated: False,
  p_value: Type.Null(),
  is_e_value: False,
});

export const ShrinkageCandidateSchema = closed({
  status: Type.Literal('experimental'),
  correlation: Matrix,
  method: Type.Literal('equalize_in_band_eigenvalues_then_restore_unit_diagonal'),
  low_and_high_outliers_preserved_before_diagonal_normalization: True,
  positive_definite_guaranteed: False,
  out_of_sample_validated: False,
});

export const UnresolvedWindowSchema = closed({
  window_start: Str,
  window_end: Str,
  observations: Int,
  series_ids: Type.Array(Str),
  status: Type.Literal('insufficient_visibility'),
  reasons: Type.Array(Str),
});

export const AssessedWindowSchema = closed({
  window_start: Str,
  window_end: Str,
  observations: Int,
  series_ids: Type.Array(Str),
  status: Type.Literal('assessed'),
  reasons: Type.Array(Str),
  correlation: Matrix,
  eigenvalues: Type.Array(Num),
  leading_variance_share: Num,
  participation_ratio: Num,
  effective_rank: Num,
  numerical_rank: Int,
  leading_eigengap: Num,
  leading_loadings: Type.Record(Type.String(), Num),
  lag_one_correlations: Type.Array(closed({ id: Str, correlation: nullable(Num) })),
  reference: MarchenkoPasturReferenceSchema,
  shrinkage_candidate: ShrinkageCandidateSchema,
});

export const SpectralWindowSchema = Type.Union([AssessedWindowSchema, UnresolvedWindowSchema]);

export const SpectralDynamicsSchema = closed({
  from: Str,
  to: Str,
  leading_variance_share_change: Num,
  eigenvalue_rms_change: Num,
  correlation_rms_change: Num,
  leading_vector_squared_overlap: nullable(Num),
  leading_vector_comparison: oneOf(['descriptive', 'unresolved_degenerate_mode'] as const),
  calibrated_regime_change: False,
});

export const SpectralAlignmentSchema = closed({
  method: Type.Literal('common_contiguous_interval_suffix'),
  aligned_points: Int,
  first_observation_sets_interval_start: True,
  filled_points: Type.Literal(0),
  unmatched_intervals: Type.Optional(Int),
  discarded_common_intervals: Type.Optional(Int),
});

export const SpectralStatusSchema = oneOf(['assessed', 'partial', 'insufficient_visibility'] as const);

export const SpectralResponse = closed(
  {
    schema: Type.Literal('noisefloor.spectral-assessment.v1'),
    as_of: Str,
    status: SpectralStatusSchema,
    maturity: Type.Literal('research'),
    validity: Type.Literal('descriptive'),
    guarantee: Type.Null(),
    is_e_value: False,
    policy: SpectralPolicyResult,
    series: Type.Array(SpectralSeriesRecordSchema),
    reasons: Type.Array(Str),
    windows: Type.Array(SpectralWindowSchema),
    latest: nullable(SpectralWindowSchema),
    dynamics: Type.Array(SpectralDynamicsSchema),
    alignment: SpectralAlignmentSchema,
    coverage: closed({ requested_series: Int, complete_for_supplied_series: Bool, market_universe_complete: False }),
    limits: Type.Array(Str),
    execution_authority: False,
    request_sha256: Sha256,
    policy_sha256: Sha256,
  },
  'Correlation spectrum of the aligned panel over rolling windows; research output.',
);

export type SpectralResult = Static<typeof SpectralResponse>;
