// The request validator of the analysis operations. It interprets the subset of JSON
// Schema the published request schemas use, with the upstream's semantics and check
// order (type, enum, null, finiteness, bounds, string length in code points, clock
// format, array length then items, object size, required members in schema order, then
// members in input order), stopping at the first problem. Fastify's AJV is not used: its
// integers accept `3.0`, it counts UTF-16 units, and its error order differs.
//
// Each schema is compiled once into closures; a successful check allocates nothing, and
// the failing path is assembled on the way back up, so the largest documented request
// (32 × 2048 observations) validates in a few milliseconds.

import { AppError, type ErrorDefinition } from '../core/errors.js';
import { isFloatToken, keysInOrder, pyFloatRepr } from '../core/json.js';
import { codePointLength, loneSurrogateIndex } from '../core/strings.js';
import { isUtcTimestamp } from '../core/time.js';
import { AnalysisErrors } from './errors.js';

/**
 * How a body this validator checks is read (parseStrictJson options): as the upstream's
 * Python reader does, a number literal beyond the double range is no syntax error but a
 * value (±Infinity) the validator refuses as no finite number (422).
 */
export const ANALYSIS_BODY = { infiniteNumbers: true } as const;

type Segment = string | number;

/** The first problem found: `path` is a JSON pointer, `message` reads `input.a[0].b: …`. */
export interface ValidationIssue {
  code: string;
  message: string;
  path: string;
}

interface Failure {
  def: ErrorDefinition;
  text: string;
  /** Path segments, innermost first (each level appends its own on the way up). */
  segments: Segment[];
  /** A member the pointer names beyond the message path (an unknown key). */
  pointerTail?: string;
}

type Check = (value: unknown, container: object | null, key: Segment) => Failure | undefined;

type JsonSchema = Readonly<Record<string, unknown>>;

const DEFAULT_MAX_LENGTH = 65536;
const DEFAULT_MAX_ITEMS = 2048;
const DEFAULT_MAX_PROPERTIES = 128;
const MAX_KEY_LENGTH = 128;

const KNOWN_KEYWORDS = new Set([
  'type', 'enum', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minLength', 'maxLength',
  'format', 'items', 'minItems', 'maxItems', 'properties', 'required', 'additionalProperties',
  'minProperties', 'maxProperties', 'default', 'description', 'title',
]);

type BoundKeyword = 'minimum' | 'maximum' | 'exclusiveMinimum' | 'exclusiveMaximum';

// Any surrogate unit at all; only then is the slower code-point walk needed.
const SURROGATE = /[\uD800-\uDFFF]/;

function fail(text: string, def: ErrorDefinition = AnalysisErrors.invalid_input): Failure {
  return { def, text, segments: [] };
}

function boundText(schema: JsonSchema, keyword: string): string {
  const bound = schema[keyword] as number;
  if (isFloatToken(schema, keyword)) return pyFloatRepr(bound);
  return Object.is(bound, -0) ? '0' : String(bound);
}

type TypeTest = (value: unknown, container: object | null, key: Segment) => boolean;

