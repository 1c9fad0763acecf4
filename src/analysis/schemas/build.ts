// Builders for the analysis request schemas. TypeBox would emit `required` before
// `properties`; the published schemas keep the upstream key order (type, properties,
// required, additionalProperties; arrays type, items, minItems, maxItems; strings type,
// minLength, maxLength, format), so each schema is written as a plain JSON-schema object
// and wrapped with `Type.Unsafe`. One object is then the validator's source, the static
// request type and the OpenAPI / capabilities schema.
import { Type, type TUnsafe } from 'typebox';
import { markFloat } from '../../core/json.js';

export type Schema<T> = TUnsafe<T>;
export type StaticOf<S> = S extends TUnsafe<infer T> ? T : never;

type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** Numeric keywords in the order they are emitted (and checked). */
const NUMBER_KEYWORDS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'] as const;

export interface NumberBounds {
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  /** The policy default, when the operation applies one. */
  default?: number;
  /** Keywords whose integral value is a float in the published schema (printed `3.0`). */
  floats?: readonly ('minimum' | 'maximum' | 'exclusiveMinimum' | 'exclusiveMaximum' | 'default')[];
}

const floatMarked: object[] = [];

/** The schemas built here with a float keyword (see schema-floats.ts). */
export function floatMarkedSchemas(): readonly object[] {
  return floatMarked;
}

function wrap<T>(schema: Record<string, unknown>, floats: readonly string[] = []): Schema<T> {
  const wrapped = Type.Unsafe<T>(schema);
  // Type.Unsafe copies the object, so number kinds are recorded on the copy.
  for (const key of floats) markFloat(wrapped, key);
  if (floats.length > 0) floatMarked.push(wrapped);
  return wrapped;
}

function numeric<T>(type: string | string[], bounds: NumberBounds): Schema<T> {
  const schema: Record<string, unknown> = { type };
  for (const keyword of NUMBER_KEYWORDS) if (bounds[keyword] !== undefined) schema[keyword] = bounds[keyword];
  if (bounds.default !== undefined) schema.default = bounds.default;
  return wrap<T>(schema, bounds.floats);
}

export function number(bounds: NumberBounds = {}): Schema<number> {
  return numeric<number>('number', bounds);
}

export function integer(bounds: NumberBounds = {}): Schema<number> {
  return numeric<number>('integer', bounds);
}

export function nullableNumber(bounds: NumberBounds = {}): Schema<number | null> {
  return numeric<number | null>(['number', 'null'], bounds);
}

/** A string bounded in code points. */
export function string(minLength: number, maxLength: number): Schema<string> {
  return wrap<string>({ type: 'string', minLength, maxLength });
}

/** A clock: `YYYY-MM-DDTHH:MM:SS[.ffffff](Z|+00:00)`, at most 64 code points. */
export function clock(): Schema<string> {
  return wrap<string>({ type: 'string', minLength: 1, maxLength: 64, format: 'utc-date-time' });
}

export function boolean(): Schema<boolean> {
  return wrap<boolean>({ type: 'boolean' });
}

export function literalSet<const V extends readonly string[]>(values: V): Schema<V[number]> {
  return wrap<V[number]>({ type: 'string', enum: [...values] });
}

export function array<T>(items: Schema<T>, minItems: number, maxItems: number): Schema<T[]> {
  return wrap<T[]>({ type: 'array', items, minItems, maxItems });
}

type ObjectStatic<P extends Record<string, Schema<unknown>>, R extends keyof P> = Simplify<
  { [K in R]: StaticOf<P[K]> } & { [K in Exclude<keyof P, R>]?: StaticOf<P[K]> }
>;

/** A closed object: unknown members are refused. `required` is checked in the order given. */
export function object<P extends Record<string, Schema<unknown>>, const R extends keyof P & string = never>(
  properties: P,
  required: readonly R[] = [],
): Schema<ObjectStatic<P, R>> {
  const schema: Record<string, unknown> = { type: 'object', properties };
  if (required.length > 0) schema.required = [...required];
  schema.additionalProperties = false;
  return wrap<ObjectStatic<P, R>>(schema);
}

/**
 * An object keyed by caller-chosen names, every member validated by `values` (a schema-valued
 * additionalProperties; no properties, no required). Read its members with `keysInOrder`.
 */
export function record<T>(values: Schema<T>, minProperties: number, maxProperties: number): Schema<Record<string, T>> {
  return wrap<Record<string, T>>({ type: 'object', minProperties, maxProperties, additionalProperties: values });
}
