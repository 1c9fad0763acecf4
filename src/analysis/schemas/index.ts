// The four analysis request schemas, by tool name.
export { MarketRequestSchema, MarketPolicySchema, type MarketRequestInput } from './market.js';
export { NarrativeRequestSchema, NarrativePolicySchema, MAX_EVENTS, type NarrativeRequestInput } from './narrative.js';
export {
  SpectralRequestSchema,
  SpectralPolicySchema,
  MAX_SPECTRAL_WINDOWS,
  MAX_SPECTRAL_WINDOW_POINTS,
  type SpectralRequestInput,
} from './spectral.js';
export { DysonRequestSchema, MAX_DYSON_DIMENSION, MAX_DYSON_STEPS, type DysonRequestInput } from './dyson.js';
export { SeriesSchema, MAX_SERIES, MAX_OBSERVATIONS_PER_SERIES, type SeriesInput } from './series.js';
