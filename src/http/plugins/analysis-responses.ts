// Typed 200 bodies of the analysis operations, for the OpenAPI document only. Responses are
// encoded by the route (Python-compatible number formatting), never re-serialised from
// these schemas, so they describe rather than constrain.
import { Type, type TSchema } from 'typebox';

const Str = Type.String();
const Num = Type.Number();
const Int = Type.Integer();
const Bool = Type.Boolean();
const Sha = Type.String({ pattern: '^[0-9a-f]{64}$', description: 'Lower-case hex SHA-256.' });
const nullable = (schema: TSchema) => Type.Union([schema, Type.Null()]);
const False = Type.Literal(false);
const oneOf = (...values: string[]) => Type.Union(values.map((v) => Type.Literal(v)));

const SeriesSource = Type.Object({ id: Str, rights: oneOf('permitted', 'unknown', 'restricted'), url: Type.Optional(Str) });

const MarketSeriesResult = Type.Object({
  id: Str,
  kind: oneOf('price', 'return', 'level', 'spread', 'rate', 'count'),
  unit: Str,
  source: SeriesSource,
  group: Str,
  status: oneOf('review', 'watch', 'no_supported_departure', 'insufficient_visibility'),
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
  transform: oneOf('log_return', 'identity'),
  analyzed_unit: Str,
  diagnostics: nullable(
    Type.Object({
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
      coverage: Type.Object({ status: oneOf('not_supplied', 'incomplete', 'stable', 'changed'), relative_change: nullable(Num) }),
      monitor: Type.Object({
        state: oneOf('no_data', 'warming_up', 'steady', 'watch', 'changed'),
        statistic: Num,
        statistic_type: Type.Literal('shiryaev_roberts'),
        is_e_value: False,
        change_points: Type.Array(Int),
        guarantee: Type.Null(),
      }),
      window_start: Str,
      window_end: Str,
    }),
  ),
  priority: nullable(Int),
  is_e_value: False,
  validity: Type.Literal('descriptive'),
  guarantee: Type.Null(),
  availability_timestamps_complete: Bool,
  as_published_history_verified: False,
  analyzed_points: Type.Optional(Int),
  reading: Str,
});

export const MarketResponse = Type.Object(
  {
    schema: Type.Literal('noisefloor.market-assessment.v1'),
    as_of: Str,
    status: oneOf('assessed', 'partial', 'insufficient_visibility'),
    policy: Type.Object({ baseline_points: Int, recent_points: Int, move_threshold: Num, volatility_ratio: Num, coverage_drop_fraction: Num }),
    series: Type.Array(MarketSeriesResult),
    attention_queue: Type.Array(Type.Object({ id: Str, status: oneOf('review', 'watch'), reasons: Type.Array(Str), group: Str })),
    visibility_gaps: Type.Array(Str),
    related_movements: Type.Array(
      Type.Object({ series: Type.Array(Str, { minItems: 2, maxItems: 2 }), correlation: Num, aligned_points: Int, independent_confirmation: False }),
    ),
    coverage: Type.Object({ requested_series: Int, assessed_series: Int, complete_for_supplied_series: Bool, market_universe_complete: False }),
    method: Str,
    limits: Type.Array(Str),
    execution_authority: False,
    request_sha256: Sha,
    policy_sha256: Sha,
  },
  { description: 'Descriptive per-series review at the stated clock, in input order.' },
);

const NarrativeSource = Type.Object({ id: Str, kind: oneOf('primary', 'reporting', 'commentary'), url: Type.Optional(Str), family: Type.Optional(Str) });

const ClusterSummary = Type.Object({
  cluster_id: Str,
  representative_id: Str,
  title: Str,
  entities: Type.Array(Str),
  published_at: Str,
  source: NarrativeSource,
  member_ids: Type.Array(Str),
  report_count: Int,
  declared_source_families: Type.Array(Str),
  independence_verified: False,
  truth_assessed: False,
  impact_assessed: False,
  relevance: oneOf('unmapped', 'matches_focus', 'not_filtered'),
  event_keys: Type.Array(Str),
});

