import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isFloatToken, keysInOrder, rawIntegerOf } from '../../../src/core/json.js';
import { parseStrictJson, parseStrictJsonGeneral, readInPlace } from '../../../src/core/json/reader.js';
import { GENERAL, parseNative } from '../../../src/core/json/native-reader.js';
import { seriesRequest, narrativeRequest } from '../../helpers/analysis-requests.js';

// parseStrictJson reads large UTF-8 bodies in place, small ones and text with JSON.parse
// plus a scan (native-reader.ts) where that is the same, and the rest with the general
// reader on text;
// these prove every path gives the same values, number kinds, member orders and errors.

/** Everything a reader result carries: values, number kinds, member order, -0. */
function describeValue(v: unknown): unknown {
  if (v === null || typeof v !== 'object') return typeof v === 'number' && Object.is(v, -0) ? '-0' : v;
  if (Array.isArray(v)) return v.map((_, i) => describeMember(v, i));
  expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
  return keysInOrder(v).map((k) => [k, describeMember(v, k)]);
}

function describeMember(container: object, key: string | number): unknown {
  const value = (container as Record<string | number, unknown>)[key];
  if (typeof value !== 'number') return describeValue(value);
  return { n: describeValue(value), float: isFloatToken(container, key), raw: rawIntegerOf(container, key) };
}

function outcome(read: () => unknown): unknown {
  try {
    return { value: describeValue(read()) };
  } catch (e) {
    return { error: (e as Error).name, message: (e as Error).message };
  }
}

function expectSameReading(text: string | Uint8Array, maxDepth?: number): void {
  const options = maxDepth === undefined ? {} : { maxDepth };
  const general = outcome(() => parseStrictJsonGeneral(text, options));
  expect(outcome(() => parseStrictJson(text, options))).toEqual(general);
  // Bodies this small take the JSON.parse path; large ones are read in place.
  if (typeof text !== 'string') expect(outcome(() => readInPlace(text, maxDepth))).toEqual(general);
}

// Number tokens of every kind the readers tell apart.
const numberToken = fc.oneof(
  fc.integer().map(String),
  fc.constantFrom('0', '-0', '0.0', '-0.0', '3.0', '1e2', '1E+2', '1.5e1', '2.5', '1e-400', '1e400', '-1e400', '100.000'),
  fc.constantFrom('9007199254740991', '9007199254740993', '-9007199254740993', '12345678901234567890123', '1' + '0'.repeat(400)),
  // A non-zero fractional digit, yet the nearest double is a whole number: still a float.
  fc.constantFrom('3.0000000000000000001', '0.99999999999999999999', '-2.00000000000000000001', '9007199254740993.5', '123456789012345.99999'),
  fc.tuple(fc.boolean(), fc.stringMatching(/^(0|[1-9][0-9]{0,20})$/), fc.option(fc.stringMatching(/^[0-9]{1,8}$/)), fc.option(fc.integer({ min: -330, max: 320 })))
    .map(([neg, int, frac, exp]) => `${neg ? '-' : ''}${int}${frac === null ? '' : '.' + frac}${exp === null ? '' : 'e' + exp}`),
  // Long fractions of zeros and nines, around where a double stops telling them apart.
  fc.tuple(fc.boolean(), fc.stringMatching(/^(0|[1-9][0-9]{0,6})$/), fc.integer({ min: 8, max: 24 }), fc.constantFrom('0', '9'), fc.constantFrom('1', '9', ''))
    .map(([neg, int, run, digit, last]) => `${neg ? '-' : ''}${int}.${digit.repeat(run)}${last}`),
);

// Keys that collide, that JS enumerates first, that need escapes or are __proto__.
const keyText = fc.oneof(
  fc.constantFrom('a', 'b', 'value', 'observed_at', '0', '1', '42', '01', '1a', '4294967295', '__proto__', 'é', 'a"b', 'a\\b', ''),
  fc.string({ maxLength: 4 }),
);

const ws = fc.constantFrom('', '', '', ' ', '\n  ', '\t');

