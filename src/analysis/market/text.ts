// Fixed sentences of the market result. They are our own wording; only the token values
// (statuses, reasons, issues) are part of the compatibility contract.

export const MARKET_SCHEMA = 'noisefloor.market-assessment.v1' as const;

export const MARKET_METHOD =
  'Series must clear their source gates and are cut to their newest unbroken run of points; ' +
  'prices are analysed as log returns; a robust baseline is compared with the latest points ' +
  'for departures, persistence, volatility change and sample-size coverage.';

export const MARKET_LIMITS: readonly string[] = Object.freeze([
  'This is a descriptive screen for attention, not a calibrated probability, a significance test or a trading signal.',
  'Only the series in this request are examined; nothing is said about the rest of the market.',
  'A related movement means aligned values moved together; it is not independent confirmation of either series.',
  'Source rights, availability clocks, calendar gaps and sample sizes are taken as the caller declared them and are not verified.',
  'Missing values and gaps are never filled or interpolated; only the newest unbroken run of points is analysed.',
  'The result grants no authority to trade or to take any other action.',
]);

export const READING_REVIEW =
  'Review the observed departure or the change in measurement coverage, and establish what caused it and whether it matters.';
export const READING_WATCH = 'Keep watching the latest departure; it has not yet persisted.';
export const READING_NONE =
  'No departure is supported under this policy; that does not show the series is noise, nor that it is safe.';

export function insufficientReading(issues: readonly string[]): string {
  return `Not assessed because visibility is insufficient: ${issues.join(', ')}`;
}

export const BASIS_LOG_PRICE = 'rounding error of the log-price arithmetic only';
export const BASIS_DIRECT = 'none; values are analysed as supplied';
