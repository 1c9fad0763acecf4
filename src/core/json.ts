// Strict JSON reader and the canonical encoders.
//
// Why not JSON.parse: it silently keeps the last of duplicate keys, and it forgets whether
// a number was written `3` or `3.0`. Both matter here: duplicates are ambiguous input, and
// the analysis digests (Python `json.dumps` of the request) and the archive's documents
// print integers and floats differently. The lexical kind of integral floats is kept in a
// side table keyed by the containing object, so domain code still sees plain numbers.

import { compareCodePoints, loneSurrogateIndex } from './strings.js';

export class JsonSyntaxError extends Error {
  constructor(message: string, readonly offset: number) {
    super(`${message} at offset ${offset}`);
    this.name = 'JsonSyntaxError';
  }
}

export class LoneSurrogateError extends Error {
  constructor(readonly index: number) {
    super(`text contains an unpaired UTF-16 surrogate at index ${index}; it cannot be encoded as UTF-8`);
    this.name = 'LoneSurrogateError';
  }
}

type Key = string | number;

// Integral values that were written as floats (`3.0`, `1e2`, `-0.0`). Non-integral
// numbers are always floats, so they need no entry.
const floatMarks = new WeakMap<object, Set<Key>>();
// Integer tokens beyond 2^53, whose digits a double cannot hold.
const rawIntegers = new WeakMap<object, Map<Key, string>>();

export function markFloat(container: object, key: Key): void {
  let set = floatMarks.get(container);
  if (!set) floatMarks.set(container, (set = new Set()));
  set.add(key);
}

export function isFloatToken(container: object, key: Key): boolean {
  const value = (container as Record<Key, unknown>)[key];
  if (typeof value !== 'number') return false;
  if (!Number.isInteger(value)) return true;
  return floatMarks.get(container)?.has(key) ?? false;
}

function rawIntegerOf(container: object, key: Key): string | undefined {
  return rawIntegers.get(container)?.get(key);
}

/** Copies `source[sourceKey]` to `target[targetKey]`, keeping the number kind. */
export function copyMember(target: object, targetKey: Key, source: object, sourceKey: Key): void {
  const value = (source as Record<Key, unknown>)[sourceKey];
  (target as Record<Key, unknown>)[targetKey] = cloneJson(value);
  if (typeof value === 'number') {
    if (floatMarks.get(source)?.has(sourceKey)) markFloat(target, targetKey);
    const raw = rawIntegerOf(source, sourceKey);
    if (raw !== undefined) setRawInteger(target, targetKey, raw);
  }
}

