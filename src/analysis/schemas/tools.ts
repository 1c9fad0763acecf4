// Request schemas of the six statistical tools (ab_test, did_it_change, real_or_sampling,
// forecast_next, score_forecasts, which_metrics_matter). They are the published input
// schemas, member for member and key for key; defaults are not part of them (the reference
// publishes none for these tools) and live beside the tools in TOOL_DEFAULTS.
import { array, boolean, integer, number, object, record, string, type StaticOf } from './build.js';

export const MAX_TOOL_VALUES = 2048;
export const MAX_COUNT = 1_000_000_000_000;
export const MAX_WATCHED_METRICS = 128;

const count = () => integer({ minimum: 0, maximum: MAX_COUNT });
const openUnit = () => number({ exclusiveMinimum: 0, exclusiveMaximum: 1 });
const label = () => string(1, 128);
const values = () => array(number(), 1, MAX_TOOL_VALUES);

export const AbTestRequestSchema = object(
  {
    a_successes: count(),
    a_total: count(),
    b_successes: count(),
    b_total: count(),
    alpha: openUnit(),
    a_label: label(),
    b_label: label(),
  },
  ['a_successes', 'a_total', 'b_successes', 'b_total'],
);

export const DidItChangeRequestSchema = object(
  {
    values: values(),
    two_sided: boolean(),
    half_life: number({ exclusiveMinimum: 0 }),
  },
  ['values'],
);

export const ForecastRequestSchema = object({ values: values(), nominal: openUnit() }, ['values']);

export const RealOrSamplingRequestSchema = object(
  {
    values: values(),
    sample_sizes: array(number({ exclusiveMinimum: 0 }), 1, MAX_TOOL_VALUES),
  },
  ['values', 'sample_sizes'],
);

export const WhichMetricsMatterRequestSchema = object(
  {
    evidence: record(number({ minimum: 0 }), 1, MAX_WATCHED_METRICS),
    alpha: openUnit(),
    valid_evalues: boolean(),
  },
  ['evidence'],
);

export type AbTestRequest = StaticOf<typeof AbTestRequestSchema>;
export type DidItChangeRequest = StaticOf<typeof DidItChangeRequestSchema>;
export type ForecastRequest = StaticOf<typeof ForecastRequestSchema>;
export type RealOrSamplingRequest = StaticOf<typeof RealOrSamplingRequestSchema>;
export type WhichMetricsMatterRequest = StaticOf<typeof WhichMetricsMatterRequestSchema>;

/** What each tool assumes for an optional member the caller left out. */
export const TOOL_DEFAULTS = {
  ab_test: { alpha: 0.05, a_label: 'A', b_label: 'B' },
  did_it_change: { two_sided: true },
  forecast_next: { nominal: 0.8 },
  score_forecasts: { nominal: 0.8 },
  which_metrics_matter: { alpha: 0.1, valid_evalues: false },
} as const;
