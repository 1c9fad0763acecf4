// The encoders: one writer, three layouts (digest, Python body, archive document).
import { createHash } from 'node:crypto';
import { compareCodePoints, loneSurrogateIndex } from '../strings.js';
import { LoneSurrogateError } from './errors.js';
import { FLOAT, numberKinds, recordedKeyOrder, type Key, type NumberKind } from './kinds.js';
import { ByteSink } from './sink.js';

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

export interface Layout {
  sortKeys: boolean;
  ascii: boolean;
  /** null: single line; otherwise spaces per level. */
  indent: number | null;
  itemSeparator: string;
  keySeparator: string;
}

function sameKeys(a: string[], b: string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

const QUOTE = 0x22;

export class Encoder {
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
    const keys = this.layout.sortKeys ? [...own].sort(compareCodePoints) : own;
    const encoded = keys.map((k) => Buffer.from((this.layout.ascii ? quoteAscii(k) : quoteUnicode(k)) + this.layout.keySeparator, 'utf8'));
    const shape = { own, keys, encoded };
    shapes.unshift(shape);
    if (shapes.length > 16) shapes.pop();
    return shape;
  }

  string(s: string): void {
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

  /** `kinds` is the side table of the number's container (see kinds.ts). */
  number(kinds: Map<Key, NumberKind> | undefined, key: Key, n: number): void {
    if (!Number.isFinite(n)) throw new RangeError('non-finite numbers have no JSON form');
    const sink = this.sink;
    if (!Number.isInteger(n)) {
      sink.float(n);
      return;
    }
    if (kinds !== undefined) {
      const kind = kinds.get(key);
      if (kind === FLOAT) {
        sink.float(n);
        return;
      }
      if (kind !== undefined) {
        sink.ascii(kind);
        return;
      }
    }
    sink.integer(n);
  }

  value(v: unknown, kinds: Map<Key, NumberKind> | undefined, key: Key, level: number): void {
    const sink = this.sink;
    if (v === null || v === undefined) {
      sink.ascii('null');
      return;
    }
    switch (typeof v) {
      case 'string':
        // The digits of an integer no double holds, read with ParseOptions.hugeIntegers.
        if (kinds !== undefined && kinds.get(key) === v) sink.ascii(v);
        else this.string(v);
        return;
      case 'number':
        this.number(kinds, key, v);
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
    // Sorted layouts ignore member order; the others keep a recorded one (see kinds.ts).
    const own = (layout.sortKeys ? undefined : (recordedKeyOrder(obj) as string[] | undefined)) ?? Object.keys(obj);
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

export const DIGEST: Layout = { sortKeys: true, ascii: false, indent: null, itemSeparator: ',', keySeparator: ':' };
const PYTHON_BODY: Layout = { sortKeys: false, ascii: false, indent: null, itemSeparator: ', ', keySeparator: ': ' };
const DOCUMENT: Layout = { sortKeys: true, ascii: true, indent: 2, itemSeparator: ',', keySeparator: ': ' };
const COMPACT: Layout = { sortKeys: false, ascii: false, indent: null, itemSeparator: ',', keySeparator: ':' };

/** `json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=False)`. */
export function encodeDigestJson(value: unknown): string {
  return encodeWith(value, DIGEST);
}

/** Python's default `json.dumps(v, ensure_ascii=False)`: insertion order, `", "`/`": "`. */
export function encodePythonBody(value: unknown): string {
  return encodeWith(value, PYTHON_BODY);
}

/** JSON.stringify's layout (insertion order, no spaces) with number kinds kept: `3.0` stays `3.0`. */
export function encodeCompactJson(value: unknown): string {
  return encodeWith(value, COMPACT);
}

/** `encodePythonBody` as UTF-8 bytes, without the intermediate string (large group A results). */
export function encodePythonBodyBytes(value: unknown): Buffer {
  return encodeBytes(value, PYTHON_BODY);
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
