// Shapes of a spectral_assessment request and result. The HTTP layer has already checked
// the request against the operation schema; these types describe valid input only.

export type SpectralSeriesKind = 'price' | 'return' | 'level' | 'spread' | 'rate' | 'count';

export interface SpectralObservation {
  observed_at: string;
  value: number | null;
  available_at?: string;
  sample_size?: number | null;
}

export interface SpectralSource {
  id: string;
  rights: 'permitted' | 'unknown' | 'restricted';
  url?: string;
}

export interface SpectralSeries {
  id: string;
  kind: SpectralSeriesKind;
  unit: string;
  source: SpectralSource;
  max_age_seconds: number;
  max_gap_seconds?: number;
  group?: string;
  observations: SpectralObservation[];
}

export interface SpectralPolicyInput {
  window_points?: number;
  step_points?: number;
  max_windows?: number;
}

export interface SpectralRequest {
  series: SpectralSeries[];
  as_of: string;
  policy?: SpectralPolicyInput;
}

export interface SpectralPolicy {
  window_points: number;
  step_points: number;
  max_windows: number;
}

export type SpectralTransform = 'log_return' | 'identity_return' | 'first_difference';
export type CoverageStatus = 'not_supplied' | 'incomplete' | 'variable' | 'constant_declared_count';

export interface MeasurementCoverage {
  status: CoverageStatus;
  declared_points: number;
  tail_points: number;
  minimum: number | null;
  maximum: number | null;
  sampling_adjustment_applied: false;
}

export interface SpectralSeriesRecord {
  id: string;
  kind: SpectralSeriesKind;
  unit: string;
  source: SpectralSource;
  group: string;
  transform: SpectralTransform;
  reasons: string[];
  warnings: string[];
  observed_at: string | null;
  available_at: string | null;
  age_seconds: number | null;
  gap_indices: number[];
  missing_points: number;
  availability_timestamps_complete: boolean;
  as_published_history_verified: false;
  measurement_coverage: MeasurementCoverage;
  contiguous_intervals: number;
}

export interface MarchenkoPasturReference {
  name: 'marchenko_pastur_iid_unit_variance';
  q: number;
  sample_degrees_of_freedom: number;
  lower_edge: number;
  upper_edge: number;
  above_upper_count: number;
  below_lower_count: number;
  in_band_count: number;
  finite_sample_calibrated: false;
  p_value: null;
  is_e_value: false;
}

export interface ShrinkageCandidate {
  status: 'experimental';
  correlation: number[][];
  method: 'equalize_in_band_eigenvalues_then_restore_unit_diagonal';
  low_and_high_outliers_preserved_before_diagonal_normalization: true;
  positive_definite_guaranteed: false;
  out_of_sample_validated: false;
}

export interface UnresolvedWindow {
  window_start: string;
  window_end: string;
  observations: number;
  series_ids: string[];
  status: 'insufficient_visibility';
  reasons: string[];
}

export interface AssessedWindow {
  window_start: string;
  window_end: string;
  observations: number;
  series_ids: string[];
  status: 'assessed';
  reasons: string[];
  correlation: number[][];
  eigenvalues: number[];
  leading_variance_share: number;
  participation_ratio: number;
  effective_rank: number;
  numerical_rank: number;
  leading_eigengap: number;
  leading_loadings: Record<string, number>;
  lag_one_correlations: { id: string; correlation: number | null }[];
  reference: MarchenkoPasturReference;
  shrinkage_candidate: ShrinkageCandidate;
}

export type SpectralWindow = AssessedWindow | UnresolvedWindow;

export interface SpectralDynamics {
  from: string;
  to: string;
  leading_variance_share_change: number;
  eigenvalue_rms_change: number;
  correlation_rms_change: number;
  leading_vector_squared_overlap: number | null;
  leading_vector_comparison: 'descriptive' | 'unresolved_degenerate_mode';
  calibrated_regime_change: false;
}

export interface SpectralAlignment {
  method: 'common_contiguous_interval_suffix';
  aligned_points: number;
  first_observation_sets_interval_start: true;
  filled_points: 0;
  unmatched_intervals?: number;
  discarded_common_intervals?: number;
}

export type SpectralStatus = 'assessed' | 'partial' | 'insufficient_visibility';

export interface SpectralResult {
  schema: 'noisefloor.spectral-assessment.v1';
  as_of: string;
  status: SpectralStatus;
  maturity: 'research';
  validity: 'descriptive';
  guarantee: null;
  is_e_value: false;
  policy: SpectralPolicy;
  series: SpectralSeriesRecord[];
  reasons: string[];
  windows: SpectralWindow[];
  latest: SpectralWindow | null;
  dynamics: SpectralDynamics[];
  alignment: SpectralAlignment;
  coverage: { requested_series: number; complete_for_supplied_series: boolean; market_universe_complete: false };
  limits: string[];
  execution_authority: false;
  request_sha256: string;
  policy_sha256: string;
}
