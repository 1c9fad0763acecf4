// The series object shared by market_assessment and spectral_assessment.
import { array, clock, literalSet, nullableNumber, number, object, string, type Schema, type StaticOf } from './build.js';

export const MAX_SERIES = 32;
export const MAX_OBSERVATIONS_PER_SERIES = 2048;

export const SERIES_KINDS = ['price', 'return', 'level', 'spread', 'rate', 'count'] as const;
export const SOURCE_RIGHTS = ['permitted', 'unknown', 'restricted'] as const;

export const ObservationSchema = object(
  {
    observed_at: clock(),
    value: nullableNumber(),
    available_at: clock(),
    sample_size: nullableNumber({ exclusiveMinimum: 0 }),
  },
  ['observed_at', 'value'],
);

export const SeriesSourceSchema = object(
  {
    id: string(1, 128),
    rights: literalSet(SOURCE_RIGHTS),
    url: string(1, 2048),
  },
  ['id', 'rights'],
);

export const SeriesSchema = object(
  {
    id: string(1, 128),
    kind: literalSet(SERIES_KINDS),
    unit: string(1, 64),
    source: SeriesSourceSchema,
    max_age_seconds: number({ exclusiveMinimum: 0 }),
    max_gap_seconds: number({ exclusiveMinimum: 0 }),
    group: string(1, 128),
    observations: array(ObservationSchema, 0, MAX_OBSERVATIONS_PER_SERIES),
  },
  ['id', 'kind', 'unit', 'source', 'max_age_seconds', 'observations'],
);

export type SeriesInput = StaticOf<typeof SeriesSchema>;

/** A panel request (market and spectral share it): series, an explicit clock, an optional policy. */
export function panelRequest<P extends Schema<unknown>>(policy: P) {
  return object({ series: array(SeriesSchema, 0, MAX_SERIES), as_of: clock(), policy }, ['series', 'as_of']);
}
