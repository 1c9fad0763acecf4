// The ten analysis tools as clients discover them (capabilities, MCP tools/list, the REST
// tool routes and the CLI): name, title, description and the exact input schema the
// dispatcher validates against. Sorted by name, the order the reference lists them in.
//
// The descriptions of the four REST operations are the ones /v1/capabilities already
// publishes (test/analysis/tools/catalogue.test.ts pins them), so serving capabilities from
// this catalogue will not change those bytes.
import { cloneJson, copyMember } from '../../core/json.js';
import {
  DysonRequestSchema,
  MarketPolicySchema,
  MarketRequestSchema,
  NarrativePolicySchema,
  NarrativeRequestSchema,
  SpectralPolicySchema,
  SpectralRequestSchema,
} from '../schemas/index.js';
import {
  AbTestRequestSchema,
  DidItChangeRequestSchema,
  ForecastRequestSchema,
  RealOrSamplingRequestSchema,
  TOOL_DEFAULTS,
  WhichMetricsMatterRequestSchema,
} from '../schemas/tools.js';

export const ANALYSIS_TOOL_NAMES = [
  'ab_test',
  'did_it_change',
  'dyson_reference',
  'forecast_next',
  'market_assessment',
  'narrative_triage',
  'real_or_sampling',
  'score_forecasts',
  'spectral_assessment',
  'which_metrics_matter',
] as const;

export type AnalysisToolName = (typeof ANALYSIS_TOOL_NAMES)[number];

export interface AnalysisToolSpec {
  readonly name: AnalysisToolName;
  /** Short human name (MCP `title`, annotations). */
  readonly title: string;
  /** What the tool does and what its result is not. */
  readonly description: string;
  /** The schema object the validator compiles; never hand it out, use inputSchemaOf(). */
  readonly schema: object;
  /** The REST route the reference already serves, for the four REST operations. */
  readonly restPath?: string;
}

const SPECS: readonly AnalysisToolSpec[] = [
  {
    name: 'ab_test',
    title: 'A/B verdict that is safe to peek at',
    description:
      'Compare the success rates of two arms (counts of successes and trials) with anytime-valid confidence sequences, ' +
      'one per arm, so the verdict may be re-read after every new trial. It assumes independent Bernoulli trials with ' +
      'constant rates; it is not a test of changing regimes and not a trading signal.',
    schema: AbTestRequestSchema,
  },
  {
    name: 'did_it_change',
    title: 'Describe a change in a metric',
    description:
      'Monitor one series in time order with a rank-based Shiryaev–Roberts statistic and report its state (warming up, ' +
      'steady, watch, changed), the change points and the size of the latest move. The statistic is descriptive: it is ' +
      'not a calibrated e-value or p-value and must not be fed to which_metrics_matter as one.',
    schema: DidItChangeRequestSchema,
  },
  {
    name: 'dyson_reference',
    title: 'Dyson Brownian motion reference',
    description:
      'Generate a seeded, synthetic real-symmetric matrix Brownian motion and report its ordered eigenvalue path, a reference picture of eigenvalue repulsion. It is simulated, not evidence about any market and not a covariance forecast.',
    schema: DysonRequestSchema,
    restPath: '/v1/research/dyson',
  },
  {
    name: 'forecast_next',
    title: 'Empirical interval for the next value',
    description:
      'Forecast the next value of a series as its last value, with an interval from the empirical quantiles of past ' +
      'one-step changes at an adaptively tuned level. The nominal coverage is a target, not a guarantee; measure it ' +
      'with score_forecasts.',
    schema: ForecastRequestSchema,
  },
  {
    name: 'market_assessment',
    title: 'Market series assessment',
    description:
      'Review caller-supplied market series at an explicit as-of clock: source, freshness and rights gates, robust moves, volatility, persistence and measurement coverage. The output describes what the data show; it is not a trading signal and carries no guarantee.',
    schema: MarketRequestSchema,
    restPath: '/v1/market/assess',
  },
  {
    name: 'narrative_triage',
    title: 'Headline triage',
    description:
      'Cluster caller-supplied headlines that repeat the same wording and order the clusters for human review. Titles are treated as untrusted text; repetition, novelty or source variety say nothing about whether a story is true.',
    schema: NarrativeRequestSchema,
    restPath: '/v1/narrative/triage',
  },
  {
    name: 'real_or_sampling',
    title: 'Metric move or sample-size move?',
    description:
      'Check whether the latest reading of a metric departs from its history and whether the historical linear ' +
      'relation with its sample sizes accounts for the move. An association is reported, not a cause: the verdict ' +
      'is descriptive and never a causal explanation.',
    schema: RealOrSamplingRequestSchema,
  },
  {
    name: 'score_forecasts',
    title: 'Replay and score past forecasts',
    description:
      'Replay every forecast forecast_next would have issued along the series, each from its own past only, and ' +
      'report coverage, misses and weighted interval scores against fixed-level intervals. Empirical calibration of ' +
      'this series only, without hindsight; no guarantee for future values.',
    schema: ForecastRequestSchema,
  },
  {
    name: 'spectral_assessment',
    title: 'Correlation spectrum review',
    description:
      'Align a panel of caller-supplied series and describe its correlation spectrum over rolling windows: eigenvalues, concentration, an idealised iid noise band and changes between windows. A research description only, with no significance test and no trading claim.',
    schema: SpectralRequestSchema,
    restPath: '/v1/spectral/assess',
  },
  {
    name: 'which_metrics_matter',
    title: 'Review a board of metrics',
    description:
      'Rank watched metrics by their evidence values. Only when the caller confirms with valid_evalues=true that every ' +
      'value is a valid e-value does it select metrics with e-BH at level alpha; change statistics such as ' +
      'did_it_change output do not qualify. A selection is for review, not a trade recommendation.',
    schema: WhichMetricsMatterRequestSchema,
  },
];

