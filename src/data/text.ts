// Reading untrusted source documents the way the upstream projection does: members are
// looked up as own properties only (a document key such as `constructor` must never reach
// Object.prototype), scalar fields become text as Python's str() would print them, and a
// value is a number only when it is a finite JSON number (booleans are not numbers).

import { isFloatToken, pyFloatRepr } from '../core/json.js';
import { numberKinds } from '../core/json/kinds.js';

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `node[key]` when `node` is an object holding that key itself; otherwise undefined. */
export function member(node: unknown, key: string): unknown {
  return isObject(node) && Object.hasOwn(node, key) ? node[key] : undefined;
}

/** The member when it is an object, else an empty object (absent parts read as nothing). */
export function objectAt(node: unknown, key: string): JsonObject {
  const value = member(node, key);
  return isObject(value) ? value : {};
}

/**
 * Python `str(value)` for scalars, null for null/absent, objects and arrays: numbers keep
 * their written kind (`5` vs `5.0`, `1e-05`), integers beyond 2^53 their exact digits,
 * booleans print `True`/`False`. A lone surrogate becomes U+FFFD (UTF-8 cannot carry it).
 */
export function textAt(container: unknown, key: string | number): string | null {
  if (typeof container !== 'object' || container === null) return null;
  if (!Object.hasOwn(container, key)) return null;
  const value = (container as Record<string | number, unknown>)[key];
  if (typeof value === 'string') return value.isWellFormed() ? value : value.toWellFormed();
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number') {
    if (isFloatToken(container, key)) return pyFloatRepr(value);
    const raw = numberKinds.get(container)?.get(key);
    return typeof raw === 'string' ? raw : String(value);
  }
  return null;
}

/** A finite JSON number at `container[key]`, else null (booleans, strings, absent). */
export function numberAt(container: unknown, key: string | number): number | null {
  if (typeof container !== 'object' || container === null) return null;
  if (!Object.hasOwn(container, key)) return null;
  const value = (container as Record<string | number, unknown>)[key];
  if (typeof value !== 'number' || !Number.isFinite(value)) return null;
  // The integer `-0` is Python's int 0, whose float() is 0.0; only the float `-0.0` is negative.
  return Object.is(value, -0) && !isFloatToken(container, key) ? 0 : value;
}

/** RFC 6901 pointer from path segments. */
export function pointer(...segments: (string | number)[]): string {
  let out = '';
  for (const segment of segments) out += '/' + String(segment).replace(/~/g, '~0').replace(/\//g, '~1');
  return out;
}

// Python's str.strip() removes these (str.isspace()); JS trim() differs on U+001C–U+001F,
// U+0085 and U+FEFF.
const PY_SPACE = '\t\n\u000b\u000c\r\u001c\u001d\u001e\u001f \u0085\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000';

export function pyStrip(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && PY_SPACE.includes(s[start])) start++;
  while (end > start && PY_SPACE.includes(s[end - 1])) end--;
  return s.slice(start, end);
}

/** The first `n` code points of `s` (Python `s[:n]`). */
export function firstCodePoints(s: string, n: number): string {
  let units = 0;
  for (let count = 0; count < n && units < s.length; count++) {
    const c = s.charCodeAt(units);
    units += c >= 0xd800 && c <= 0xdbff && units + 1 < s.length ? 2 : 1;
  }
  return s.slice(0, units);
}
