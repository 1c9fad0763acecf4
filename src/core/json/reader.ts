// The strict reader: JSON text or UTF-8 bytes to plain values, refusing anything ambiguous.
import { isAscii, isUtf8 } from 'node:buffer';
import { JsonSyntaxError } from './errors.js';
import { firstInvalidUtf8 } from './utf8.js';
import { GENERAL, parseNative } from './native-reader.js';
import { isArrayIndexKey, markFloat, moveNumberKinds, setKeyOrder, setRawInteger, type Key } from './kinds.js';

export interface ParseOptions {
  /** Deepest allowed nesting of arrays/objects (default 512). */
  maxDepth?: number;
  /**
   * Read an integer literal beyond the double range (`1` and 400 zeros) as the text of its
   * digits instead of refusing it: Python's json keeps it an int, so the document stays
   * readable. Source documents of group C want this: where a number is expected such a value
   * is no finite number (nulled, as Python's float() overflow nulls it), and where text is
   * taken it reads as Python's str() of it. No number (±Infinity) is made that the rest of
   * the service would have to guard against. Request bodies keep the refusal.
   */
  hugeIntegers?: boolean;
  /**
   * Read a number literal beyond the double range as ±Infinity, as Python's json reads
   * `1e400` (a float, so it is marked as one) and a long integer (an int, so it is not):
   * group A's validator then refuses it as no finite number (422), as the upstream's does.
   * Only for bodies a validator checks before any other use; integer literals over 4300
   * digits are refused still (Python's limit). Wins over `hugeIntegers`.
   */
  infiniteNumbers?: boolean;
}

/** What the reader does with a number literal beyond the double range. */
type Overflow = 'refuse' | 'digits' | 'infinity';