function setRawInteger(container: object, key: Key, digits: string): void {
  let map = rawIntegers.get(container);
  if (!map) rawIntegers.set(container, (map = new Map()));
  map.set(key, digits);
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

// ---------------------------------------------------------------------------------------
// Reader

export interface ParseOptions {
  /** Deepest allowed nesting of arrays/objects (default 512). */
  maxDepth?: number;
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** Strict JSON → plain JS values (see the file comment for what "strict" adds). */
export function parseStrictJson(input: Uint8Array | string, options: ParseOptions = {}): unknown {
  let text: string;
  if (typeof input === 'string') {
    text = input;
  } else {
    try {
      text = utf8.decode(input); // a leading UTF-8 BOM is dropped, as Python's json.loads does
    } catch {
      throw new JsonSyntaxError('body is not valid UTF-8', 0);
    }
  }
  return new Parser(text, options.maxDepth ?? 512).parseDocument();
}

const enum Ch {
  Tab = 9, Lf = 10, Cr = 13, Space = 32, Quote = 34, Plus = 43, Comma = 44, Minus = 45, Dot = 46,
  Zero = 48, Nine = 57, Colon = 58, UpperE = 69, LBracket = 91, Backslash = 92, RBracket = 93,
  LowerE = 101, LBrace = 123, RBrace = 125,
}

// Python refuses integer literals longer than this many digits (int max_str_digits).
const MAX_INTEGER_DIGITS = 4300;

class Parser {
  private pos = 0;
  private depth = 0;

  constructor(private readonly text: string, private readonly maxDepth: number) {}

  parseDocument(): unknown {
    this.skipWhitespace();
    const holder: unknown[] = [undefined];
    this.parseValueInto(holder, 0);
    this.skipWhitespace();
    if (this.pos !== this.text.length) this.fail('unexpected data after the JSON value');
    const value = holder[0];
    // A top-level number keeps its kind on a fresh holder object callers can query.
    return value;
  }

  private fail(message: string): never {
    throw new JsonSyntaxError(message, this.pos);
  }

  private skipWhitespace(): void {
    const t = this.text;
    let p = this.pos;
    while (p < t.length) {
      const c = t.charCodeAt(p);
      if (c === Ch.Space || c === Ch.Lf || c === Ch.Cr || c === Ch.Tab) p++;
      else break;
    }
    this.pos = p;
  }

  /** Parses one value and stores it at container[key], recording its number kind. */
  private parseValueInto(container: object, key: Key): void {
    const t = this.text;
    if (this.pos >= t.length) this.fail('unexpected end of input');
    const c = t.charCodeAt(this.pos);
    let value: unknown;
    switch (c) {
      case Ch.LBrace: value = this.parseObject(); break;
      case Ch.LBracket: value = this.parseArray(); break;
      case Ch.Quote: value = this.parseString(); break;
      case 116: this.expectWord('true'); value = true; break;
      case 102: this.expectWord('false'); value = false; break;
      case 110: this.expectWord('null'); value = null; break;
      default:
        if (c === Ch.Minus || (c >= Ch.Zero && c <= Ch.Nine)) {
          this.parseNumberInto(container, key);
          return;
        }
        this.fail(c === 78 || c === 73 ? 'non-finite number literals are not JSON' : 'unexpected character');
    }
    if (key === '__proto__') {
      Object.defineProperty(container, key, { value, enumerable: true, writable: true, configurable: true });
    } else {
      (container as Record<Key, unknown>)[key] = value;
    }
  }

  private expectWord(word: string): void {
    if (this.text.startsWith(word, this.pos)) this.pos += word.length;
    else this.fail('invalid literal');
  }

  private enter(): void {
    if (++this.depth > this.maxDepth) this.fail('nesting is too deep');
  }

  private parseObject(): Record<string, unknown> {
    this.enter();
    const t = this.text;
    const obj: Record<string, unknown> = {};
    this.pos++;
    this.skipWhitespace();
    if (t.charCodeAt(this.pos) === Ch.RBrace) {
      this.pos++;
      this.depth--;
      return obj;
    }
    for (;;) {
      if (t.charCodeAt(this.pos) !== Ch.Quote) this.fail('object keys must be strings');
      const keyStart = this.pos;
      const key = this.parseString();
      if (Object.hasOwn(obj, key)) {
        this.pos = keyStart;
        this.fail(`duplicate object key ${JSON.stringify(key)}`);
      }
      this.skipWhitespace();
      if (t.charCodeAt(this.pos) !== Ch.Colon) this.fail("expected ':' after an object key");
      this.pos++;
      this.skipWhitespace();
      this.parseValueInto(obj, key);
      this.skipWhitespace();
      const c = t.charCodeAt(this.pos);
      if (c === Ch.Comma) {
        this.pos++;
        this.skipWhitespace();
      } else if (c === Ch.RBrace) {
        this.pos++;
        break;
      } else {
        this.fail("expected ',' or '}' in an object");
      }
    }
    this.depth--;
    return obj;
  }

  private parseArray(): unknown[] {
    this.enter();
    const t = this.text;
    const arr: unknown[] = [];
    this.pos++;
    this.skipWhitespace();
    if (t.charCodeAt(this.pos) === Ch.RBracket) {
      this.pos++;
      this.depth--;
      return arr;
    }
    for (let i = 0; ; i++) {
      this.parseValueInto(arr, i);
      this.skipWhitespace();
      const c = t.charCodeAt(this.pos);
      if (c === Ch.Comma) {
        this.pos++;
        this.skipWhitespace();
      } else if (c === Ch.RBracket) {
        this.pos++;
        break;
      } else {
        this.fail("expected ',' or ']' in an array");
      }
    }
    this.depth--;
    return arr;
  }

  private parseString(): string {
    const t = this.text;
    const start = this.pos + 1;
    let p = start;
    // Fast path: no escapes, no control characters.
    for (;;) {
      if (p >= t.length) {
        this.pos = p;
        this.fail('unterminated string');
      }
      const c = t.charCodeAt(p);
      if (c === Ch.Quote) {
        this.pos = p + 1;
        return t.slice(start, p);
      }
      if (c === Ch.Backslash) break;
      if (c < 0x20) {
        this.pos = p;
        this.fail('control character inside a string');
      }
      p++;
    }
    let out = t.slice(start, p);
    for (;;) {
      if (p >= t.length) {
        this.pos = p;
        this.fail('unterminated string');
      }
      const c = t.charCodeAt(p);
      if (c === Ch.Quote) {
        this.pos = p + 1;
        return out;
      }
      if (c < 0x20) {
        this.pos = p;
        this.fail('control character inside a string');
      }
      if (c !== Ch.Backslash) {
        const next = nextSpecial(t, p);
        out += t.slice(p, next);
        p = next;
        continue;
      }
      const e = t.charCodeAt(p + 1);
      switch (e) {
        case 34: out += '"'; break;
        case 92: out += '\\'; break;
        case 47: out += '/'; break;
        case 98: out += '\b'; break;
        case 102: out += '\f'; break;
        case 110: out += '\n'; break;
        case 114: out += '\r'; break;
        case 116: out += '\t'; break;
        case 117: {
          const hex = t.slice(p + 2, p + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) {
            this.pos = p;
            this.fail('invalid \\u escape');
          }
          out += String.fromCharCode(parseInt(hex, 16));
          p += 6;
          continue;
        }
        default:
          this.pos = p;
          this.fail('invalid escape sequence');
      }
      p += 2;
    }
  }

  private parseNumberInto(container: object, key: Key): void {
    const t = this.text;
    const start = this.pos;
    let p = start;
    if (t.charCodeAt(p) === Ch.Minus) p++;
    const intStart = p;
    let c = t.charCodeAt(p);
    if (c === Ch.Zero) {
      p++;
    } else if (c >= 49 && c <= Ch.Nine) {
      while (p < t.length && (c = t.charCodeAt(p)) >= Ch.Zero && c <= Ch.Nine) p++;
    } else {
      this.pos = p;
      this.fail(c === 73 ? 'non-finite number literals are not JSON' : 'invalid number');
    }
    const intDigits = p - intStart;
    let isFloat = false;
    if (t.charCodeAt(p) === Ch.Dot) {
      isFloat = true;
      p++;
      const fracStart = p;
      while (p < t.length && (c = t.charCodeAt(p)) >= Ch.Zero && c <= Ch.Nine) p++;
      if (p === fracStart) {
        this.pos = p;
        this.fail('invalid number: digits required after the decimal point');
      }
    }
    c = t.charCodeAt(p);
    if (c === Ch.LowerE || c === Ch.UpperE) {
      isFloat = true;
      p++;
      c = t.charCodeAt(p);
      if (c === Ch.Plus || c === Ch.Minus) p++;
      const expStart = p;
      while (p < t.length && (c = t.charCodeAt(p)) >= Ch.Zero && c <= Ch.Nine) p++;
      if (p === expStart) {
        this.pos = p;
        this.fail('invalid number: digits required in the exponent');
      }
    }
    // Python rejects a leading zero followed by digits, e.g. 01.
    if (intDigits > 1 && t.charCodeAt(intStart) === Ch.Zero) {
      this.pos = start;
      this.fail('invalid number: leading zero');
    }
    const token = t.slice(start, p);
    this.pos = p;
    const value = Number(token);
    if (!Number.isFinite(value)) {
      this.pos = start;
      this.fail('number literal overflows a double');
    }
    (container as Record<Key, unknown>)[key] = value;
    if (isFloat) {
      if (Number.isInteger(value)) markFloat(container, key);
    } else if (!Number.isSafeInteger(value)) {
      if (intDigits > MAX_INTEGER_DIGITS) {
        this.pos = start;
        this.fail('integer literal has too many digits');
      }
      setRawInteger(container, key, token.startsWith('-0') ? '0' : token);
    }
  }
}

function nextSpecial(t: string, from: number): number {
  let p = from;
  while (p < t.length) {
    const c = t.charCodeAt(p);
    if (c === Ch.Quote || c === Ch.Backslash || c < 0x20) break;
    p++;
  }
  return p;
}

// ---------------------------------------------------------------------------------------
// Number formatting

/**
 * Python's `repr(float)`: shortest round-trip digits, positional for decimal exponents
 * -4 ≤ e < 16 (always with a fractional part), otherwise `d.ddde±XX`.
 */
export function pyFloatRepr(n: number): string {
  if (!Number.isFinite(n)) throw new RangeError('non-finite numbers have no JSON form');
  if (n === 0) return Object.is(n, -0) ? '-0.0' : '0.0';
  const sci = Math.abs(n).toExponential(); // shortest digits, e.g. "1.2345e+2"
  const sign = n < 0 ? '-' : '';
  const ePos = sci.indexOf('e');
  const mantissa = sci.slice(0, ePos);
  const exponent = Number(sci.slice(ePos + 1));
  const digits = mantissa.replace('.', '');
  if (exponent >= -4 && exponent < 16) {
    if (exponent < 0) return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`;
    const intLen = exponent + 1;
    if (digits.length <= intLen) return `${sign}${digits}${'0'.repeat(intLen - digits.length)}.0`;
    return `${sign}${digits.slice(0, intLen)}.${digits.slice(intLen)}`;
  }
  const expText = `${exponent < 0 ? '-' : '+'}${String(Math.abs(exponent)).padStart(2, '0')}`;
  return `${sign}${mantissa}e${expText}`;
}

function formatInteger(n: number): string {
  if (Object.is(n, -0)) return '0';
  return Math.abs(n) < 1e21 ? String(n) : BigInt(n).toString();
}

function formatNumber(container: object | null, key: Key, n: number): string {
  if (!Number.isFinite(n)) throw new RangeError('non-finite numbers have no JSON form');
  if (!Number.isInteger(n)) return pyFloatRepr(n);
  if (container !== null) {
    if (floatMarks.get(container)?.has(key)) return pyFloatRepr(n);
    const raw = rawIntegerOf(container, key);
    if (raw !== undefined) return raw;
  }
  return formatInteger(n);
}

// ---------------------------------------------------------------------------------------
// Encoders

function quoteUnicode(s: string): string {
  const bad = loneSurrogateIndex(s);
  if (bad !== -1) throw new LoneSurrogateError(bad);
  return JSON.stringify(s);
}

function quoteAscii(s: string): string {
  const bad = loneSurrogateIndex(s);
  if (bad !== -1) throw new LoneSurrogateError(bad);
  return JSON.stringify(s).replace(/[\u007f-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

interface Layout {
  sortKeys: boolean;
  ascii: boolean;
  /** null: single line; otherwise spaces per level. */
  indent: number | null;
  itemSeparator: string;
  keySeparator: string;
}

function sortedKeys(obj: object): string[] {
  return Object.keys(obj).sort(compareCodePoints);
}

function encodeWith(value: unknown, layout: Layout): string {
  const quote = layout.ascii ? quoteAscii : quoteUnicode;
  const parts: string[] = [];
  const write = (container: object | null, key: Key, v: unknown, level: number): void => {
    if (v === null || v === undefined) {
      parts.push('null');
      return;
    }
    switch (typeof v) {
      case 'string':
        parts.push(quote(v));
        return;
      case 'number':
        parts.push(formatNumber(container, key, v));
        return;
      case 'boolean':
        parts.push(v ? 'true' : 'false');
        return;
      case 'bigint':
        parts.push(v.toString());
        return;
      case 'object':
        break;
      default:
        throw new TypeError(`cannot encode a ${typeof v} as JSON`);
    }
    const obj = v as object;
    const open = Array.isArray(obj) ? '[' : '{';
    const close = Array.isArray(obj) ? ']' : '}';
    const keys: Key[] = Array.isArray(obj)
      ? Array.from({ length: obj.length }, (_, i) => i)
      : layout.sortKeys ? sortedKeys(obj) : Object.keys(obj);
    if (keys.length === 0) {
      parts.push(open + close);
      return;
    }
    parts.push(open);
    const inner = layout.indent === null ? '' : '\n' + ' '.repeat(layout.indent * (level + 1));
    const outer = layout.indent === null ? '' : '\n' + ' '.repeat(layout.indent * level);
    for (let i = 0; i < keys.length; i++) {
      if (i > 0) parts.push(layout.itemSeparator);
      parts.push(inner);
      const k = keys[i];
      if (typeof k === 'string') parts.push(quote(k), layout.keySeparator);
      write(obj, k, (obj as Record<Key, unknown>)[k], level + 1);
    }
    parts.push(outer, close);
  };
  write(null, 0, value, 0);
  return parts.join('');
}

const DIGEST: Layout = { sortKeys: true, ascii: false, indent: null, itemSeparator: ',', keySeparator: ':' };
const PYTHON_BODY: Layout = { sortKeys: false, ascii: false, indent: null, itemSeparator: ', ', keySeparator: ': ' };
const DOCUMENT: Layout = { sortKeys: true, ascii: true, indent: 2, itemSeparator: ',', keySeparator: ': ' };

/** `json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=False)`. */
export function encodeDigestJson(value: unknown): string {
  return encodeWith(value, DIGEST);
}

/** Python's default `json.dumps(v, ensure_ascii=False)`: insertion order, `", "`/`": "`. */
export function encodePythonBody(value: unknown): string {
  return encodeWith(value, PYTHON_BODY);
}

/** Sorted keys, 2-space indent, ASCII only, one trailing newline: the archive's documents. */
export function encodeCanonicalDocument(value: unknown): string {
  return encodeWith(value, DOCUMENT) + '\n';
}
