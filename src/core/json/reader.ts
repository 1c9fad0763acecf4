// The strict reader: JSON text or UTF-8 bytes to plain values, refusing anything ambiguous.
import { isAscii } from 'node:buffer';
import { JsonSyntaxError } from './errors.js';
import { GENERAL, parseNative } from './native-reader.js';
import { isArrayIndexKey, markFloat, setKeyOrder, setRawInteger, type Key } from './kinds.js';

export interface ParseOptions {
  /** Deepest allowed nesting of arrays/objects (default 512). */
  maxDepth?: number;
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/**
 * Strict JSON → plain JS values (see the file comment for what "strict" adds). Text that
 * JSON.parse reads as the general reader would is read by it (native-reader.ts); the rest,
 * including every refusal, by the general reader below.
 */
export function parseStrictJson(input: Uint8Array | string, options: ParseOptions = {}): unknown {
  const { text, ascii } = decode(input);
  const maxDepth = options.maxDepth ?? 512;
  const fast = parseNative(text, typeof input === 'string' ? Buffer.from(input, 'utf8') : input, maxDepth);
  if (fast !== GENERAL) return fast;
  return new Parser(text, maxDepth, ascii).parseDocument();
}

/** `parseStrictJson` by the general reader alone: what the fast path is tested against. */
export function parseStrictJsonGeneral(input: Uint8Array | string, options: ParseOptions = {}): unknown {
  const { text, ascii } = decode(input);
  return new Parser(text, options.maxDepth ?? 512, ascii).parseDocument();
}

/** The text, and the input bytes when they are pure ASCII (positions equal text positions). */
function decode(input: Uint8Array | string): { text: string; ascii: Buffer | null } {
  if (typeof input === 'string') return { text: input, ascii: null };
  if (isAscii(input)) {
    // Pure ASCII needs no decoding: one copy into a string, where the fatal decoder spent
    // a third of the whole read of a maximal request.
    const ascii = Buffer.from(input.buffer, input.byteOffset, input.length);
    return { text: ascii.toString('latin1'), ascii };
  }
  try {
    // A leading UTF-8 BOM is dropped, as Python's json.loads does.
    return { text: utf8.decode(input), ascii: null };
  } catch {
    throw new JsonSyntaxError('body is not valid UTF-8', 0);
  }
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
    private readonly text: string,
    private readonly maxDepth: number,
    /** The input bytes when they are pure ASCII (positions equal text positions), else null. */
    private readonly ascii: Buffer | null,
  ) {}

  parseDocument(): unknown {
    this.skipWhitespace();
    const holder: unknown[] = [undefined];
    this.parseValueInto(holder, 0, Place.Member);
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
  private parseValueInto(container: object, key: Key, place: Place): void {
    const t = this.text;
    if (this.pos >= t.length) this.fail('unexpected end of input');
    const c = t.charCodeAt(this.pos);
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

  // String members of arrays of records, by nesting depth, position in their object and the
  // object's position in its array. Panels repeat the same clock texts in every member's
  // records, so the record at the same index of the previous list usually holds the same
  // text: a hit returns that very string, which later code compares by identity and reads
  // as a flat string, instead of a fresh slice (a view into the whole body that is slower
  // to read, hash and compare). Only lists held by an array element use it (a lone list has
  // no previous list to match), and a column that mostly misses is given up, so unaligned
  // input pays little.
  private readonly columns: Column[][] = [];

  private readColumnValue(depth: number, index: number, element: number): string {
    const t = this.text;
    let byIndex = this.columns[depth];
    if (byIndex === undefined) this.columns[depth] = byIndex = [];
    let column = byIndex[index];
    if (column === undefined) byIndex[index] = column = { values: [], copied: [], hits: 0, misses: 0 };
    if (column.misses > COLUMN_GIVE_UP && column.misses > column.hits) return this.parseString();
    const start = this.pos + 1;
    const guess = column.values[element];
    if (guess !== undefined && t.charCodeAt(start + guess.length) === Ch.Quote && t.startsWith(guess, start)) {
      // `guess` contains no quote or backslash (it was stored only when read verbatim).
      const end = start + guess.length;
      this.pos = end + 1;
      // A text seen twice is likely to recur: store a flat copy from the bytes once.
      column.hits++;
      if (this.ascii === null || column.copied[element] === true) return guess;
      column.copied[element] = true;
      return (column.values[element] = this.ascii.toString('latin1', start, end));
    }
    if (guess !== undefined) column.misses++;
    const value = this.parseString();
    if (this.pos - start - 1 === value.length && element < MAX_COLUMN_LENGTH) {
      column.values[element] = value;
      column.copied[element] = false;
    }
    return value;
  }

  /**
   * `element` is the object's index in a list whose string members go through the column
   * cache, or -1; `listed` tells whether the object is an array element at all.
   */
  private parseObject(element: number, listed: boolean): Record<string, unknown> {
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
    // The written member order, once an array-index key makes it differ from enumeration order.
    let order: string[] | undefined;
    for (let index = 0; ; index++) {
      if (t.charCodeAt(this.pos) !== Ch.Quote) this.fail('object keys must be strings');
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
      if (t.charCodeAt(this.pos) !== Ch.Colon) {
        this.skipWhitespace();
        if (t.charCodeAt(this.pos) !== Ch.Colon) this.fail("expected ':' after an object key");
      }
      this.pos++;
      this.skipWhitespace();
      if (element >= 0 && t.charCodeAt(this.pos) === Ch.Quote && key !== '__proto__') {
        obj[key] = this.readColumnValue(depth, index, element);
      } else {
        this.parseValueInto(obj, key, listed ? Place.RecordMember : Place.Member);
      }
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
    if (order !== undefined) setKeyOrder(obj, order);
    return obj;
  }

  /** `columns`: the array's records use the column cache (see `columns`). */
  private parseArray(columns: boolean): unknown[] {
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
      this.parseValueInto(arr, i, columns ? Place.ColumnElement : Place.Element);
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
    if (key === '__proto__') {
      // Assignment would try to set the prototype and drop the member.
      Object.defineProperty(container, key, { value, enumerable: true, writable: true, configurable: true });
    } else {
      (container as Record<Key, unknown>)[key] = value;
    }
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

interface Column {
  values: string[];
  /** Whether values[i] is already a flat copy made from the bytes. */
  copied: boolean[];
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

// Characters that may appear in a string without any special handling.
const PLAIN_RUN = /[^"\\\u0000-\u001f]*/y;