const BY_NAME: ReadonlyMap<string, AnalysisToolSpec> = new Map(SPECS.map((s) => [s.name, s]));

/** Policy schemas whose `default`s the four REST operations apply. */
const DEFAULTS_FROM: Readonly<Record<string, object>> = {
  dyson_reference: DysonRequestSchema,
  market_assessment: MarketPolicySchema,
  narrative_triage: NarrativePolicySchema,
  spectral_assessment: SpectralPolicySchema,
};

export function isAnalysisToolName(name: string): name is AnalysisToolName {
  return BY_NAME.has(name);
}

export function analysisToolSpec(name: string): AnalysisToolSpec | undefined {
  return BY_NAME.get(name);
}

/** All ten, sorted by name. */
export function analysisToolSpecs(): readonly AnalysisToolSpec[] {
  return SPECS;
}

/** A fresh copy of a tool's input schema (number kinds kept), safe to hand to a caller. */
export function inputSchemaOf(name: AnalysisToolName): Record<string, unknown> {
  return cloneJson(BY_NAME.get(name)!.schema) as Record<string, unknown>;
}

/** The values a tool assumes for optional members the caller leaves out (number kinds kept). */
export function defaultsOf(name: AnalysisToolName): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const from = DEFAULTS_FROM[name];
  if (from !== undefined) {
    const properties = (from as { properties: Record<string, Record<string, unknown>> }).properties;
    for (const [member, schema] of Object.entries(properties)) {
      if (schema.default !== undefined) copyMember(out, member, schema, 'default');
    }
    return out;
  }
  return { ...((TOOL_DEFAULTS as Record<string, Record<string, unknown>>)[name] ?? {}) };
}

/** The capabilities-style listing: `{name, description, input_schema}` per tool, fresh copies. */
export function toolListing(): Array<{ name: string; description: string; input_schema: Record<string, unknown> }> {
  return SPECS.map((s) => ({ name: s.name, description: s.description, input_schema: inputSchemaOf(s.name) }));
}