/** A JSON string literal for `s`, sometimes with characters spelled as escapes. */
const stringLiteral = (s: fc.Arbitrary<string>) =>
  fc.tuple(s, fc.boolean()).map(([text, spell]) => {
    const plain = JSON.stringify(text);
    if (!spell || text.length === 0) return plain;
    return '"' + [...text].map((ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`).join('') + '"';
  });

const valueText: fc.Arbitrary<string> = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    numberToken,
    stringLiteral(fc.oneof(fc.string({ maxLength: 8 }), fc.string({ unit: 'binary', maxLength: 4 }), fc.constant('x'.repeat(100) + '\\"' + 'y'.repeat(60)))),
    fc.constantFrom('true', 'false', 'null'),
    fc.tuple(fc.array(fc.tuple(ws, tie('value'), ws), { maxLength: 5 })).map(([items]) => `[${items.map(([a, v, b]) => a + v + b).join(',')}]`),
    fc.array(fc.tuple(ws, stringLiteral(keyText), ws, tie('value')), { maxLength: 5 }).map(
      (members) => `{${members.map(([a, k, b, v]) => `${a}${k}${b}:${v}`).join(',')}}`,
    ),
  ),
})).value;

describe('strict JSON reader: the byte and JSON.parse paths against the general reader on text', () => {
  it('reads random documents (number kinds, duplicate and index-like keys, escapes) identically, from text and bytes (property)', () => {
    fc.assert(
      fc.property(valueText, ws, (text, pad) => {
        expectSameReading(pad + text + pad);
        expectSameReading(Buffer.from(pad + text + pad, 'utf8'));
      }),
      { numRuns: 3000 },
    );
  });

  it('refuses damaged documents with the same messages and offsets (property)', () => {
    const damaged = fc.tuple(valueText, fc.nat(), fc.constantFrom('', ',', '"', '{', ']', '}', ':', '\\', '\u0001', 'NaN', '-', '.', 'e', '0', '\u00e9'))
      .map(([text, at, insert]) => {
        const i = text.length === 0 ? 0 : at % text.length;
        return text.slice(0, i) + insert + text.slice(i + (insert === '' ? 1 : 0));
      });
    fc.assert(
      fc.property(damaged, (text) => {
        expectSameReading(text);
        expectSameReading(Buffer.from(text, 'utf8'));
      }),
      { numRuns: 3000 },
    );
  });

  it('applies the nesting limit at the same depth', () => {
    for (const depth of [1, 2, 5]) {
      for (const limit of [depth - 1, depth, depth + 1]) {
        expectSameReading('['.repeat(depth) + ']'.repeat(depth), limit);
        expectSameReading('{"a":'.repeat(depth) + '1' + '}'.repeat(depth), limit);
      }
    }
    expectSameReading('['.repeat(600) + ']'.repeat(600));
  });

  it('reads byte-order marks, invalid UTF-8 and lone surrogates as the general reader does', () => {
    expectSameReading(new Uint8Array([0xef, 0xbb, 0xbf, 0x7b, 0x7d]));
    expectSameReading(new Uint8Array([0xef, 0xbb, 0xbf, 0x5b, 0x31, 0x2e, 0x30, 0x5d]));
    expectSameReading(new Uint8Array([0x5b, 0x22, 0xc3, 0x28, 0x22, 0x5d]));
    expectSameReading('\ufeff{}');
    expectSameReading('["\ud800", "\\udc00"]');
    expectSameReading('{"\ud800": 1.0, "\\ud800": 2}');
  });

  it('counts error offsets in UTF-8 bytes of the input when it holds non-ASCII text, whichever path reads it', () => {
    const long = 'x'.repeat(70);
    for (const text of [`["${long}é😀"]`, `["${long}é\u0001"]`, `["${long}\\n", "${long}"]`, `["${long}é`, `{"${long}": "${long}é", "${long}": 1}`]) {
      expectSameReading(Buffer.from(text, 'utf8'));
    }
    for (const text of ['["é😀", 01]', '{"ключ": 1, "ключ": 2}', '\ufeff["é", ]', '["é\u0001"]', '{"é": "x', '["日本"] x']) {
      expectSameReading(Buffer.from(text, 'utf8'));
    }
    // The second digit of `01` is byte 12: `[`, `"`, é (2 bytes), 😀 (4), `"`, `,`, space, `0`.
    for (const [text, offset] of [['["é😀", 01]', 12], ['\ufeff["é😀", 01]', 15], ['{"😀":}', 8], ['{"ééé":1,"a":1,"a":2}', 18]] as const) {
      const bytes = Buffer.from(text, 'utf8');
      for (const read of [() => readInPlace(bytes), () => parseStrictJson(bytes), () => parseStrictJson(Buffer.concat([bytes, Buffer.alloc(70_000, 0x20)]))]) {
        expect(read, text).toThrow(new RegExp(`at offset ${offset}$`));
      }
    }
    expect(readInPlace(Buffer.from('\ufeff{"é😀": ["日本", 1.0]}', 'utf8'))).toEqual({ 'é😀': ['日本', 1] });
  });

  it('reads the generated analysis requests identically, including integral floats', () => {
    const market = JSON.stringify(seriesRequest({ series: 3, points: 40, allFields: true }));
    const floats = market.replace(/"value":(\d+)\.\d+/g, (_m, whole: string, offset: number) => (offset % 3 === 0 ? `"value":${whole}.0` : `"value":${whole}.5`));
    const spaced = JSON.stringify(JSON.parse(market), null, 1);
    const large = JSON.stringify(seriesRequest({ series: 4, points: 300, allFields: true })).replace(/"value":(\d+)\.\d+,"available/g, '"value":$1.0,"available');
    expect(large.length).toBeGreaterThan(64 * 1024);
    for (const text of [market, floats, spaced, large, large.replace('"kind"', '"kind":1,"kind"'), JSON.stringify(narrativeRequest({ events: 30, titleLength: 120 }))]) {
      expectSameReading(Buffer.from(text));
    }
  });

  it('takes the fast path for well-formed requests and hands the ambiguous ones to the general reader', () => {
    const native = (text: string) => parseNative(text, Buffer.from(text), 512);
    const market = JSON.stringify(seriesRequest({ series: 2, points: 8, allFields: true }));
    expect(native(market)).not.toBe(GENERAL);
    expect(native(JSON.stringify(narrativeRequest({ events: 5, titleLength: 3000 })))).not.toBe(GENERAL);
    expect(native('{"2026-01-05": 1.0, "1a": {"01": 2}, "4294967295": 3}')).not.toBe(GENERAL);
    expect(native('{"a": [1.0, 3, 12345678901234567890, "\\\\\\"", {"b": 1e2}]}')).not.toBe(GENERAL);
    for (const text of ['{"a": 1, "a": 1}', '{"a": {"x": 1}, "a": 2}', '{"b": 1, "7": 2}', '{"\\u0037": 2}', '{"1\\u0030": 2}', '[1e400]', '[-1e400]', '[1,]', '{"a": [[1]], "0": 0}']) {
      expect(native(text), text).toBe(GENERAL);
    }
    expect(parseNative('[[1]]', Buffer.from('[[1]]'), 1)).toBe(GENERAL);
  });
});