export const NarrativeResponse = Type.Object(
  {
    schema: Type.Literal('noisefloor.narrative-triage.v1'),
    as_of: Str,
    focus: Type.Array(Str),
    status: oneOf('triaged', 'insufficient_visibility'),
    policy: Type.Object({ max_age_seconds: Num, max_items: Int, similarity_threshold: Num }),
    attention_queue: Type.Array(ClusterSummary),
    clusters: Type.Array(ClusterSummary),
    events: Type.Array(
      Type.Object({
        id: Str,
        status: oneOf('representative', 'repeated_wording', 'unmapped_entity', 'stale', 'not_yet_available', 'outside_focus'),
        cluster_id: nullable(Str),
        published_at: Str,
        available_at: nullable(Str),
        source: NarrativeSource,
        entities: Type.Array(Str),
        title: Str,
      }),
    ),
    conflict_candidates: Type.Array(Type.Object({ event_key: Str, cluster_ids: Type.Array(Str), reason: Str })),
    deferred_cluster_ids: Type.Array(Str),
    counts: Type.Object({
      supplied: Int,
      eligible_for_triage: Int,
      distinct_wording_clusters: Int,
      repeated_wording: Int,
      queued: Int,
      deferred: Int,
    }),
    limits: Type.Array(Str),
    source_universe_complete: False,
    execution_authority: False,
    request_sha256: Sha,
    policy_sha256: Sha,
  },
  { description: 'Wording clusters ranked for review; every supplied event is listed once.' },
);

const Matrix = Type.Array(Type.Array(Num));

const SpectralWindow = Type.Object({
  window_start: Str,
  window_end: Str,
  observations: Int,
  series_ids: Type.Array(Str),
  status: oneOf('assessed', 'insufficient_visibility'),
  reasons: Type.Array(Str),
  correlation: Type.Optional(Matrix),
  eigenvalues: Type.Optional(Type.Array(Num)),
  leading_variance_share: Type.Optional(Num),
  participation_ratio: Type.Optional(Num),
  effective_rank: Type.Optional(Num),
  numerical_rank: Type.Optional(Int),
  leading_eigengap: Type.Optional(Num),
  leading_loadings: Type.Optional(Type.Record(Type.String(), Num)),
  lag_one_correlations: Type.Optional(Type.Array(Type.Object({ id: Str, correlation: nullable(Num) }))),
  reference: Type.Optional(
    Type.Object({
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
    }),
  ),
  shrinkage_candidate: Type.Optional(
    Type.Object({
      status: Type.Literal('experimental'),
      correlation: Matrix,
      method: Type.Literal('equalize_in_band_eigenvalues_then_restore_unit_diagonal'),
      low_and_high_outliers_preserved_before_diagonal_normalization: Type.Literal(true),
      positive_definite_guaranteed: False,
      out_of_sample_validated: False,
    }),
  ),
});

