// The seven dataset ids (upstream §3.2), in catalogue order. Kept apart from the catalogue
// (datasets.ts, which imports every projection) so the row schema can name them.
export const DATASET_IDS = [
  'money_markets',
  'money_market_history',
  'capital_markets',
  'bank_risk',
  'market_liquidity',
  'china_economy',
  'source_health',
] as const;
export type DatasetId = (typeof DATASET_IDS)[number];
