// Which optional members of a JSON schema real documents actually carry. A closed schema
// with complete `required` lists catches a member added in code only; this catches the
// reverse for optional members: one documented but never produced.
import type { ValidateFunction } from 'ajv';

type Schema = Record<string, unknown>;

export interface Coverage {
  /** Every optional member of a schema, by location (`<label>#<schema pointer>`). */
  optional: Set<string>;
  /** Optional members some document carried. */
  seen: Set<string>;
}

export function newCoverage(): Coverage {
  return { optional: new Set(), seen: new Set() };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Lists the optional members of `schema` under `label`. */
export function declareOptional(coverage: Coverage, label: string, schema: Schema, pointer = ''): void {
  const properties = schema.properties;
  if (isObject(properties)) {
    const required = new Set((schema.required as string[] | undefined) ?? []);
    for (const [name, member] of Object.entries(properties)) {
      const at = `${pointer}/properties/${name}`;
      if (!required.has(name)) coverage.optional.add(`${label}#${at}`);
      declareOptional(coverage, label, member as Schema, at);
    }
  }
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    const branches = schema[keyword];
    if (Array.isArray(branches)) branches.forEach((b, i) => declareOptional(coverage, label, b as Schema, `${pointer}/${keyword}/${i}`));
  }
  if (isObject(schema.items)) declareOptional(coverage, label, schema.items, `${pointer}/items`);
  if (isObject(schema.patternProperties)) {
    for (const [pattern, member] of Object.entries(schema.patternProperties)) declareOptional(coverage, label, member as Schema, `${pointer}/patternProperties/${pattern}`);
  }
}

/**
 * Walks a document that already validated against `schema`, marking the optional members
 * it carries. `branch` picks the anyOf/oneOf alternative a value matched.
 */
export function markSeen(coverage: Coverage, label: string, schema: Schema, value: unknown, branch: (schema: Schema) => ValidateFunction, pointer = ''): void {
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    const branches = schema[keyword];
    if (Array.isArray(branches)) {
      const i = branches.findIndex((b) => branch(b as Schema)(value));
      if (i >= 0) markSeen(coverage, label, branches[i] as Schema, value, branch, `${pointer}/${keyword}/${i}`);
    }
  }
  if (isObject(value) && isObject(schema.properties)) {
    for (const [name, member] of Object.entries(schema.properties)) {
      if (!Object.hasOwn(value, name)) continue;
      const at = `${pointer}/properties/${name}`;
      coverage.seen.add(`${label}#${at}`);
      markSeen(coverage, label, member as Schema, value[name], branch, at);
    }
  }
  if (isObject(value) && isObject(schema.patternProperties)) {
    for (const [pattern, member] of Object.entries(schema.patternProperties)) {
      const re = new RegExp(pattern, 'u');
      for (const [key, v] of Object.entries(value)) if (re.test(key)) markSeen(coverage, label, member as Schema, v, branch, `${pointer}/patternProperties/${pattern}`);
    }
  }
  if (Array.isArray(value) && isObject(schema.items)) {
    for (const item of value) markSeen(coverage, label, schema.items, item, branch, `${pointer}/items`);
  }
}