function typeTest(name: string): TypeTest {
  switch (name) {
    case 'null':
      return (v) => v === null;
    case 'boolean':
      return (v) => typeof v === 'boolean';
    case 'string':
      return (v) => typeof v === 'string';
    case 'number':
      return (v) => typeof v === 'number';
    case 'integer':
      return (v, container, key) => typeof v === 'number' && isIntegerToken(v, container, key);
    case 'array':
      return (v) => Array.isArray(v);
    case 'object':
      return (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
    default:
      throw new Error(`unsupported schema type ${name}`);
  }
}

function compileType(type: unknown): { test: TypeTest; text: string } | undefined {
  if (type === undefined) return undefined;
  const names = Array.isArray(type) ? (type as string[]) : [type as string];
  const tests = names.map(typeTest);
  const text = `expected ${names.join(' or ')}`;
  if (tests.length === 1) return { test: tests[0], text };
  return {
    test: (v, c, k) => {
      for (let i = 0; i < tests.length; i++) if (tests[i](v, c, k)) return true;
      return false;
    },
    text,
  };
}

interface Compiler {
  /** Set when a string with an unpaired surrogate was accepted by the schema checks. */
  sawLoneSurrogate: boolean;
}

const NO_BOUND_TEXT = '';

/** Bound tests in check order; an absent bound is an infinity that never fails. */
function numberBounds(schema: JsonSchema) {
  const text = (keyword: BoundKeyword): string => {
    const bound = schema[keyword];
    if (bound === undefined) return NO_BOUND_TEXT;
    if (typeof bound !== 'number') throw new Error(`${keyword} must be a number`);
    return `violates ${keyword} ${boundText(schema, keyword)}`;
  };
  return {
    min: (schema.minimum as number | undefined) ?? -Infinity,
    max: (schema.maximum as number | undefined) ?? Infinity,
    exMin: (schema.exclusiveMinimum as number | undefined) ?? -Infinity,
    exMax: (schema.exclusiveMaximum as number | undefined) ?? Infinity,
    minText: text('minimum'),
    maxText: text('maximum'),
    exMinText: text('exclusiveMinimum'),
    exMaxText: text('exclusiveMaximum'),
  };
}

function checkNumber(n: number, b: ReturnType<typeof numberBounds>): Failure | undefined {
  if (!Number.isFinite(n)) return fail('must be a finite number');
  if (n < b.min) return fail(b.minText);
  if (n > b.max) return fail(b.maxText);
  if (n <= b.exMin) return fail(b.exMinText);
  if (n >= b.exMax) return fail(b.exMaxText);
  return undefined;
}

function isIntegerToken(v: number, container: object | null, key: Segment): boolean {
  // Only an integer token counts: `3.0` and `1e2` are floats, as in Python. An integer
  // literal beyond the double range (read as ±Infinity) is an int too: it fails as no finite number.
  return (Number.isInteger(v) || v === Infinity || v === -Infinity) && (container === null || !isFloatToken(container, key));
}

/** A schema whose type is number, integer, or either of them with null, and no enum. */
function compileNumeric(schema: JsonSchema, names: readonly string[], typeText: string): Check {
  const integerOnly = !names.includes('number');
  const nullable = names.includes('null');
  const bounds = numberBounds(schema);
  return (value, container, key) => {
    if (typeof value !== 'number') return value === null && nullable ? undefined : fail(typeText);
    if (integerOnly && !isIntegerToken(value, container, key)) return fail(typeText);
    return checkNumber(value, bounds);
  };
}

const CLOCK_TEXT =
  'must be a UTC timestamp YYYY-MM-DDTHH:MM:SS with optional 1 to 6 fractional second digits, ending in Z or +00:00';

function stringLengthText(min: number, max: number): string {
  return min === max
    ? `must be exactly ${min} characters long (counted in Unicode code points)`
    : `must be between ${min} and ${max} characters long (counted in Unicode code points)`;
}

/** Length in code points and clock format; used by every schema that admits strings. */
function compileStringRules(schema: JsonSchema, state: Compiler): (s: string) => Failure | undefined {
  const min = (schema.minLength as number | undefined) ?? 0;
  const max = (schema.maxLength as number | undefined) ?? DEFAULT_MAX_LENGTH;
  const lengthText = stringLengthText(min, max);
  const format = schema.format as string | undefined;
  if (format !== undefined && format !== 'utc-date-time') throw new Error(`unsupported string format ${format}`);
  const isClock = format === 'utc-date-time';
  // A well-formed clock is ASCII of 20 to 32 characters: when the bounds admit that, a
  // clock that passes the format test needs no length count.
  const clockFirst = isClock && min <= 20 && max >= 32;
  return (s) => {
    if (clockFirst && isUtcTimestamp(s)) return undefined;
    let length = s.length;
    // Without surrogate units, code points and UTF-16 units coincide.
    if (SURROGATE.test(s)) {
      length = codePointLength(s);
      if (loneSurrogateIndex(s) !== -1) state.sawLoneSurrogate = true;
    }
    if (length < min || length > max) return fail(lengthText);
    if (isClock && !isUtcTimestamp(s)) return fail(CLOCK_TEXT);
    return undefined;
  };
}

/** A schema whose type is exactly string. */
function compileStringOnly(schema: JsonSchema, typeText: string, state: Compiler): Check {
  const rules = compileStringRules(schema, state);
  const allowed = schema.enum as readonly unknown[] | undefined;
  if (allowed === undefined) {
    return (value) => (typeof value === 'string' ? rules(value) : fail(typeText));
  }
  const text = enumText(allowed);
  return (value) => {
    if (typeof value !== 'string') return fail(typeText);
    if (!allowed.includes(value)) return fail(text);
    return rules(value);
  };
}

function enumText(allowed: readonly unknown[]): string {
  return `must be one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}`;
}

function compileArray(schema: JsonSchema, state: Compiler): (a: unknown[]) => Failure | undefined {
  const min = (schema.minItems as number | undefined) ?? 0;
  const max = (schema.maxItems as number | undefined) ?? DEFAULT_MAX_ITEMS;
  const items = schema.items === undefined ? undefined : compileSchema(schema.items as JsonSchema, state);
  const lengthText = `must hold between ${min} and ${max} items`;
  return (a) => {
    const n = a.length;
    if (n < min || n > max) return fail(lengthText);
    if (items !== undefined) {
      for (let i = 0; i < n; i++) {
        const failure = items(a[i], a, i);
        if (failure !== undefined) {
          failure.segments.push(i);
          return failure;
        }
      }
    }
    return undefined;
  };
}

function compileObject(schema: JsonSchema, state: Compiler): (o: Record<string, unknown>) => Failure | undefined {
  const min = (schema.minProperties as number | undefined) ?? 0;
  const max = (schema.maxProperties as number | undefined) ?? DEFAULT_MAX_PROPERTIES;
  // Property names read by for-in are internalized, so a short scan comparing against
  // the schema's names is cheaper than a hash lookup.
  const names: string[] = [];
  const checks: Check[] = [];
  for (const [name, child] of Object.entries((schema.properties as Record<string, JsonSchema> | undefined) ?? {})) {
    names.push(name);
    checks.push(compileSchema(child, state));
  }
  const known = names.length;
  const required = (schema.required as string[] | undefined) ?? [];
  const closed = schema.additionalProperties === false;
  // A schema-valued additionalProperties checks every member the properties do not name.
  const extra =
    typeof schema.additionalProperties === 'object' && schema.additionalProperties !== null
      ? compileSchema(schema.additionalProperties as JsonSchema, state)
      : undefined;
  if (extra === undefined && schema.additionalProperties !== undefined && typeof schema.additionalProperties !== 'boolean') {
    throw new Error('additionalProperties must be a boolean or a schema');
  }
  const accepted = names.join(', ');
  const sizeText = min === 0 ? `must have at most ${max} members` : `must have between ${min} and ${max} members`;
  const isRequired = names.map((name) => required.includes(name));
  const requiredKnown = required.filter((name) => names.includes(name)).length;
  const requiredUnknown = required.length !== requiredKnown;

  /** The exact check, in the documented order; also the source of every failure. */
  const ordered = (o: Record<string, unknown>): Failure | undefined => {
    let size = 0;
    for (const _ in o) size++;
    if (size < min || size > max) return fail(sizeText);
    for (let i = 0; i < required.length; i++) {
      if (!Object.hasOwn(o, required[i])) {
        const failure = fail('is required but missing');
        failure.segments.push(required[i]);
        return failure;
      }
    }
    // Members in the order they were written (JS would enumerate "0", "1", … first).
    for (const key of keysInOrder(o)) {
      if (key.length > MAX_KEY_LENGTH && codePointLength(key) > MAX_KEY_LENGTH) {
        return fail(`member names must be at most ${MAX_KEY_LENGTH} characters long`);
      }
      let j = 0;
      while (j < known && names[j] !== key) j++;
      if (j < known || extra !== undefined) {
        const failure = (j < known ? checks[j] : extra!)(o[key], o, key);
        if (failure !== undefined) {
          failure.segments.push(key);
          return failure;
        }
      } else if (closed) {
        const failure = fail(
          accepted === ''
            ? `unknown field ${JSON.stringify(key)}; this object takes no members`
            : `unknown field ${JSON.stringify(key)}; accepted fields are ${accepted}`,
        );
        failure.pointerTail = key;
        return failure;
      }
    }
    return undefined;
  };

  // One pass for the common, valid case: the object is valid exactly when every member
  // passes, the size is in bounds and every required member was seen. Anything else is
  // re-checked in the documented order so the reported problem is the right one. (for-in
  // walks the shape's enumeration cache, which keeps the member reads on V8's fast path.)
  if (requiredUnknown) return ordered;
  return (o) => {
    let size = 0;
    let seen = 0;
    for (const key in o) {
      size++;
      let j = 0;
      while (j < known && names[j] !== key) j++;
      if (j === known) {
        if (closed || key.length > MAX_KEY_LENGTH) return ordered(o);
        if (extra !== undefined) {
          if (extra(o[key], o, key) !== undefined) return ordered(o);
          // Caller-chosen names end up in results, so they must be well-formed text too.
          if (SURROGATE.test(key) && loneSurrogateIndex(key) !== -1) state.sawLoneSurrogate = true;
        }
        continue;
      }
      if (isRequired[j]) seen++;
      if (checks[j](o[key], o, key) !== undefined) return ordered(o);
    }
    if (size < min || size > max || seen !== required.length) return ordered(o);
    return undefined;
  };
}

function compileSchema(schema: JsonSchema, state: Compiler): Check {
  for (const keyword of Object.keys(schema)) {
    if (!KNOWN_KEYWORDS.has(keyword)) throw new Error(`unsupported schema keyword ${keyword}`);
  }
  const names = schema.type === undefined ? [] : Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
  const type = compileType(schema.type);
  const allowed = schema.enum as readonly unknown[] | undefined;
  // Specialised closures for the shapes the request schemas use; the general one below
  // keeps the same semantics for anything else.
  if (type !== undefined) {
    if (names.length === 1 && names[0] === 'string') return compileStringOnly(schema, type.text, state);
    if (allowed === undefined && names.length > 0 && names.every((n) => n === 'number' || n === 'integer' || n === 'null') && names.some((n) => n !== 'null')) {
      return compileNumeric(schema, names, type.text);
    }
    if (names.length === 1 && names[0] === 'array' && allowed === undefined) {
      const onArray = compileArray(schema, state);
      return (value) => (Array.isArray(value) ? onArray(value) : fail(type.text));
    }
    if (names.length === 1 && names[0] === 'object' && allowed === undefined) {
      const onObject = compileObject(schema, state);
      return (value) =>
        typeof value === 'object' && value !== null && !Array.isArray(value)
          ? onObject(value as Record<string, unknown>)
          : fail(type.text);
    }
  }
  const text = allowed === undefined ? '' : enumText(allowed);
  const bounds = numberBounds(schema);
  const onString = compileStringRules(schema, state);
  const onArray = compileArray(schema, state);
  const onObject = compileObject(schema, state);
  return (value, container, key) => {
    if (type !== undefined && !type.test(value, container, key)) return fail(type.text);
    if (allowed !== undefined && !allowed.includes(value)) return fail(text);
    if (value === null) return undefined;
    switch (typeof value) {
      case 'number':
        return checkNumber(value, bounds);
      case 'string':
        return onString(value);
      case 'object':
        return Array.isArray(value) ? onArray(value) : onObject(value as Record<string, unknown>);
      default:
        return undefined;
    }
  };
}

function escapePointer(segment: Segment): string {
  return String(segment).replace(/~/g, '~0').replace(/\//g, '~1');
}

function messagePath(segments: readonly Segment[]): string {
  let path = 'input';
  for (const s of segments) path += typeof s === 'number' ? `[${s}]` : `.${s}`;
  return path;
}

function pointer(segments: readonly Segment[]): string {
  let out = '';
  for (const s of segments) out += '/' + escapePointer(s);
  return out;
}

/** Document-order search for the first string (or key) holding an unpaired surrogate. */
function findLoneSurrogate(value: unknown, segments: Segment[]): Segment[] | undefined {
  if (typeof value === 'string') return loneSurrogateIndex(value) === -1 ? undefined : segments;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findLoneSurrogate(value[i], [...segments, i]);
      if (found) return found;
    }
    return undefined;
  }
  if (typeof value === 'object' && value !== null) {
    for (const key of keysInOrder(value)) {
      if (loneSurrogateIndex(key) !== -1) return [...segments, key];
      const found = findLoneSurrogate((value as Record<string, unknown>)[key], [...segments, key]);
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * The `lone_surrogate` issue for `value`: the first string or key, in written order, that
 * holds an unpaired surrogate; undefined when none does.
 */
export function loneSurrogateIssue(value: unknown): ValidationIssue | undefined {
  const segments = findLoneSurrogate(value, []);
  if (segments === undefined) return undefined;
  return {
    code: AnalysisErrors.lone_surrogate.code,
    message: `${messagePath(segments)}: contains an unpaired UTF-16 surrogate, which is not valid Unicode text; send well-formed UTF-8`,
    path: pointer(segments),
  };
}

/**
 * The 422 `lone_surrogate` a request raises where the reference's UTF-8 encoding of it fails:
 * its digest, after the schema and domain checks. `request` is searched for the culprit.
 */
export function loneSurrogateError(request: unknown, cause?: unknown): AppError {
  const found = loneSurrogateIssue(request);
  const message = found?.message ?? 'input: a string holds an unpaired UTF-16 surrogate, which is not valid Unicode text; send well-formed UTF-8';
  return new AppError(AnalysisErrors.lone_surrogate, message, { path: found?.path, cause });
}

export interface ValidatorOptions {
  /**
   * `report` (the default): an unpaired surrogate is the validator's issue once the schema is
   * satisfied. `defer`: the validator passes it, for tools whose digest raises it after their
   * domain checks (loneSurrogateError), where the reference's encoding fails.
   */
  loneSurrogates?: 'report' | 'defer';
}

export interface Validator<T> {
  /** The first problem with `value`, or undefined when it satisfies the schema. */
  issue(value: unknown): ValidationIssue | undefined;
  /** Throws `AppError` (422 `invalid_input` or `lone_surrogate`) unless `value` is valid. */
  assert(value: unknown): asserts value is T;
}

/** Compiles a request schema (see src/analysis/schemas) into a validator. */
export function compileValidator<T>(schema: object, options: ValidatorOptions = {}): Validator<T> {
  const reportSurrogates = options.loneSurrogates !== 'defer';
  const state: Compiler = { sawLoneSurrogate: false };
  const root = compileSchema(schema as JsonSchema, state);
  const issue = (value: unknown): ValidationIssue | undefined => {
    state.sawLoneSurrogate = false;
    const failure = root(value, null, '');
    if (failure !== undefined) {
      const segments = failure.segments.reverse();
      const ptr = pointer(segments) + (failure.pointerTail === undefined ? '' : '/' + escapePointer(failure.pointerTail));
      return { code: failure.def.code, message: `${messagePath(segments)}: ${failure.text}`, path: ptr };
    }
    // Unpaired surrogates are reported only once the schema is satisfied, so a request
    // with both problems hears about the schema first (as from the reference service).
    if (state.sawLoneSurrogate && reportSurrogates) return loneSurrogateIssue(value);
    return undefined;
  };
  return {
    issue,
    assert(value: unknown): asserts value is T {
      const found = issue(value);
      if (found === undefined) return;
      const def = found.code === AnalysisErrors.lone_surrogate.code ? AnalysisErrors.lone_surrogate : AnalysisErrors.invalid_input;
      throw new AppError(def, found.message, { path: found.path });
    },
  };
}