function overflowOf(options: ParseOptions): Overflow {
  return options.infiniteNumbers === true ? 'infinity' : options.hugeIntegers === true ? 'digits' : 'refuse';
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/**
 * Strict JSON → plain JS values (see the file comment for what "strict" adds).
 *
 * Large UTF-8 bodies are read in place (readInPlace): one string of a large body costs more
 * than reading it, because the string needs fresh memory. Small bodies and text are read by
 * JSON.parse where that is provably the same (native-reader.ts), else by the general reader
 * on text, which also raises every refusal.
 */
export function parseStrictJson(input: Uint8Array | string, options: ParseOptions = {}): unknown {
  const maxDepth = options.maxDepth ?? 512;
  const huge = overflowOf(options);
  if (typeof input === 'string') {
    const fast = parseNative(input, Buffer.from(input, 'utf8'), maxDepth);
    return fast !== GENERAL ? fast : readText(input, maxDepth, huge, 0);
  }
  if (input.length > SMALL_BODY) return readInPlace(input, maxDepth, huge);
  // A small string comes from the young generation, cheaply: JSON.parse and the scan then
  // beat reading in place.
  const bytes = Buffer.from(input.buffer, input.byteOffset, input.length);
  const text = isAscii(bytes) ? bytes.toString('latin1') : decode(bytes);
  const fast = parseNative(text, bytes, maxDepth);
  return fast !== GENERAL ? fast : readText(text, maxDepth, huge, bomBytes(bytes));
}

/** `parseStrictJson` of UTF-8 bytes, read from the bytes themselves (exported for tests). */
export function readInPlace(input: Uint8Array, maxDepth = 512, overflow: Overflow = 'refuse'): unknown {
  const bytes = Buffer.from(input.buffer, input.byteOffset, input.length);
  // Refusals are raised here at byte offsets, with the text reader's messages (the
  // property tests compare the two), so none is read a second time.
  if (!isAscii(bytes) && !isUtf8(bytes)) throw notUtf8(bytes);
  // A leading UTF-8 BOM is dropped, as Python's json.loads does.
  return new Parser(bytes, null, bytes, maxDepth, bomBytes(bytes), overflow).parseDocument();
}

// An array filled element by element gets room for 16 or more: a history of 120,000
// [date, value] pairs took 2.7 times the memory JSON.parse gives it. Short arrays are
// copied to one of their own size (slice allocates exactly), with their number kinds.
const EXACT_COPY_BELOW = 16;

function exactCopy(arr: unknown[]): unknown[] {
  const exact = arr.slice();
  moveNumberKinds(arr, exact);
  return exact;
}

// Bodies up to this size are decoded to one string (see parseStrictJson).
const SMALL_BODY = 64 * 1024;

/** `parseStrictJson` by the general reader on text alone: what the other paths are tested against. */
export function parseStrictJsonGeneral(input: Uint8Array | string, options: ParseOptions = {}): unknown {
  return readText(decode(input), options.maxDepth ?? 512, overflowOf(options), typeof input === 'string' ? 0 : bomBytes(input));
}

/**
 * Reads decoded text; a refusal's offset is turned from UTF-16 units of the text into UTF-8
 * bytes of the input, `leading` being the bytes decoding dropped ahead of it (a BOM).
 */
function readText(text: string, maxDepth: number, overflow: Overflow, leading: number): unknown {
  const codes = new Uint16Array(text.length);
  for (let i = 0; i < text.length; i++) codes[i] = text.charCodeAt(i);
  try {
    return new Parser(codes, text, null, maxDepth, 0, overflow).parseDocument();
  } catch (error) {
    if (!(error instanceof JsonSyntaxError)) throw error;
    throw new JsonSyntaxError(error.reason, leading + Buffer.byteLength(text.slice(0, error.offset), 'utf8'));
  }
}

function bomBytes(bytes: Uint8Array): number {
  return bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
}

function decode(input: Uint8Array | string): string {
  if (typeof input === 'string') return input;
  try {
    // A leading UTF-8 BOM is dropped, as Python's json.loads does.
    return utf8.decode(input);
  } catch {
    throw notUtf8(input);
  }
}

/** The refusal of bytes that are not UTF-8: its offset is the first byte in fault, as Python's names it. */
function notUtf8(bytes: Uint8Array): JsonSyntaxError {
  return new JsonSyntaxError('body is not valid UTF-8', Math.max(0, firstInvalidUtf8(bytes)));
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

  constructor(
    /** The characters: the input bytes when they are pure ASCII, else the text's code units. */
    private readonly codes: Uint8Array | Uint16Array,
    /** The text, when the input is not read as bytes. */
    private readonly text: string | null,
    /** The input bytes (UTF-8) when they are what `codes` holds. */
    private readonly bytes: Buffer | null,
    private readonly maxDepth: number,
    start: number,
    private readonly overflow: Overflow = 'refuse',
  ) {
    this.pos = start;
  }

  /**
   * Characters [start, end) as a string (from the bytes, always a flat copy); `wide` tells
   * whether the bytes there may include non-ASCII ones.
   */
  private slice(start: number, end: number, wide = false): string {
    if (this.bytes === null) return (this.text as string).slice(start, end);
    return this.bytes.toString(wide ? 'utf8' : 'latin1', start, end);
  }

  /** Whether `word` is written at `start`. */
  private matches(word: string, start: number): boolean {
    const t = this.codes;
    const n = word.length;
    if (start + n > t.length) return false;
    for (let i = 0; i < n; i++) if (t[start + i] !== word.charCodeAt(i)) return false;
    return true;
  }

  parseDocument(): unknown {
    this.skipWhitespace();
    const holder: unknown[] = [undefined];
    this.parseValueInto(holder, 0, Place.Member);
    this.skipWhitespace();
    if (this.pos !== this.codes.length) this.fail('unexpected data after the JSON value');
    const value = holder[0];
    // A top-level number keeps its kind on a fresh holder object callers can query.
    return value;
  }

  private fail(message: string): never {
    throw new JsonSyntaxError(message, this.pos);
  }

  private skipWhitespace(): void {
    const t = this.codes;
    let p = this.pos;
    while (p < t.length) {
      const c = t[p];
      if (c === Ch.Space || c === Ch.Lf || c === Ch.Cr || c === Ch.Tab) p++;
      else break;
    }
    this.pos = p;
  }

  /** Parses one value and stores it at container[key], recording its number kind. */
  private parseValueInto(container: object, key: Key, place: Place): void {
    const t = this.codes;
    if (this.pos >= t.length) this.fail('unexpected end of input');
    const c = t[this.pos];
    let value: unknown;
    switch (c) {
      case Ch.LBrace:
        value = this.parseObject(
          place === Place.ColumnElement ? (key as number) : -1,
          place === Place.Element || place === Place.ColumnElement,
        );
        break;
      case Ch.LBracket: value = this.parseArray(place === Place.RecordMember); break;
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
    if (this.matches(word, this.pos)) this.pos += word.length;
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
    const t = this.codes;
    let seen = this.keysByDepth[depth];
    if (seen === undefined) this.keysByDepth[depth] = seen = [];
    const guess = seen[index];
    const start = this.pos + 1;
    if (guess !== undefined && t[start + guess.length] === Ch.Quote && this.matches(guess, start)) {
      // `guess` contains no quote or backslash (it was stored only when read verbatim).
      this.pos = start + guess.length + 1;
      return guess;
    }
    const key = this.parseString();
    if (this.pos - start - 1 === key.length) seen[index] = key;
    return key;
  }

  // String members of arrays of records, by nesting depth, position in their object and the
  // object's position in its array. Panels repeat the same clock texts in every member's
  // records, so the record at the same index of the previous list usually holds the same
  // text: a hit returns that very string, which later code compares by identity, instead
  // of a fresh copy (and the request holds one string per clock instead of one per
  // observation, less for the collector). Only lists held by an array element use it (a lone list has
  // no previous list to match), and a column that mostly misses is given up, so unaligned
  // input pays little.
  private readonly columns: Column[][] = [];

  private readColumnValue(depth: number, index: number, element: number): string {
    const t = this.codes;
    let byIndex = this.columns[depth];
    if (byIndex === undefined) this.columns[depth] = byIndex = [];
    let column = byIndex[index];
    if (column === undefined) byIndex[index] = column = { values: [], hits: 0, misses: 0 };
    if (column.misses > COLUMN_GIVE_UP && column.misses > column.hits) return this.parseString();
    const start = this.pos + 1;
    const guess = column.values[element];
    if (guess !== undefined && t[start + guess.length] === Ch.Quote && this.matches(guess, start)) {
      // `guess` contains no quote or backslash (it was stored only when read verbatim).
      const end = start + guess.length;
      this.pos = end + 1;
      column.hits++;
      return guess;
    }
    if (guess !== undefined) column.misses++;
    const value = this.parseString();
    if (this.pos - start - 1 === value.length && element < MAX_COLUMN_LENGTH) {
      column.values[element] = value;
    }
    return value;
  }

  /**
   * `element` is the object's index in a list whose string members go through the column
   * cache, or -1; `listed` tells whether the object is an array element at all.
   */
  private parseObject(element: number, listed: boolean): Record<string, unknown> {
    this.enter();
    const t = this.codes;
    const depth = this.depth;
    const obj: Record<string, unknown> = {};
    this.pos++;
    this.skipWhitespace();
    if (t[this.pos] === Ch.RBrace) {
      this.pos++;
      this.depth--;
      return obj;
    }
    // The written member order, once an array-index key makes it differ from enumeration order.
    let order: string[] | undefined;
    for (let index = 0; ; index++) {
      if (t[this.pos] !== Ch.Quote) this.fail('object keys must be strings');
      const keyStart = this.pos;
      const key = this.readKey(depth, index);
      if (index > 0 && Object.hasOwn(obj, key)) {
        this.pos = keyStart;
        this.fail(`duplicate object key ${JSON.stringify(key)}`);
      }
      if (order !== undefined) {
        order.push(key);
      } else if (isArrayIndexKey(key)) {
        // No index key so far, so enumeration order is still insertion order.
        order = Object.keys(obj);
        order.push(key);
      }
      if (t[this.pos] !== Ch.Colon) {
        this.skipWhitespace();
        if (t[this.pos] !== Ch.Colon) this.fail("expected ':' after an object key");
      }
      this.pos++;
      this.skipWhitespace();
      if (element >= 0 && t[this.pos] === Ch.Quote && key !== '__proto__') {
        obj[key] = this.readColumnValue(depth, index, element);
      } else {
        this.parseValueInto(obj, key, listed ? Place.RecordMember : Place.Member);
      }
      let c = t[this.pos];
      if (c !== Ch.Comma && c !== Ch.RBrace) {
        this.skipWhitespace();
        c = t[this.pos];
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
    if (order !== undefined) setKeyOrder(obj, order);
    return obj;
  }

  /** `columns`: the array's records use the column cache (see `columns`). */
  private parseArray(columns: boolean): unknown[] {
    this.enter();
    const t = this.codes;
    const arr: unknown[] = [];
    this.pos++;
    this.skipWhitespace();
    if (t[this.pos] === Ch.RBracket) {
      this.pos++;
      this.depth--;
      return arr;
    }
    for (let i = 0; ; i++) {
      this.parseValueInto(arr, i, columns ? Place.ColumnElement : Place.Element);
      this.skipWhitespace();
      const c = t[this.pos];
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
    return arr.length < EXACT_COPY_BELOW ? exactCopy(arr) : arr;
  }

  private parseString(): string {
    const t = this.codes;
    const n = t.length;
    const start = this.pos + 1;
    let p = start;
    // Fast path: a run without escapes or control characters. `high` collects the bits of
    // its characters: in UTF-8 bytes, non-ASCII characters set 0x80.
    let c = 0;
    let high = 0;
    const short = Math.min(n, start + SHORT_STRING);
    while (p < short && (c = t[p]) >= 0x20 && c !== Ch.Quote && c !== Ch.Backslash) {
      high |= c;
      p++;
    }
    if (p === short && this.bytes !== null) {
      const long = this.longPlainString(start, p);
      if (long !== undefined) return long;
    }
    while (p < n && (c = t[p]) >= 0x20 && c !== Ch.Quote && c !== Ch.Backslash) {
      high |= c;
      p++;
    }
    if (p < n && c === Ch.Quote) {
      this.pos = p + 1;
      return this.slice(start, p, high > 0x7f);
    }
    let out = this.slice(start, p, high > 0x7f);
    for (;;) {
      if (p >= n) {
        this.pos = p;
        this.fail('unterminated string');
      }
      c = t[p];
      if (c === Ch.Quote) {
        this.pos = p + 1;
        return out;
      }
      if (c < 0x20) {
        this.pos = p;
        this.fail('control character inside a string');
      }
      if (c !== Ch.Backslash) {
        const run = p;
        high = 0;
        while (p < n && (c = t[p]) >= 0x20 && c !== Ch.Quote && c !== Ch.Backslash) {
          high |= c;
          p++;
        }
        out += this.slice(run, p, high > 0x7f);
        continue;
      }
      const e = t[p + 1];
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
          let code = 0;
          for (let i = p + 2; i < p + 6; i++) {
            const h = i < n ? hexValue(t[i]) : -1;
            if (h < 0) {
              this.pos = p;
              this.fail('invalid \\u escape');
            }
            code = code * 16 + h;
          }
          out += String.fromCharCode(code);
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

  /**
   * A long string read from the bytes by native searches (the closing quote, then any
   * escape or control character in between) instead of byte by byte; undefined, having
   * read nothing, if it has an escape or control character or no closing quote.
   */
  private longPlainString(start: number, from: number): string | undefined {
    const bytes = this.bytes as Buffer;
    const end = bytes.indexOf(Ch.Quote, from);
    if (end < 0) return undefined;
    // Escapes and control characters are ASCII, the same characters in either decoding.
    const text = bytes.toString(isAscii(bytes.subarray(start, end)) ? 'latin1' : 'utf8', start, end);
    if (NOT_PLAIN.test(text)) return undefined;
    this.pos = end + 1;
    return text;
  }

  private put(container: object, key: Key, value: unknown): void {
    if (key === '__proto__') {
      // Assignment would try to set the prototype and drop the member.
      Object.defineProperty(container, key, { value, enumerable: true, writable: true, configurable: true });
    } else {
      (container as Record<Key, unknown>)[key] = value;
    }
  }

  private parseNumberInto(container: object, key: Key): void {
    const t = this.codes;
    const start = this.pos;
    let p = start;
    const negative = t[p] === Ch.Minus;
    if (negative) p++;
    const intStart = p;
    let c = t[p];
    // While digits are few, the value is accumulated exactly on the way (an integer
    // below 2^53 divided by an exact power of ten is correctly rounded, as Number()).
    let mantissa = 0;
    let digits = 0;
    if (c === Ch.Zero) {
      p++;
    } else if (c >= 49 && c <= Ch.Nine) {
      while (p < t.length && (c = t[p]) >= Ch.Zero && c <= Ch.Nine) {
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
    if (t[p] === Ch.Dot) {
      isFloat = true;
      p++;
      const fracStart = p;
      while (p < t.length && (c = t[p]) >= Ch.Zero && c <= Ch.Nine) {
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
    c = t[p];
    if (c === Ch.LowerE || c === Ch.UpperE) {
      isFloat = true;
      exponent = true;
      p++;
      c = t[p];
      if (c === Ch.Plus || c === Ch.Minus) p++;
      const expStart = p;
      while (p < t.length && (c = t[p]) >= Ch.Zero && c <= Ch.Nine) p++;
      if (p === expStart) {
        this.pos = p;
        this.fail('invalid number: digits required in the exponent');
      }
    }
    // Python rejects a leading zero followed by digits, e.g. 01.
    if (intDigits > 1 && t[intStart] === Ch.Zero) {
      this.pos = start;
      this.fail('invalid number: leading zero');
    }
    this.pos = p;
    let value: number;
    if (!exponent && digits <= 15 && fraction <= 22) {
      value = fraction === 0 ? mantissa : mantissa / POWERS_OF_TEN[fraction];
      if (negative) value = -value;
    } else {
      value = Number(this.slice(start, p));
      if (!Number.isFinite(value)) {
        if (this.overflow === 'infinity') {
          if (!isFloat && intDigits > MAX_INTEGER_DIGITS) {
            this.pos = start;
            this.fail('integer literal has too many digits');
          }
          this.put(container, key, value);
          // An integer keeps its digits (as beyond 2^53): the value a query string would carry.
          if (isFloat) markFloat(container, key);
          else setRawInteger(container, key, this.slice(start, p));
          return;
        }
        if (isFloat || this.overflow === 'refuse') {
          this.pos = start;
          this.fail('number literal overflows a double');
        }
        if (intDigits > MAX_INTEGER_DIGITS) {
          this.pos = start;
          this.fail('integer literal has too many digits');
        }
        // Its digits, as text: no number here could hold it (see ParseOptions.hugeIntegers);
        // marked, so it is written back as digits.
        const digits = this.slice(start, p);
        this.put(container, key, digits);
        setRawInteger(container, key, digits);
        return;
      }
    }
    this.put(container, key, value);
    if (isFloat) {
      if (Number.isInteger(value)) markFloat(container, key);
    } else if (!Number.isSafeInteger(value)) {
      if (intDigits > MAX_INTEGER_DIGITS) {
        this.pos = start;
        this.fail('integer literal has too many digits');
      }
      const token = this.slice(start, p);
      setRawInteger(container, key, token.startsWith('-0') ? '0' : token);
    }
  }
}

interface Column {
  values: string[];
  /** Guesses that matched and that did not: a column that mostly misses is given up. */
  hits: number;
  misses: number;
}

const COLUMN_GIVE_UP = 256;

/** Where a value sits; decides which lists of records use the column cache. */
const enum Place {
  /** The document, or a member of an object that is not an array element. */
  Member,
  /** An element of an array whose records do not use the column cache. */
  Element,
  /** An element of an array of records that uses the column cache. */
  ColumnElement,
  /** A member of an object that is itself an array element: sibling lists are likely. */
  RecordMember,
}

// Remembered records per array: bounds the memory of the column cache.
const MAX_COLUMN_LENGTH = 1 << 16;

const POWERS_OF_TEN = Array.from({ length: 23 }, (_, i) => Number(`1e${i}`));

// Strings longer than this are searched natively (see longPlainString).
const SHORT_STRING = 64;
// Characters that end the plain part of a string: escapes and control characters.
const NOT_PLAIN = /[\u0000-\u001f\\]/;

/** The value of a hexadecimal digit, or -1. */
function hexValue(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  if (c >= 65 && c <= 70) return c - 55;
  return -1;
}