export const SpectralResponse = Type.Object(
  {
    schema: Type.Literal('noisefloor.spectral-assessment.v1'),
    as_of: Str,
    status: oneOf('assessed', 'partial', 'insufficient_visibility'),
    maturity: Type.Literal('research'),
    validity: Type.Literal('descriptive'),
    guarantee: Type.Null(),
    is_e_value: False,
    policy: Type.Object({ window_points: Int, step_points: Int, max_windows: Int }),
    series: Type.Array(
      Type.Object({
        id: Str,
        kind: oneOf('price', 'return', 'level', 'spread', 'rate', 'count'),
        unit: Str,
        source: SeriesSource,
        group: Str,
        transform: oneOf('log_return', 'identity_return', 'first_difference'),
        reasons: Type.Array(Str),
        warnings: Type.Array(Str),
        observed_at: nullable(Str),
        available_at: nullable(Str),
        age_seconds: nullable(Num),
        gap_indices: Type.Array(Int),
        missing_points: Int,
        availability_timestamps_complete: Bool,
        as_published_history_verified: False,
        measurement_coverage: Type.Object({
          status: oneOf('not_supplied', 'incomplete', 'variable', 'constant_declared_count'),
          declared_points: Int,
          tail_points: Int,
          minimum: nullable(Num),
          maximum: nullable(Num),
          sampling_adjustment_applied: False,
        }),
        contiguous_intervals: Int,
      }),
    ),
    reasons: Type.Array(Str),
    windows: Type.Array(SpectralWindow),
    latest: nullable(SpectralWindow),
    dynamics: Type.Array(
      Type.Object({
        from: Str,
        to: Str,
        leading_variance_share_change: Num,
        eigenvalue_rms_change: Num,
        correlation_rms_change: Num,
        leading_vector_squared_overlap: nullable(Num),
        leading_vector_comparison: oneOf('descriptive', 'unresolved_degenerate_mode'),
        calibrated_regime_change: False,
      }),
    ),
    alignment: Type.Object({
      method: Type.Literal('common_contiguous_interval_suffix'),
      aligned_points: Int,
      first_observation_sets_interval_start: Type.Literal(true),
      filled_points: Type.Literal(0),
      unmatched_intervals: Type.Optional(Int),
      discarded_common_intervals: Type.Optional(Int),
    }),
    coverage: Type.Object({ requested_series: Int, complete_for_supplied_series: Bool, market_universe_complete: False }),
    limits: Type.Array(Str),
    execution_authority: False,
    request_sha256: Sha,
    policy_sha256: Sha,
  },
  { description: 'Correlation spectrum of the aligned panel over rolling windows; research output.' },
);

export const DysonResponse = Type.Object(
  {
    schema: Type.Literal('noisefloor.dyson-reference.v1'),
    status: Type.Literal('synthetic'),
    maturity: Type.Literal('research'),
    validity: Type.Literal('synthetic_reference'),
    guarantee: Type.Null(),
    parameters: Type.Object({ dimension: Int, steps: Int, dt: Num, seed: Int }),
    beta: Type.Literal(1),
    path: Type.Array(Type.Object({ time: Num, eigenvalues: Type.Array(Num) })),
    initial_condition: Type.Literal('zero_matrix'),
    mean_reversion: False,
    normalization: Str,
    market_calibrated: False,
    is_covariance_model: False,
    execution_authority: False,
    request_sha256: Sha,
    limits: Type.Array(Str),
  },
  { description: 'Seeded synthetic eigenvalue path; not market evidence.' },
);

const ToolDescriptor = Type.Object({ name: Str, description: Str, input_schema: Type.Object({}, { additionalProperties: true }) });

export const CapabilitiesResponse = Type.Object({
  schema_version: Type.Literal('noisefloor.capabilities.v1'),
  name: Type.Literal('noisefloor'),
  version: Str,
  implementation_sha256: Sha,
  transports: Type.Array(Str),
  tools: Type.Array(ToolDescriptor),
  rest: Type.Record(Type.String(), Str),
  openapi: Str,
  limits: Type.Record(Type.String(), Int),
  posture: Type.Object({
    offline_computation: Bool,
    fetches_sources: Bool,
    executes_trades: Bool,
    persists_submitted_data: Bool,
    market_assessment: Str,
    narrative_triage: Str,
    spectral_assessment: Str,
    dyson_reference: Str,
  }),
  defaults: Type.Record(Type.String(), Type.Record(Type.String(), Num)),
});

export const AnalysisErrorResponse = Type.Object({
  error: Type.String({ description: 'What is wrong, starting with the dotted input path when a field is at fault.' }),
  code: Type.String({ description: 'Stable machine-readable error code.' }),
  path: Type.Optional(Type.String({ description: 'JSON pointer to the field at fault.' })),
});
