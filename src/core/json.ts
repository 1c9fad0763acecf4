// Strict JSON reader and the canonical encoders.
//
// Why not JSON.parse: it silently keeps the last of duplicate keys, and it forgets whether
// a number was written `3` or `3.0`. Both matter here: duplicates are ambiguous input, and
// the analysis digests (Python `json.dumps` of the request) and the archive's documents
// print integers and floats differently. The lexical kind of integral floats is kept in a
// side table keyed by the containing object, so domain code still sees plain numbers.

import { createHash } from 'node:crypto';
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

// One side table per container: for a key, either FLOAT (an integral value written as a
// float: `3.0`, `1e2`, `-0.0` — non-integral numbers are always floats and need no entry)
// or the exact digits of an integer token beyond 2^53. One table keeps the encoder at one
// lookup per object.
const FLOAT = 0;
type NumberKind = typeof FLOAT | string;
const numberKinds = new WeakMap<object, Map<Key, NumberKind>>();

function kindsOf(container: object): Map<Key, NumberKind> {
  let map = numberKinds.get(container);
  if (!map) numberKinds.set(container, (map = new Map()));
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

function setRawInteger(container: object, key: Key, digits: string): void {
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

  // Keys seen at each nesting depth, by position in the object. Arrays of records repeat
  // the same keys in the same order, so the previous object's key usually predicts the
  // next one; a hit reuses the interned string instead of slicing a new copy.
  private readonly keysByDepth: string[][] = [];

  private readKey(depth: number, index: number): string {
    const t = this.text;
    let seen = this.keysByDepth[depth];
    if (seen === undefined) this.keysByDepth[depth] = seen = [];
    const guess = seen[index];
    const start = this.pos + 1;
    if (guess !== undefined && t.charCodeAt(start + guess.length) === Ch.Quote && t.startsWith(guess, start)) {
      // `guess` contains no quote or backslash (it was stored only when read verbatim).
      this.pos = start + guess.length + 1;
      return guess;
    }
    const key = this.parseString();
    if (this.pos - start - 1 === key.length) seen[index] = key;
    return key;
  }

  private parseObject(): Record<string, unknown> {
    this.enter();
    const t = this.text;
    const depth = this.depth;
    const obj: Record<string, unknown> = {};
    this.pos++;
    this.skipWhitespace();
    if (t.charCodeAt(this.pos) === Ch.RBrace) {
      this.pos++;
      this.depth--;
      return obj;
    }
    for (let index = 0; ; index++) {
      if (t.charCodeAt(this.pos) !== Ch.Quote) this.fail('object keys must be strings');
      const keyStart = this.pos;
      const key = this.readKey(depth, index);
      if (index > 0 && Object.hasOwn(obj, key)) {
        this.pos = keyStart;
        this.fail(`duplicate object key ${JSON.stringify(key)}`);
      }
      if (t.charCodeAt(this.pos) !== Ch.Colon) {
        this.skipWhitespace();
        if (t.charCodeAt(this.pos) !== Ch.Colon) this.fail("expected ':' after an object key");
      }
      this.pos++;
      this.skipWhitespace();
      this.parseValueInto(obj, key);
      let c = t.charCodeAt(this.pos);
      if (c !== Ch.Comma && c !== Ch.RBrace) {
        this.skipWhitespace();
        c = t.charCodeAt(this.pos);
      }
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
    // Fast path: a run without escapes or control characters, found by the regex engine.
    PLAIN_RUN.lastIndex = start;
    PLAIN_RUN.test(t);
    let p = PLAIN_RUN.lastIndex;
    if (t.charCodeAt(p) === Ch.Quote) {
      this.pos = p + 1;
      return t.slice(start, p);
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
        PLAIN_RUN.lastIndex = p;
        PLAIN_RUN.test(t);
        out += t.slice(p, PLAIN_RUN.lastIndex);
        p = PLAIN_RUN.lastIndex;
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
    const negative = t.charCodeAt(p) === Ch.Minus;
    if (negative) p++;
    const intStart = p;
    let c = t.charCodeAt(p);
    // While digits are few, the value is accumulated exactly on the way (an integer
    // below 2^53 divided by an exact power of ten is correctly rounded, as Number()).
    let mantissa = 0;
    let digits = 0;
    if (c === Ch.Zero) {
      p++;
    } else if (c >= 49 && c <= Ch.Nine) {
      while (p < t.length && (c = t.charCodeAt(p)) >= Ch.Zero && c <= Ch.Nine) {
        mantissa = mantissa * 10 + (c - Ch.Zero);
        digits++;
        p++;
      }
    } else {
      this.pos = p;
      this.fail(c === 73 ? 'non-finite number literals are not JSON' : 'invalid number');
    }
    const intDigits = p - intStart;
    let isFloat = false;
    let fraction = 0;
    if (t.charCodeAt(p) === Ch.Dot) {
      isFloat = true;
      p++;
      const fracStart = p;
      while (p < t.length && (c = t.charCodeAt(p)) >= Ch.Zero && c <= Ch.Nine) {
        mantissa = mantissa * 10 + (c - Ch.Zero);
        if (mantissa !== 0) digits++;
        p++;
      }
      fraction = p - fracStart;
      if (fraction === 0) {
        this.pos = p;
        this.fail('invalid number: digits required after the decimal point');
      }
    }
    let exponent = false;
    c = t.charCodeAt(p);
    if (c === Ch.LowerE || c === Ch.UpperE) {
      isFloat = true;
      exponent = true;
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
    this.pos = p;
    let value: number;
    if (!exponent && digits <= 15 && fraction <= 22) {
      value = fraction === 0 ? mantissa : mantissa / POWERS_OF_TEN[fraction];
      if (negative) value = -value;
    } else {
      value = Number(t.slice(start, p));
      if (!Number.isFinite(value)) {
        this.pos = start;
        this.fail('number literal overflows a double');
      }
    }
    (container as Record<Key, unknown>)[key] = value;
    if (isFloat) {
      if (Number.isInteger(value)) markFloat(container, key);
    } else if (!Number.isSafeInteger(value)) {
      if (intDigits > MAX_INTEGER_DIGITS) {
        this.pos = start;
        this.fail('integer literal has too many digits');
      }
      const token = t.slice(start, p);
      setRawInteger(container, key, token.startsWith('-0') ? '0' : token);
    }
  }
}

const POWERS_OF_TEN = Array.from({ length: 23 }, (_, i) => Number(`1e${i}`));

// Characters that may appear in a string without any special handling.
const PLAIN_RUN = /[^"\\\u0000-\u001f]*/y;

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

// ---------------------------------------------------------------------------------------
// Encoders

// Strings that need neither escaping nor a surrogate check: the common case.
const NEEDS_CARE = /["\\\u0000-\u001f\ud800-\udfff]/;
// Characters JSON must escape.
const ESCAPED = /["\\\u0000-\u001f]/;

function quoteUnicode(s: string): string {
  if (!NEEDS_CARE.test(s)) return '"' + s + '"';
  const bad = loneSurrogateIndex(s);
  if (bad !== -1) throw new LoneSurrogateError(bad);
  return JSON.stringify(s);
}

const NON_ASCII = /[\u007f-\uffff]/;

function quoteAscii(s: string): string {
  const quoted = quoteUnicode(s);
  if (!NON_ASCII.test(quoted)) return quoted;
  return quoted.replace(/[\u007f-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

interface Layout {
  sortKeys: boolean;
  ascii: boolean;
  /** null: single line; otherwise spaces per level. */
  indent: number | null;
  itemSeparator: string;
  keySeparator: string;
}

// Objects of one shape (same keys, same insertion order) share one sorted key list; a
// few recent shapes are remembered and matched key by key (keys are interned strings).
const recentShapes: Array<{ keys: string[]; sorted: string[] }> = [];

function sameKeys(a: string[], b: string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function sortedKeys(keys: string[]): string[] {
  if (keys.length < 2) return keys;
  for (let i = 0; i < recentShapes.length; i++) {
    const shape = recentShapes[i];
    if (sameKeys(shape.keys, keys)) return shape.sorted;
  }
  const sorted = [...keys].sort(compareCodePoints);
  recentShapes.unshift({ keys, sorted });
  if (recentShapes.length > 16) recentShapes.pop();
  return sorted;
}

/** Python repr of a float, with a fast path where JS and Python print alike. */
function floatText(n: number): string {
  const a = n < 0 ? -n : n;
  if (a >= 1e-4 && a < 1e16) {
    // In this range both print positional shortest digits; only integral values differ.
    return Number.isInteger(n) ? String(n) + '.0' : String(n);
  }
  return pyFloatRepr(n);
}

// Output goes into a growing byte buffer (or straight into a hash), not into a string
// built by concatenation: an 8 MB request digest would otherwise create millions of
// short-lived string pieces and spend most of its time in the garbage collector.
interface ByteTarget {
  update(chunk: Buffer): void;
}

const MAX_CHUNK = 1 << 16;

class ByteSink {
  // Starts small (many encodes are a few hundred bytes) and doubles up to 64 KiB, after
  // which full chunks go to the target.
  private buf = Buffer.allocUnsafe(256);
  private len = 0;
  private readonly chunks: Buffer[] = [];

  constructor(private readonly target: ByteTarget | null) {}

  private flush(): void {
    if (this.len === 0) return;
    if (this.target) this.target.update(this.buf.subarray(0, this.len));
    else this.chunks.push(Buffer.from(this.buf.subarray(0, this.len)));
    this.len = 0;
  }

  private reserve(bytes: number): void {
    const needed = this.len + bytes;
    if (needed <= this.buf.length) return;
    if (this.buf.length < MAX_CHUNK) {
      let size = this.buf.length * 2;
      while (size < needed && size < MAX_CHUNK) size *= 2;
      if (size >= needed) {
        const grown = Buffer.allocUnsafe(size);
        this.buf.copy(grown, 0, 0, this.len);
        this.buf = grown;
        return;
      }
    }
    this.flush();
    if (bytes > this.buf.length) this.buf = Buffer.allocUnsafe(Math.max(bytes, MAX_CHUNK));
  }

  /** Text known to be ASCII and short (punctuation, numbers, indentation). */
  ascii(text: string): void {
    const n = text.length;
    this.reserve(n);
    const buf = this.buf;
    let len = this.len;
    for (let i = 0; i < n; i++) buf[len++] = text.charCodeAt(i);
    this.len = len;
  }

  /**
   * Writes `"text"` when every character is printable ASCII other than `"` and `\\`
   * (no escaping needed in any layout); returns false, writing nothing, otherwise.
   */
  plainQuoted(text: string): boolean {
    const n = text.length;
    this.reserve(n + 2);
    const buf = this.buf;
    let len = this.len;
    buf[len++] = 0x22;
    for (let i = 0; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) return false;
      buf[len++] = c;
    }
    buf[len++] = 0x22;
    this.len = len;
    return true;
  }

  bytes(data: Uint8Array): void {
    const n = data.length;
    this.reserve(n);
    const buf = this.buf;
    let len = this.len;
    for (let i = 0; i < n; i++) buf[len++] = data[i];
    this.len = len;
  }

  byte(b: number): void {
    if (this.len === this.buf.length) this.flush();
    this.buf[this.len++] = b;
  }

  text(text: string): void {
    if (text.length < 32) {
      let ascii = true;
      for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) { ascii = false; break; }
      if (ascii) {
        this.ascii(text);
        return;
      }
    }
    this.reserve(text.length * 3);
    this.len += this.buf.write(text, this.len, 'utf8');
  }

  finish(): Buffer {
    this.flush();
    return this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks);
  }

  end(): void {
    this.flush();
  }
}

const QUOTE = 0x22;

class Encoder {
  private readonly newline: string[] = [];

  constructor(private readonly layout: Layout, private readonly sink: ByteSink) {}

  private indentFor(level: number): string {
    const cached = this.newline[level];
    if (cached !== undefined) return cached;
    const text = this.layout.indent === null ? '' : '\n' + ' '.repeat(this.layout.indent * level);
    this.newline[level] = text;
    return text;
  }

  // Objects of one shape (same keys in the same insertion order) share their key order
  // and their encoded `"key": ` prefixes: an 8 MB request repeats a handful of shapes
  // 100 000s of times. Recent shapes are matched key by key (keys are interned strings).
  private readonly shapes: Array<{ own: string[]; keys: string[]; encoded: Uint8Array[] }> = [];

  private shapeOf(own: string[]): { keys: string[]; encoded: Uint8Array[] } {
    const shapes = this.shapes;
    for (let i = 0; i < shapes.length; i++) {
      if (sameKeys(shapes[i].own, own)) return shapes[i];
    }
    const keys = this.layout.sortKeys ? sortedKeys(own) : own;
    const encoded = keys.map((k) => Buffer.from((this.layout.ascii ? quoteAscii(k) : quoteUnicode(k)) + this.layout.keySeparator, 'utf8'));
    const shape = { own, keys, encoded };
    shapes.unshift(shape);
    if (shapes.length > 16) shapes.pop();
    return shape;
  }

  private string(s: string): void {
    const sink = this.sink;
    if (s.length <= 256 && sink.plainQuoted(s)) return;
    if (!ESCAPED.test(s)) {
      // Nothing to escape; astral characters are fine as long as every surrogate is paired.
      if (!s.isWellFormed()) throw new LoneSurrogateError(loneSurrogateIndex(s));
      if (this.layout.ascii && NON_ASCII.test(s)) {
        sink.ascii(quoteAscii(s));
        return;
      }
      sink.byte(QUOTE);
      sink.text(s);
      sink.byte(QUOTE);
      return;
    }
    sink.text(this.layout.ascii ? quoteAscii(s) : quoteUnicode(s));
  }

  private number(kinds: Map<Key, NumberKind> | undefined, key: Key, n: number): string {
    if (!Number.isFinite(n)) throw new RangeError('non-finite numbers have no JSON form');
    if (!Number.isInteger(n)) return floatText(n);
    if (kinds !== undefined) {
      const kind = kinds.get(key);
      if (kind === FLOAT) return floatText(n);
      if (kind !== undefined) return kind;
    }
    return formatInteger(n);
  }

  value(v: unknown, kinds: Map<Key, NumberKind> | undefined, key: Key, level: number): void {
    const sink = this.sink;
    if (v === null || v === undefined) {
      sink.ascii('null');
      return;
    }
    switch (typeof v) {
      case 'string':
        this.string(v);
        return;
      case 'number':
        sink.ascii(this.number(kinds, key, v));
        return;
      case 'boolean':
        sink.ascii(v ? 'true' : 'false');
        return;
      case 'bigint':
        sink.ascii(v.toString());
        return;
      case 'object':
        break;
      default:
        throw new TypeError(`cannot encode a ${typeof v} as JSON`);
    }
    const obj = v as Record<Key, unknown>;
    const innerKinds = numberKinds.get(obj);
    const layout = this.layout;
    if (Array.isArray(obj)) {
      if (obj.length === 0) {
        sink.ascii('[]');
        return;
      }
      const inner = this.indentFor(level + 1);
      sink.byte(0x5b);
      for (let i = 0; i < obj.length; i++) {
        if (i > 0) sink.ascii(layout.itemSeparator);
        if (inner) sink.ascii(inner);
        this.value(obj[i], innerKinds, i, level + 1);
      }
      const outer = this.indentFor(level);
      if (outer) sink.ascii(outer);
      sink.byte(0x5d);
      return;
    }
    const own = Object.keys(obj);
    if (own.length === 0) {
      sink.ascii('{}');
      return;
    }
    const shape = this.shapeOf(own);
    const keys = shape.keys;
    const encodedKeys = shape.encoded;
    const inner = this.indentFor(level + 1);
    sink.byte(0x7b);
    for (let i = 0; i < keys.length; i++) {
      if (i > 0) sink.ascii(layout.itemSeparator);
      if (inner) sink.ascii(inner);
      const k = keys[i];
      sink.bytes(encodedKeys[i]);
      this.value(obj[k], innerKinds, k, level + 1);
    }
    const outer = this.indentFor(level);
    if (outer) sink.ascii(outer);
    sink.byte(0x7d);
  }
}

function encodeBytes(value: unknown, layout: Layout): Buffer {
  const sink = new ByteSink(null);
  new Encoder(layout, sink).value(value, undefined, 0, 0);
  return sink.finish();
}

function encodeWith(value: unknown, layout: Layout): string {
  return encodeBytes(value, layout).toString('utf8');
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

/** SHA-256 (hex) of the digest form, hashed as it is produced: no intermediate string. */
export function sha256OfDigestJson(value: unknown): string {
  const hash = createHash('sha256');
  const sink = new ByteSink(hash);
  new Encoder(DIGEST, sink).value(value, undefined, 0, 0);
  sink.end();
  return hash.digest('hex');
}

/** The document form as UTF-8 bytes (what the archive stores and hashes). */
export function encodeCanonicalDocumentBytes(value: unknown): Buffer {
  return Buffer.concat([encodeBytes(value, DOCUMENT), Buffer.from('\n')]);
}
