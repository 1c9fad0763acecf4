// Building blocks of the funding documents' schemas. Every object is closed: the contract
// test checks real bodies against these, so a member added in code and not here (or the
// reverse) fails it.
import { Type, type Static, type TLiteral, type TSchema, type TUnion } from 'typebox';
import { METRIC_IDS, PUBLISHER_KEYS } from '../publishers/types.js';

export const Str = Type.String();
export const Bool = Type.Boolean();
export const Timestamp = Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{6}\\+00:00$', description: 'UTC, microseconds, +00:00.' });
export const IsoDate = Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' });
export const Hex64 = Type.String({ pattern: '^[0-9a-f]{64}$' });
export const PacketId = Type.String({ pattern: '^[0-9]{8}T[0-9]{6}\\.[0-9]{6}Z-[0-9a-f]{32}$' });
export const SampleFlag = Type.Optional(Type.Literal(true, { description: 'Present (true) only in sample mode: made-up documents.' }));

export const closed = <P extends Parameters<typeof Type.Object>[0]>(properties: P, description?: string) =>
  Type.Object(properties, description === undefined ? { additionalProperties: false } : { additionalProperties: false, description });

type Literals<V extends readonly string[]> = { -readonly [K in keyof V]: TLiteral<V[K]> };
export const oneOf = <const V extends readonly string[]>(values: V): TUnion<Literals<V>> =>
  Type.Union(values.map((v) => Type.Literal(v))) as unknown as TUnion<Literals<V>>;

/** A closed object with exactly one member per key, all of one schema. */
export function keyedBy<const K extends readonly string[], S extends TSchema>(keys: K, member: S) {
  return closed(Object.fromEntries(keys.map((k) => [k, member])) as { [P in K[number]]: S });
}

export const MetricIdSchema = oneOf(METRIC_IDS);
export const byMetric = <S extends TSchema>(member: S) => keyedBy(METRIC_IDS, member);
export const byPublisher = <S extends TSchema>(member: S) => keyedBy(PUBLISHER_KEYS, member);

/** The fifteen-member packet row, identical in latest, review.json and the CSV columns. */
export const ObservationRowSchema = closed({
  metric_id: MetricIdSchema,
  value: Type.Number(),
  unit: oneOf(['%', '$B'] as const),
  observation_date: IsoDate,
  source: Str,
  cadence: oneOf(['daily', 'weekly'] as const),
  publisher_freshness: Type.Literal('directly_verified'),
  value_state: Type.Literal('available'),
  evaluated_at: Timestamp,
  review_status: Type.Literal('checks_passed'),
  review_asof: IsoDate,
  review_scope: Type.Literal('common_sofr_iorb_horizon'),
  latest_per_instrument: Type.Literal(false),
  canonical_latest_asof: IsoDate,
  newer_observation_available: Bool,
});

export type ObservationRowDocument = Static<typeof ObservationRowSchema>;

export const PacketArtifacts = closed({ 'observations.csv': Hex64, 'review.json': Hex64 });
