// forecast_next: the empirical interval for the next value of a series, from the replay
// engine. The coverage it aims at is a target, not a guarantee.
import { formatGeneral } from '../numeric/printf.js';
import type { ForecastRequest } from '../schemas/tools.js';
import { TOOL_DEFAULTS } from '../schemas/tools.js';
import { FORECAST_CAVEATS, FORECAST_METHOD, tooShortReading, wholePercent } from './forecast-text.js';
import { entryFloats, PyRecord, type PyObject } from './py.js';
import { replay, WARMUP_ERRORS } from './replay.js';

export const FORECAST_MIN_VALUES = WARMUP_ERRORS + 1;

export function shortForm(needed: number, given: number): PyObject {
  return new PyRecord()
    .set('ok', false)
    .set('validity', 'empirical_only')
    .set('guarantee', null)
    .set('method', FORECAST_METHOD)
    .set('caveats', [...FORECAST_CAVEATS])
    .set('reading', tooShortReading(needed, given))
    .build();
}

export function forecastNext(request: ForecastRequest): PyObject {
  const values = entryFloats(request.values);
  const nominal = request.nominal ?? TOOL_DEFAULTS.forecast_next.nominal;
  if (values.length < FORECAST_MIN_VALUES) return shortForm(FORECAST_MIN_VALUES, values.length);
  const next = replay(values, nominal).next!;
  const [lo, hi] = next.interval;
  return new PyRecord()
    .set('ok', true)
    .float('forecast', next.forecast)
    .floats('interval', next.interval)
    .float('nominal_coverage', next.nominal)
    .float('adaptive_alpha', next.adaptiveAlpha)
    .int('error_history_size', next.errorHistorySize)
    .set('validity', 'empirical_only')
    .set('guarantee', null)
    .set('method', FORECAST_METHOD)
    .set('caveats', [...FORECAST_CAVEATS])
    .set(
      'reading',
      `Next value: ${formatGeneral(next.forecast, 4)}, with an interval from ${formatGeneral(lo, 4)} to ${formatGeneral(hi, 4)} ` +
        `aimed at ${wholePercent(nominal)}% coverage. Whether intervals like it really cover that often has to be measured, ` +
        'for instance with score_forecasts.',
    )
    .build();
}
