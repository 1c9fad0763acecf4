// Request body of POST /v1/market/assess (market_assessment).
import { integer, number, object, type StaticOf } from './build.js';
import { panelRequest } from './series.js';

export const MarketPolicySchema = object({
  baseline_points: integer({ minimum: 10, maximum: 256, default: 30 }),
  recent_points: integer({ minimum: 1, maximum: 32, default: 3 }),
  move_threshold: number({ exclusiveMinimum: 0, default: 3.0, floats: ['default'] }),
  volatility_ratio: number({ exclusiveMinimum: 1, default: 3.0, floats: ['default'] }),
  coverage_drop_fraction: number({ minimum: 0, maximum: 1, default: 0.2 }),
});

export const MarketRequestSchema = panelRequest(MarketPolicySchema);

export type MarketRequestInput = StaticOf<typeof MarketRequestSchema>;
