// Group A contracts: the four analysis operations and their discovery document. Request
// bodies are checked by the operations themselves (src/analysis/validate.ts, with the
// upstream's messages and order); the schemas here are what they enforce.
import { AnalysisErrors } from '../../analysis/errors.js';
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

/** Sorted by operation name, the order capabilities lists the tools in. */
export const ANALYSIS_TOOLS = [DysonReference, MarketAssessment, NarrativeTriage, SpectralAssessment] as const;

export const ANALYSIS_ROUTES = [...ANALYSIS_TOOLS, Capabilities] as const;
