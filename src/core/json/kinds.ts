// Number kinds kept beside plain JS values (see ../json.ts for why).

export type Key = string | number;

// One side table per container: for a key, either FLOAT (an integral value written as a
// float: `3.0`, `1e2`, `-0.0` — non-integral numbers are always floats and need no entry)
// or the exact digits of an integer token beyond 2^53. One table keeps the encoder at one
// lookup per object.
export const FLOAT = 0;
export type NumberKind = typeof FLOAT | string;
export const numberKinds = new WeakMap<object, Map<Key, NumberKind>>();

/**
 * Whether some number directly in `container` has a side-table entry: without one, every
 * integral number there was an integer token within ±2^53 and prints as plain digits.
 */
export function hasNumberKinds(container: object): boolean {
  return numberKinds.has(container);
}

function kindsOf(container: object): Map<Key, NumberKind> {
  let map = numberKinds.get(container);
  if (!map) numberKinds.set(container, (map = new Map<Key, NumberKind>()));
  return map;
}

export function markFloat(container: object, key: Key): void {
  kindsOf(container).set(key, FLOAT);
}

export function isFloatToken(container: object, key: Key): boolean {
  const value = (container as Record<Key, unknown>)[key];
  if (typeof value !== 'number') return false;
  if (!Number.isInteger(value)) return true;
  return numberKinds.get(container)?.get(key) === FLOAT;
}

function rawIntegerOf(container: object, key: Key): string | undefined {
  const kind = numberKinds.get(container)?.get(key);
  return typeof kind === 'string' ? kind : undefined;
}

/** Copies `source[sourceKey]` to `target[targetKey]`, keeping the number kind. */
export function copyMember(target: object, targetKey: Key, source: object, sourceKey: Key): void {
  const value = (source as Record<Key, unknown>)[sourceKey];
  (target as Record<Key, unknown>)[targetKey] = cloneJson(value);
  if (typeof value === 'number') {
    if (numberKinds.get(source)?.get(sourceKey) === FLOAT) markFloat(target, targetKey);
    const raw = rawIntegerOf(source, sourceKey);
    if (raw !== undefined) setRawInteger(target, targetKey, raw);
  }
}

export function setRawInteger(container: object, key: Key, digits: string): void {
  kindsOf(container).set(key, digits);
}

/** Deep copy of a JSON value that keeps every number's kind. */
export function cloneJson<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const out: unknown[] = new Array(value.length);
    for (let i = 0; i < value.length; i++) copyMember(out, i, value, i);
    return out as T;
  }
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    if (key === '__proto__') {
      Object.defineProperty(out, key, { value: undefined, enumerable: true, writable: true, configurable: true });
    }
    copyMember(out, key, value, key);
  }
  return out as T;
}
