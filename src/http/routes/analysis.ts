// Group A contracts: the four analysis operations, the ten tools under /v1/tools/<name>
// and their discovery document. Request bodies are checked by the operations themselves
// (src/analysis/validate.ts, with the upstream's messages and order); the schemas here are
// what they enforce.
import type { TSchema } from 'typebox';
import { AnalysisErrors } from '../../analysis/errors.js';
import type { ErrorDefinition } from '../../core/errors.js';
import { analysisToolSpecs, type AnalysisToolName } from '../../analysis/tools/catalogue.js';
import { ToolErrors } from '../../analysis/tools/errors.js';
import {
  AbTestResponse,
  DidItChangeResponse,
  ForecastNextResponse,
  RealOrSamplingResponse,
  ScoreForecastsResponse,
  WhichMetricsMatterResponse,
} from '../../analysis/schemas/tool-results.js';
import { CapabilitiesResponse } from '../../analysis/schemas/capabilities.js';
import { DysonResponse } from '../../analysis/schemas/dyson-result.js';
import { DysonRequestSchema, MarketRequestSchema, NarrativeRequestSchema, SpectralRequestSchema } from '../../analysis/schemas/index.js';
import { MarketResponse } from '../../analysis/schemas/market-result.js';
import { NarrativeResponse } from '../../analysis/schemas/narrative-result.js';
import { SpectralResponse } from '../../analysis/schemas/spectral-result.js';
import { defineRoute } from '../contract.js';

const tags = ['analysis'];
const json = 'application/json';

// Every operation: schema violations, and the two failures any result can meet on the way out.
const COMMON = [AnalysisErrors.invalid_input, AnalysisErrors.lone_surrogate, AnalysisErrors.derived_statistic_overflow];
const SERIES_GATES = [AnalysisErrors.duplicate_series_id, AnalysisErrors.non_increasing_timestamps, AnalysisErrors.non_positive_price, AnalysisErrors.negative_count];

export const DysonReference = defineRoute({
  method: 'POST',
  url: '/v1/research/dyson',
  operationId: 'dyson_reference',
  summary:
    'Generate a seeded, synthetic real-symmetric matrix Brownian motion and report its ordered eigenvalue path, a reference picture of eigenvalue repulsion. It is simulated, not evidence about any market and not a covariance forecast.',
  tags,
  body: DysonRequestSchema,
  bodyCheckedByOperation: true,
  success: { 200: { description: 'The simulated eigenvalue path.', content: { [json]: DysonResponse } } },
  errors: [...COMMON, AnalysisErrors.eigensolver_failed],
});

export const MarketAssessment = defineRoute({
  method: 'POST',
  url: '/v1/market/assess',
  operationId: 'market_assessment',
  summary:
    'Review caller-supplied market series at an explicit as-of clock: source, freshness and rights gates, robust moves, volatility, persistence and measurement coverage. The output describes what the data show; it is not a trading signal and carries no guarantee.',
  tags,
  body: MarketRequestSchema,
  bodyCheckedByOperation: true,
  success: { 200: { description: 'The per-series review.', content: { [json]: MarketResponse } } },
  errors: [...COMMON, ...SERIES_GATES],
});

export const NarrativeTriage = defineRoute({
  method: 'POST',
  url: '/v1/narrative/triage',
  operationId: 'narrative_triage',
  summary:
    'Cluster caller-supplied headlines that repeat the same wording and order the clusters for human review. Titles are treated as untrusted text; repetition, novelty or source variety say nothing about whether a story is true.',
  tags,
  body: NarrativeRequestSchema,
  bodyCheckedByOperation: true,
  success: { 200: { description: 'The review queue of wording clusters.', content: { [json]: NarrativeResponse } } },
  errors: [...COMMON, AnalysisErrors.duplicate_event_id, AnalysisErrors.availability_precedes_publication],
});

