// Sentences shared by forecast_next and score_forecasts.

export const FORECAST_METHOD =
  'Point forecast: the last value (a random walk). Interval: the point plus and minus an empirical quantile of the ' +
  'past absolute one-step changes, at a miss level that adapts to the misses so far and is kept within [0.01, 0.99]. ' +
  'Every forecast is issued, scored and only then learned from, by one replay engine shared by both tools.';

export const FORECAST_CAVEATS: readonly string[] = [
  'The nominal coverage is a target the intervals aim at; nothing guarantees it.',
  'Dependent readings and changes of regime can make the intervals cover far less often than the target.',
  'Values must be in chronological order, in one unit and at one cadence.',
  'The horizon is the next observation only; no timestamps, sessions or calendars are inferred.',
];

export function tooShortReading(needed: number, given: number): string {
  return `This needs at least ${needed} readings to replay forecasts; it was given ${given}.`;
}

/** Python's round-half-even percentage of a fraction, as an integer string. */
export function wholePercent(fraction: number): string {
  const p = fraction * 100;
  const f = Math.floor(p);
  const d = p - f;
  const r = d > 0.5 || (d === 0.5 && f % 2 === 1) ? f + 1 : f;
  return String(r);
}
