// Result bodies of the six statistical tools (POST /v1/tools/<name>, MCP structuredContent),
// members in the order the bodies carry them. The tools build their results with PyRecord
// (number kinds, caller-named members); these schemas document and check them.
import { Type } from 'typebox';
import { Bool, closed, False, Int, nullable, Num, oneOf, Str, True } from './results-common.js';

const Prose = Str;
const ProseList = Type.Array(Str);
const Interval = Type.Array(Num, { minItems: 2, maxItems: 2, description: '[lower, upper]' });

const AbTestArm = closed(
  { successes: Int, n: Int, rate: nullable(Num), interval: Interval },
  'One arm, under the label the caller chose (default "A" and "B").',
);

/**
 * The two arms appear under their labels, after `alpha`; labels can never be one of the
 * listed members, so every member not listed is an arm.
 */
export const AbTestResponse = Type.Object(
  {
    decided: Bool,
    winner: nullable(Str),
    reading: Prose,
    alpha: Num,
    safe_to_peek: True,
    validity: Type.Literal('conditional_on_bernoulli_model'),
    guarantee: Prose,
    assumptions: ProseList,
    method: Prose,
    observed_difference_pp: Type.Optional(Num),
    what_would_decide_it: Type.Optional(Prose),
  },
  {
    additionalProperties: AbTestArm,
    minProperties: 11,
    maxProperties: 13,
    description: 'Anytime-valid comparison of two Bernoulli arms; the arms are keyed by their labels.',
  },
);

const Direction = oneOf(['up', 'down'] as const);

export const DidItChangeResponse = closed(
  {
    n: Int,
    state: oneOf(['warming_up', 'steady', 'watch', 'changed'] as const),
    evidence: Num,
    monitoring_statistic: Num,
    statistic_type: Type.Literal('shiryaev_roberts'),
    is_e_value: False,
    validity: Type.Literal('descriptive'),
    weighted: Bool,
    assumptions: ProseList,
    direction: nullable(Direction),
    effect: closed({ direction: oneOf(['up', 'down', 'flat'] as const), delta: nullable(Num), robust_z: nullable(Num), percentile: nullable(Num) }),
    effect_reference_size: Int,
    change_points: Type.Array(Int),
    watch_at: Num,
    changed_at: Num,
    readings_since_change: nullable(Int),
    reading: Prose,
    guarantee: Type.Null(),
    interpretation: Prose,
    method: Prose,
  },
  'Descriptive rank-based change monitoring of one series; the statistic is not an e-value.',
);

export const RealOrSamplingResponse = closed(
  {
    n_pairs: Int,
    validity: Type.Literal('descriptive'),
    guarantee: Type.Null(),
    is_causal: False,
    method: Prose,
    caveats: ProseList,
    metric_now: Type.Optional(Num),
    sample_size_now: Type.Optional(Num),
    metric_departure: Type.Optional(nullable(Num)),
    metric_delta: Type.Optional(Num),
    zero_reference_spread: Type.Optional(Bool),
    sample_size_departure: Type.Optional(nullable(Num)),
    sample_size_change_pct: Type.Optional(Num),
    fit: Type.Optional(closed({ slope: Num, intercept: Num, correlation: Num })),
    denominator_extrapolation: Type.Optional(Bool),
    departure_after_conditioning: Type.Optional(nullable(Num)),
    verdict: oneOf(['NOT_ENOUGH_HISTORY', 'NO_MOVE', 'UNCLEAR', 'SAMPLING_ARTIFACT', 'REAL'] as const),
    assessment: oneOf([
      'insufficient_history',
      'no_supported_departure',
      'departure_from_zero_spread',
      'denominator_explanation_unidentified',
      'weak_linear_association',
      'consistent_with_denominator_association',
      'departure_survives_linear_conditioning',
    ] as const),
    reading: Prose,
  },
  'Whether the latest metric reading departs from its history, and whether its sample sizes account for the move; never causal.',
);

/** What forecast_next and score_forecasts answer when the series is too short. */
const TooShort = closed({
  ok: False,
  validity: Type.Literal('empirical_only'),
  guarantee: Type.Null(),
  method: Prose,
  caveats: ProseList,
  reading: Prose,
});

export const ForecastNextResponse = Type.Union(
  [
    closed({
      ok: True,
      forecast: Num,
      interval: Interval,
      nominal_coverage: Num,
      adaptive_alpha: Num,
      error_history_size: Int,
      validity: Type.Literal('empirical_only'),
      guarantee: Type.Null(),
      method: Prose,
      caveats: ProseList,
      reading: Prose,
    }),
    TooShort,
  ],
  { description: 'An empirical one-step interval, or (ok false) the reason none can be given yet.' },
);

const ScoredForecast = closed({
  index: Int,
  forecast: Num,
  interval: Interval,
  nominal_coverage: Num,
  adaptive_alpha: Num,
  error_history_size: Int,
  actual: Num,
  covered: Bool,
  missed_by: Num,
  score: Num,
  baseline_score: Num,
});

export const ScoreForecastsResponse = Type.Union(
  [
    closed({
      ok: True,
      validity: Type.Literal('empirical_only'),
      guarantee: Type.Null(),
      method: Prose,
      caveats: ProseList,
      n_forecasts: Int,
      nominal_coverage: Num,
      empirical_coverage: Num,
      calibrated: Bool,
      within_coverage_tolerance: Bool,
      calibration_criterion: Prose,
      score: Num,
      baseline_score: Num,
      beats_baseline: Bool,
      skill_vs_baseline: nullable(Num),
      n_misses: Int,
      records: Type.Array(ScoredForecast),
      misses: Type.Array(ScoredForecast),
      worst_misses: Type.Array(ScoredForecast),
      records_complete: True,
      reading: Prose,
    }),
    TooShort,
  ],
  { description: 'Every forecast the series would have issued, replayed and scored, or (ok false) the reason none can be.' },
);

export const WhichMetricsMatterResponse = closed(
  {
    selected: Type.Array(Str),
    alpha: Num,
    k: Int,
    n_watched: Int,
    threshold: nullable(Num),
    board_evidence: nullable(Num),
    descriptive_mean: Num,
    ranked: Type.Array(closed({ metric: Str, evidence: Num })),
    valid_evalues: Bool,
    validity: oneOf(['conditional_on_valid_evalues', 'unverified_inputs'] as const),
    guarantee: nullable(Prose),
    assumptions: ProseList,
    reading: Prose,
    method: Prose,
    note: Prose,
  },
  'A descriptive ranking of watched metrics, or an e-BH selection when the caller vouches for valid e-values.',
);
