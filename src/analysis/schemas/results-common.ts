// Building blocks of the analysis result schemas. Results are closed objects: every
// member is listed, and no other may appear (the contract test checks real bodies
// against them). The result types the domain code builds are `Static<>` of these.
import { Type, type TLiteral, type TSchema, type TUnion } from 'typebox';

export const Str = Type.String();
export const Num = Type.Number();
export const Int = Type.Integer();
export const Bool = Type.Boolean();
export const False = Type.Literal(false);
export const True = Type.Literal(true);
export const Sha256 = Type.String({ pattern: '^[0-9a-f]{64}$', description: 'Lower-case hex SHA-256.' });

export const nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
type Literals<V extends readonly string[]> = { -readonly [K in keyof V]: TLiteral<V[K]> };
/** A union of string literals (the enum values of a token field). */
export const oneOf = <const V extends readonly string[]>(values: V): TUnion<Literals<V>> =>
  Type.Union(values.map((v) => Type.Literal(v))) as unknown as TUnion<Literals<V>>;

/** A closed object: exactly these members (optional ones may be absent). */
export const closed = <P extends Parameters<typeof Type.Object>[0]>(properties: P, description?: string) =>
  Type.Object(properties, description === undefined ? { additionalProperties: false } : { additionalProperties: false, description });

export const SERIES_KIND_VALUES = ['price', 'return', 'level', 'spread', 'rate', 'count'] as const;
export const SeriesKind = oneOf(SERIES_KIND_VALUES);

/** A series' source as echoed in market and spectral results. */
export const SeriesSourceResult = closed({ id: Str, rights: oneOf(['permitted', 'unknown', 'restricted'] as const), url: Type.Optional(Str) });

export const Matrix = Type.Array(Type.Array(Num));
