// Shapes of a market_assessment request and result, derived from the published schemas
// (request: src/analysis/schemas/market.ts, result: src/analysis/schemas/market-result.ts).
// The HTTP layer has already checked the request, so these types describe valid input only.
import type { Static } from 'typebox';
import type { MarketRequestInput } from '../schemas/market.js';
import type {
  AttentionItemSchema,
  MarketDiagnosticsSchema,
  MarketMeasurementCoverage,
  MarketPolicyResult,
  MarketSeriesResult,
  MonitorResultSchema,
  RelatedMovementSchema,
  SeriesStatus as SeriesStatusSchema,
} from '../schemas/market-result.js';

export type MarketRequest = MarketRequestInput;
export type MarketSeries = MarketRequest['series'][number];
export type MarketObservation = MarketSeries['observations'][number];
export type MarketSource = MarketSeries['source'];
export type SeriesKind = MarketSeries['kind'];
export type MarketPolicyInput = NonNullable<MarketRequest['policy']>;

export type MarketPolicy = Static<typeof MarketPolicyResult>;
export type SeriesStatus = Static<typeof SeriesStatusSchema>;
export type MeasurementCoverage = Static<typeof MarketMeasurementCoverage>;
export type CoverageStatus = MeasurementCoverage['status'];
export type MonitorResult = Static<typeof MonitorResultSchema>;
export type MarketDiagnostics = Static<typeof MarketDiagnosticsSchema>;
export type SeriesResult = Static<typeof MarketSeriesResult>;
export type AttentionItem = Static<typeof AttentionItemSchema>;
export type RelatedMovement = Static<typeof RelatedMovementSchema>;
export type { MarketAssessment } from '../schemas/market-result.js';
