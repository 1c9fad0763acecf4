// The strict reader's fast path: V8's JSON.parse builds the values, and one scan of the
// text, which allocates nothing, recovers what JSON.parse forgets.
//
// For text that JSON.parse accepts, the general reader (reader.ts) builds the same values
// except where one of these happens, and the scan finds each of them:
// - a duplicate key (JSON.parse keeps the last): an object whose written members outnumber
//   its own keys;
// - a key that JS enumerates ahead of the others ("7"), which the general reader keeps in
//   written order (or one starting with an escape that might spell a digit);
// - nesting deeper than the limit;
// - a number that is no finite double (JSON.parse gives Infinity for `1e400`);
// - the number kinds: an integral value written as a float (`3.0`, `1e2`) and an integer
//   beyond 2^53 (its exact digits), recorded in the same side tables as the general reader.
// The first four make the caller read the text again with the general reader, which gives
// the exact error (or, for the second, the recorded member order); the last is recorded here.
// Both readers produce the same doubles: V8 rounds decimal literals correctly, as Number()
// and the general reader do. test/core/json/native-reader.property.test.ts compares them.
//
// Member i of an object in the text is key i of Object.keys: both are insertion order once
// duplicates and index-like keys are ruled out (a duplicate found only at the object's end
// makes the whole result unused, so side-table entries made before then are harmless).
import { isArrayIndexKey, markFloat, setRawInteger } from './kinds.js';

/** Returned when the text needs the general reader. */
export const GENERAL = Symbol('general reader');

const enum Ch {
  Quote = 34, Plus = 43, Comma = 44, Minus = 45, Dot = 46, Zero = 48, Nine = 57, UpperE = 69, LBracket = 91,
  Backslash = 92, RBracket = 93, LowerE = 101, LowerF = 102, LowerN = 110, LowerT = 116, LBrace = 123, RBrace = 125,
}

// Integer tokens with at most this many digits are below 2^53 and need no entry.
const SAFE_DIGITS = 15;

type Container = Record<string, unknown> | unknown[];

/**
 * `text` read by JSON.parse, with its number kinds recorded, or GENERAL. `bytes` is the
 * UTF-8 form of `text`: every character the scan looks at is ASCII, and in UTF-8 an ASCII
 * byte is never part of a longer character, so the scan walks the bytes (typed-array reads
 * are cheaper than charCodeAt) and its positions need not match the text's.
 */
export function parseNative(text: string, bytes: Uint8Array, maxDepth: number): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return GENERAL;
  }
  return recoverKinds(bytes, value, maxDepth) ? value : GENERAL;
}

// Strings longer than this are searched for their closing quote natively.
const SHORT_STRING = 48;

/**
 * Walks `t` (which JSON.parse accepted as `value`) alongside `value`; records number
 * kinds; false where the general reader must read the text instead.
 */
