// Shapes of a market_assessment request and result. The HTTP layer has already checked
// the request against the operation schema, so these types describe valid input only.

export type SeriesKind = 'price' | 'return' | 'level' | 'spread' | 'rate' | 'count';
export type SourceRights = 'permitted' | 'unknown' | 'restricted';

export interface MarketObservation {
  observed_at: string;
  value: number | null;
  available_at?: string;
  sample_size?: number | null;
}

export interface MarketSource {
  id: string;
  rights: SourceRights;
  url?: string;
}

export interface MarketSeries {
  id: string;
  kind: SeriesKind;
  unit: string;
  source: MarketSource;
  max_age_seconds: number;
  max_gap_seconds?: number;
  group?: string;
  observations: MarketObservation[];
}

export interface MarketPolicyInput {
  baseline_points?: number;
  recent_points?: number;
  move_threshold?: number;
  volatility_ratio?: number;
  coverage_drop_fraction?: number;
}

export interface MarketRequest {
  series: MarketSeries[];
  as_of: string;
  policy?: MarketPolicyInput;
}

export interface MarketPolicy {
  baseline_points: number;
  recent_points: number;
  move_threshold: number;
  volatility_ratio: number;
  coverage_drop_fraction: number;
}

export type SeriesStatus = 'review' | 'watch' | 'no_supported_departure' | 'insufficient_visibility';
export type CoverageStatus = 'not_supplied' | 'incomplete' | 'stable' | 'changed';
export type MonitorState = 'no_data' | 'warming_up' | 'steady' | 'watch' | 'changed';

export interface MeasurementCoverage {
  status: CoverageStatus;
  relative_change: number | null;
}

export interface MonitorResult {
  state: MonitorState;
  statistic: number;
  statistic_type: 'shiryaev_roberts';
  is_e_value: false;
  change_points: number[];
  guarantee: null;
}

export interface MarketDiagnostics {
  baseline_median: number;
  recent_median: number;
  median_change: number;
  latest_change: number;
  baseline_robust_spread: number;
  recent_robust_spread: number;
  robust_departure: number | null;
  latest_robust_departure: number | null;
  volatility_ratio: number | null;
  persistence_points: number;
  representation_tolerance: number;
  representation_tolerance_basis: string;
  lag_one_correlation: number | null;
  coverage: MeasurementCoverage;
  monitor: MonitorResult;
  window_start: string;
  window_end: string;
}

export interface SeriesResult {
  id: string;
  kind: SeriesKind;
  unit: string;
  source: MarketSource;
  group: string;
  status: SeriesStatus;
  reasons: string[];
  warnings: string[];
  observed_at: string | null;
  available_at: string | null;
  age_seconds: number | null;
  observation_count: number;
  contiguous_points: number;
  required_points: number;
  missing_points: number;
  gap_indices: number[];
  transform: 'log_return' | 'identity';
  analyzed_unit: string;
  diagnostics: MarketDiagnostics | null;
  priority: 2 | 1 | 0 | null;
  is_e_value: false;
  validity: 'descriptive';
  guarantee: null;
  availability_timestamps_complete: boolean;
  as_published_history_verified: false;
  analyzed_points?: number;
  reading: string;
}

export interface AttentionItem {
  id: string;
  status: 'review' | 'watch';
  reasons: string[];
  group: string;
}

export interface RelatedMovement {
  series: [string, string];
  correlation: number;
  aligned_points: number;
  independent_confirmation: false;
}

export interface MarketCoverage {
  requested_series: number;
  assessed_series: number;
  complete_for_supplied_series: boolean;
  market_universe_complete: false;
}

export interface MarketAssessment {
  schema: 'noisefloor.market-assessment.v1';
  as_of: string;
  status: 'assessed' | 'partial' | 'insufficient_visibility';
  policy: MarketPolicy;
  series: SeriesResult[];
  attention_queue: AttentionItem[];
  visibility_gaps: string[];
  related_movements: RelatedMovement[];
  coverage: MarketCoverage;
  method: string;
  limits: string[];
  execution_authority: false;
  request_sha256: string;
  policy_sha256: string;
}
