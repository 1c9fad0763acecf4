// Number kinds kept beside plain JS values (see ../json.ts for why).

export type Key = string | number;

// One side table per container: for a key, either FLOAT (an integral value written as a
// float: `3.0`, `1e2`, `-0.0` — non-integral numbers are always floats and need no entry)
// or the exact digits of an integer token beyond 2^53 (its value a number, or, beyond a
// double's range with ParseOptions.hugeIntegers, that same text: the encoder writes a text
// equal to its member's digits bare). One table keeps the encoder at one
// lookup per object.
export const FLOAT = 0;
export type NumberKind = typeof FLOAT | string;
export const numberKinds = new WeakMap<object, Map<Key, NumberKind>>();

// Member order. A JS object enumerates its array-index keys ("0", "42") first, in numeric
// order, whatever order they were inserted in; JSON objects (and Python dicts) keep the
// order they were written in. Where an object has such a key, its real order is kept here:
// the reader records it for request objects, result builders for objects keyed by caller
// strings, and the Python-body encoder writes members in this order.
const keyOrders = new WeakMap<object, readonly string[]>();

/**
 * Whether some number directly in `container` has a side-table entry: without one, every
 * integral number there was an integer token within ±2^53 and prints as plain digits.
 */
export function hasNumberKinds(container: object): boolean {
  return numberKinds.has(container);
}

// Containers whose one entry is `key: FLOAT` share one table per key (every row of a data
// answer marks its `value`): a table of its own per row cost more than the row. A shared
// table is never written: a second entry gives the container a copy of its own first.
const sharedFloatTables = new Map<Key, Map<Key, NumberKind>>();
const sharedTables = new WeakSet<Map<Key, NumberKind>>();

function kindsOf(container: object): Map<Key, NumberKind> {
  let map = numberKinds.get(container);
  if (!map) numberKinds.set(container, (map = new Map<Key, NumberKind>()));
  else if (sharedTables.has(map)) numberKinds.set(container, (map = new Map(map)));
  return map;
}

export function markFloat(container: object, key: Key): void {
  const map = numberKinds.get(container);
  if (map === undefined) {
    let shared = sharedFloatTables.get(key);
    if (shared === undefined && sharedFloatTables.size < 64) {
      shared = new Map<Key, NumberKind>([[key, FLOAT]]);
      sharedFloatTables.set(key, shared);
      sharedTables.add(shared);
    }
    if (shared !== undefined) {
      numberKinds.set(container, shared);
      return;
    }
  } else if (map.get(key) === FLOAT) {
    return;
  }
  kindsOf(container).set(key, FLOAT);
}

export function isFloatToken(container: object, key: Key): boolean {
  const value = (container as Record<Key, unknown>)[key];
  if (typeof value !== 'number') return false;
  // ±Infinity (a literal beyond the double range, ParseOptions.infiniteNumbers) is a float
  // only if it was written as one: `1e400` is, a 400-digit integer is not.
  if (!Number.isInteger(value) && Number.isFinite(value)) return true;
  return numberKinds.get(container)?.get(key) === FLOAT;
}

/**
 * The exact digits of an integer token beyond ±2^53 at `container[key]` (the number there
 * is only its nearest double), or undefined for any other value.
 */
export function rawIntegerOf(container: object, key: Key): string | undefined {
  const kind = numberKinds.get(container)?.get(key);
  return typeof kind === 'string' ? kind : undefined;
}

/** Copies `source[sourceKey]` to `target[targetKey]`, keeping the number kind. */
export function copyMember(target: object, targetKey: Key, source: object, sourceKey: Key): void {
  const value = (source as Record<Key, unknown>)[sourceKey];
  (target as Record<Key, unknown>)[targetKey] = cloneJson(value);
  if (typeof value === 'number' && numberKinds.get(source)?.get(sourceKey) === FLOAT) markFloat(target, targetKey);
  // A number beyond 2^53, or the digits of one beyond a double's range (ParseOptions.hugeIntegers).
  const raw = rawIntegerOf(source, sourceKey);
  if (raw !== undefined) setRawInteger(target, targetKey, raw);
}

/** Gives `to`, a copy of `from` with the same keys, the number kinds recorded for `from`. */
export function moveNumberKinds(from: object, to: object): void {
  const map = numberKinds.get(from);
  if (map === undefined) return;
  numberKinds.set(to, map);
  numberKinds.delete(from);
}

export function setRawInteger(container: object, key: Key, digits: string): void {
  kindsOf(container).set(key, digits);
}

/** Deep copy of a JSON value that keeps every number's kind and every object's member order. */
export function cloneJson<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const out: unknown[] = new Array(value.length);
    for (let i = 0; i < value.length; i++) copyMember(out, i, value, i);
    return out as T;
  }
  const out: Record<string, unknown> = {};
  const order = keyOrders.get(value);
  for (const key of order ?? Object.keys(value)) {
    if (key === '__proto__') {
      Object.defineProperty(out, key, { value: undefined, enumerable: true, writable: true, configurable: true });
    }
    copyMember(out, key, value, key);
  }
  if (order !== undefined) keyOrders.set(out, order);
  return out as T;
}


/** Whether JS enumerates `key` ahead of the others: a canonical integer below 2^32 - 1. */
export function isArrayIndexKey(key: string): boolean {
  const n = key.length;
  if (n === 0 || n > 10) return false;
  const first = key.charCodeAt(0);
  if (first < 48 || first > 57 || (first === 48 && n > 1)) return false;
  for (let i = 1; i < n; i++) {
    const c = key.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return n < 10 || Number(key) <= 4294967294;
}

/**
 * Records the member order of `obj` (every own key exactly once). Only needed when a key is
 * an array index; the object must not gain or lose members afterwards.
 */
export function setKeyOrder(obj: object, keys: readonly string[]): void {
  keyOrders.set(obj, keys);
}

/** The members of `obj` in the order they were written (see setKeyOrder). */
export function keysInOrder(obj: object): readonly string[] {
  return keyOrders.get(obj) ?? Object.keys(obj);
}

/** The recorded order of `obj`, or undefined when its enumeration order is already right. */
export function recordedKeyOrder(obj: object): readonly string[] | undefined {
  return keyOrders.get(obj);
}