function recoverKinds(t: Uint8Array, value: unknown, maxDepth: number): boolean {
  const n = t.length;
  // Per open container: the JS value, whether it is an array, the index of the current
  // member or element, and (objects, filled on demand) its keys.
  const containers: Container[] = [[value]];
  const isArray: boolean[] = [true];
  const index: number[] = [-1];
  const keys: (string[] | undefined)[] = [undefined];
  let depth = 0;
  let top: Container = containers[0];
  let inArray = true;
  // Inside an object, whether the next string is a key.
  let expectKey = false;
  let p = 0;
  while (p < n) {
    const c = t[p];
    if (c === Ch.Quote) {
      const end = afterString(t, p + 1);
      if (expectKey) {
        const first = t[p + 1];
        if (first === Ch.Backslash) return false;
        if (first >= Ch.Zero && first <= Ch.Nine) {
          // Dates and the like are ordinary keys; an escape anywhere might spell a digit.
          const key = Buffer.from(t.buffer, t.byteOffset + p + 1, end - p - 2).toString('latin1');
          if (key.includes('\\') || isArrayIndexKey(key)) return false;
        }
        index[depth]++;
        expectKey = false;
      } else if (inArray) {
        index[depth]++;
      }
      p = end;
    } else if (c === Ch.Comma) {
      expectKey = !inArray;
      p++;
    } else if (c === Ch.LBrace || c === Ch.LBracket) {
      if (depth >= maxDepth) return false;
      if (inArray) index[depth]++;
      const child = memberAt(top, inArray, index[depth], keys, depth);
      // Text and value disagree only after a duplicate or index-like key that the scan has
      // not reached yet: the general reader will read the text.
      if (typeof child !== 'object' || child === null || Array.isArray(child) !== (c === Ch.LBracket)) return false;
      depth++;
      containers[depth] = top = child as Container;
      inArray = isArray[depth] = c === Ch.LBracket;
      index[depth] = -1;
      keys[depth] = undefined;
      expectKey = !inArray;
      p++;
    } else if (c === Ch.RBrace || c === Ch.RBracket) {
      // An object with fewer own keys than written members had a duplicate key.
      if (c === Ch.RBrace && index[depth] + 1 !== (keys[depth]?.length ?? countKeys(top))) return false;
      keys[depth] = undefined;
      depth--;
      top = containers[depth];
      inArray = isArray[depth];
      expectKey = false;
      p++;
    } else if (c === Ch.Minus || (c >= Ch.Zero && c <= Ch.Nine)) {
      if (inArray) index[depth]++;
      const start = p;
      if (c === Ch.Minus) p++;
      const intStart = p;
      let d = t[p];
      while (d >= Ch.Zero && d <= Ch.Nine) d = t[++p];
      const intDigits = p - intStart;
      // Whether the token may be integral though written as a float: no non-zero
      // fractional digit (`3.0`), more digits than a double holds, whose nearest double may
      // be a whole number (`3.0000000000000000001` is 3), or an exponent (`1e2`, `1.5e1`).
      // With at most 15 digits and a non-zero fractional one, the value is never whole.
      let maybeIntegralFloat = false;
      let isFloat = false;
      if (d === Ch.Dot) {
        isFloat = true;
        maybeIntegralFloat = true;
        const fractionStart = p + 1;
        d = t[++p];
        while (d >= Ch.Zero && d <= Ch.Nine) {
          if (d !== Ch.Zero) maybeIntegralFloat = false;
          d = t[++p];
        }
        if (intDigits + (p - fractionStart) > SAFE_DIGITS) maybeIntegralFloat = true;
      }
      if (d === Ch.LowerE || d === Ch.UpperE) {
        isFloat = true;
        maybeIntegralFloat = true;
        d = t[++p];
        if (d === Ch.Minus || d === Ch.Plus) d = t[++p];
        while (d >= Ch.Zero && d <= Ch.Nine) d = t[++p];
      }
      if (maybeIntegralFloat || intDigits > SAFE_DIGITS) {
        const v = memberAt(top, inArray, index[depth], keys, depth) as number;
        if (!Number.isFinite(v)) return false;
        const key = inArray ? index[depth] : (keys[depth] as string[])[index[depth]];
        if (isFloat) {
          if (Number.isInteger(v)) markFloat(top, key);
        } else if (!Number.isSafeInteger(v)) {
          const token = Buffer.from(t.buffer, t.byteOffset + start, p - start).toString('latin1');
          setRawInteger(top, key, token.startsWith('-0') ? '0' : token);
        }
      }
    } else if (c === Ch.LowerT || c === Ch.LowerF || c === Ch.LowerN) {
      if (inArray) index[depth]++;
      p += c === Ch.LowerF ? 5 : 4;
    } else {
      // Whitespace and ':'.
      p++;
    }
  }
  return true;
}

/** The position after the closing quote of the string whose contents start at `p`. */
function afterString(t: Uint8Array, p: number): number {
  const end = Math.min(t.length, p + SHORT_STRING);
  while (p < end) {
    const c = t[p];
    if (c === Ch.Quote) return p + 1;
    // A backslash starts an escape; the byte after it is never the closing quote.
    p += c === Ch.Backslash ? 2 : 1;
  }
  for (;;) {
    const q = t.indexOf(Ch.Quote, p);
    // A quote after an odd run of backslashes is escaped (p itself may follow a backslash
    // only if the loop above stepped over its escape, so the run starts at or after p).
    let b = q;
    while (b > p && t[b - 1] === Ch.Backslash) b--;
    if ((q - b) % 2 === 0) return q + 1;
    p = q + 1;
  }
}

/** The value of member `i` of `container` (for objects, key i of Object.keys). */
function memberAt(container: Container, inArray: boolean, i: number, keys: (string[] | undefined)[], depth: number): unknown {
  if (inArray) return (container as unknown[])[i];
  let own = keys[depth];
  if (own === undefined) keys[depth] = own = Object.keys(container);
  return (container as Record<string, unknown>)[own[i]];
}

/** Own enumerable keys of a plain object, without allocating (JSON.parse objects inherit none). */
function countKeys(obj: object): number {
  let count = 0;
  for (const key in obj) if (key !== undefined) count++;
  return count;
}