export const SpectralAssessment = defineRoute({
  method: 'POST',
  url: '/v1/spectral/assess',
  operationId: 'spectral_assessment',
  summary:
    'Align a panel of caller-supplied series and describe its correlation spectrum over rolling windows: eigenvalues, concentration, an idealised iid noise band and changes between windows. A research description only, with no significance test and no trading claim.',
  tags,
  body: SpectralRequestSchema,
  bodyCheckedByOperation: true,
  success: { 200: { description: 'The spectrum of the aligned panel.', content: { [json]: SpectralResponse } } },
  errors: [...COMMON, ...SERIES_GATES, AnalysisErrors.not_positive_semidefinite, AnalysisErrors.eigensolver_failed],
});

export const Capabilities = defineRoute({
  method: 'GET',
  url: '/v1/capabilities',
  operationId: 'capabilities',
  summary: 'What this analysis service offers: operations with their input schemas, limits, defaults and posture',
  tags,
  success: { 200: { description: 'The capabilities document.', content: { [json]: CapabilitiesResponse } } },
  errors: [],
});

/** The four operations with routes of their own, sorted by operation name. */
export const ANALYSIS_TOOLS = [DysonReference, MarketAssessment, NarrativeTriage, SpectralAssessment] as const;

/** Each tool's result body and the registry errors it raises beyond COMMON. */
const TOOL_ANSWERS: Readonly<Record<AnalysisToolName, { body: TSchema; description: string; errors: readonly ErrorDefinition[] }>> = {
  ab_test: {
    body: AbTestResponse,
    description: 'The verdict and the two arms’ confidence sequences.',
    errors: [ToolErrors.successes_exceed_total, ToolErrors.invalid_arm_labels, ToolErrors.alpha_too_small],
  },
  did_it_change: { body: DidItChangeResponse, description: 'The monitoring state of the series and the size of the latest move.', errors: [] },
  dyson_reference: { body: DysonResponse, description: DysonReference.success[200].description, errors: [AnalysisErrors.eigensolver_failed] },
  forecast_next: { body: ForecastNextResponse, description: 'The next-value interval, or why none can be given yet.', errors: [] },
  market_assessment: { body: MarketResponse, description: MarketAssessment.success[200].description, errors: SERIES_GATES },
  narrative_triage: {
    body: NarrativeResponse,
    description: NarrativeTriage.success[200].description,
    errors: [AnalysisErrors.duplicate_event_id, AnalysisErrors.availability_precedes_publication],
  },
  real_or_sampling: { body: RealOrSamplingResponse, description: 'The verdict on the latest reading.', errors: [ToolErrors.length_mismatch] },
  score_forecasts: { body: ScoreForecastsResponse, description: 'The replayed forecasts and their scores, or why none can be replayed yet.', errors: [] },
  spectral_assessment: {
    body: SpectralResponse,
    description: SpectralAssessment.success[200].description,
    errors: [...SERIES_GATES, AnalysisErrors.not_positive_semidefinite, AnalysisErrors.eigensolver_failed],
  },
  which_metrics_matter: { body: WhichMetricsMatterResponse, description: 'The ranking, and the selection when one applies.', errors: [ToolErrors.empty_metric_name] },
};

/** Where each tool is served under /v1/tools (the four REST operations keep their own paths too). */
export function toolPath(name: AnalysisToolName): string {
  return `/v1/tools/${name}`;
}

/**
 * `POST /v1/tools/<name>` for every tool, in catalogue order: the dispatcher's validator and
 * the same bytes as the MCP tool's structuredContent. One operation per tool, so each is
 * typed with its own request and result schema.
 */
export const TOOL_ROUTE_ENTRIES = analysisToolSpecs().map((spec) => {
  const answer = TOOL_ANSWERS[spec.name];
  const contract = defineRoute({
    method: 'POST',
    url: toolPath(spec.name),
    operationId: `tool_${spec.name}`,
    summary: spec.title,
    description: spec.description,
    tags: ['analysis tools'],
    body: spec.schema,
    bodyCheckedByOperation: true,
    success: { 200: { description: answer.description, content: { [json]: answer.body } } },
    errors: [...COMMON, ...answer.errors],
  });
  return { tool: spec.name, contract };
});

export const TOOL_ROUTES = TOOL_ROUTE_ENTRIES.map((entry) => entry.contract);

export const ANALYSIS_ROUTES = [...ANALYSIS_TOOLS, Capabilities, ...TOOL_ROUTES] as const;
