import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  JsonSyntaxError, LoneSurrogateError, cloneJson, copyMember, encodeCanonicalDocument, encodeDigestJson, sha256OfDigestJson,
  encodePythonBody, isFloatToken, markFloat, parseStrictJson, pyFloatRepr, rawIntegerOf,
} from '../../src/core/json.js';
import { setRawInteger } from '../../src/core/json/kinds.js';
import { floatText } from '../../src/core/json/format.js';
import { sha256Hex } from '../../src/core/hash.js';

describe('strict JSON reader', () => {
  it.each([
    ['duplicate keys at the top', '{"a": 1, "a": 1}'],
    ['duplicate keys deep inside', '{"x": [{"b": 1, "c": {"d": 1, "d": 2}}]}'],
    ['NaN', '[NaN]'],
    ['Infinity', '{"v": Infinity}'],
    ['-Infinity', '{"v": -Infinity}'],
    ['a float literal that overflows a double', '[1e400]'],
    ['an integer literal that overflows a double', `[${'9'.repeat(400)}]`],
    ['leading zeros', '[01]'],
    ['a bare decimal point', '[1.]'],
    ['an exponent without digits', '[1e]'],
    ['single quotes', "{'a': 1}"],
    ['a trailing comma in an object', '{"a": 1,}'],
    ['a trailing comma in an array', '[1,]'],
    ['a raw control character in a string', '["a\u0001b"]'],
    ['an invalid escape', '["\\x41"]'],
    ['a short unicode escape', '["\\u12"]'],
    ['two documents', '{} {}'],
    ['an empty document', ''],
    ['comments', '{"a": 1 /* no */}'],
  ])('rejects %s', (_name, text) => {
    expect(() => parseStrictJson(text)).toThrow(JsonSyntaxError);
  });

  it('reads literals beyond the double range as ±Infinity with infiniteNumbers, keeping their kind, as Python reads them', () => {
    const huge = '9'.repeat(400);
    for (const input of [`{"f": 1e400, "g": -1E+999, "i": ${huge}, "j": -${huge}, "k": [1e400, ${huge}]}`]) {
      for (const bytes of [input, Buffer.from(input), Buffer.from(input.padEnd(70_000, ' '))]) {
        const doc = parseStrictJson(bytes, { infiniteNumbers: true }) as { f: number; g: number; i: number; j: number; k: number[] };
        expect([doc.f, doc.g, doc.i, doc.j, ...doc.k]).toEqual([Infinity, -Infinity, Infinity, -Infinity, Infinity, Infinity]);
        expect([isFloatToken(doc, 'f'), isFloatToken(doc, 'g'), isFloatToken(doc, 'i'), isFloatToken(doc, 'j'), isFloatToken(doc.k, 0), isFloatToken(doc.k, 1)])
          .toEqual([true, true, false, false, true, false]);
        // Without the option they stay refused.
        expect(() => parseStrictJson(bytes)).toThrow(JsonSyntaxError);
      }
    }
    // Python's int-string limit still holds.
    expect(() => parseStrictJson(`[${'9'.repeat(4301)}]`, { infiniteNumbers: true })).toThrow(/too many digits/);
    expect(parseStrictJson(`[${'9'.repeat(4300)}]`, { infiniteNumbers: true })).toEqual([Infinity]);
  });

  it('keeps each container\'s number kinds its own when many mark the same key (shared tables are copied before a write)', () => {
    const rows = Array.from({ length: 5 }, (_, i) => ({ value: i, other: 7 }));
    for (const row of rows) markFloat(row, 'value');
    markFloat(rows[1], 'other');
    setRawInteger(rows[2], 'other', '123456789012345678901');
    markFloat(rows[3], 'value');
    expect(rows.map((r) => isFloatToken(r, 'value'))).toEqual([true, true, true, true, true]);
    expect(rows.map((r) => isFloatToken(r, 'other'))).toEqual([false, true, false, false, false]);
    expect(rows.map((r) => rawIntegerOf(r, 'other'))).toEqual([undefined, undefined, '123456789012345678901', undefined, undefined]);
    expect(rows.map((r) => encodePythonBody(r))).toEqual([
      '{"value": 0.0, "other": 7}', '{"value": 1.0, "other": 7.0}', '{"value": 2.0, "other": 123456789012345678901}', '{"value": 3.0, "other": 7}', '{"value": 4.0, "other": 7}',
    ]);
    // A clone starts from its source's kinds and may then differ.
    const copy = cloneJson(rows[0]);
    markFloat(copy, 'other');
    expect([isFloatToken(copy, 'other'), isFloatToken(rows[0], 'other'), isFloatToken(rows[4], 'other')]).toEqual([true, false, false]);
  });

  it('rejects invalid UTF-8 bytes', () => {
    expect(() => parseStrictJson(new Uint8Array([0x5b, 0x22, 0xc3, 0x28, 0x22, 0x5d]))).toThrow(/UTF-8/);
  });

  it('skips a UTF-8 byte order mark, as Python does', () => {
    expect(parseStrictJson(new Uint8Array([0xef, 0xbb, 0xbf, 0x7b, 0x7d]))).toEqual({});
  });

  it('rejects nesting deeper than the limit but accepts it at the limit', () => {
    expect(() => parseStrictJson('['.repeat(513) + ']'.repeat(513))).toThrow(/deep/);
    expect(parseStrictJson('['.repeat(512) + ']'.repeat(512))).toBeInstanceOf(Array);
  });

  it('keeps the lexical kind of integral numbers', () => {
    const v = parseStrictJson('{"i": 3, "f": 3.0, "e": 1e2, "z": -0.0, "n": -0, "x": 2.5}') as Record<string, number>;
    expect(isFloatToken(v, 'i')).toBe(false);
    expect(isFloatToken(v, 'f')).toBe(true);
    expect(isFloatToken(v, 'e')).toBe(true);
    expect(isFloatToken(v, 'z')).toBe(true);
    expect(isFloatToken(v, 'n')).toBe(false);
    expect(isFloatToken(v, 'x')).toBe(true);
    expect(encodeDigestJson(v)).toBe('{"e":100.0,"f":3.0,"i":3,"n":0,"x":2.5,"z":-0.0}');
  });

  it('keeps number kinds and huge integers in short arrays of a large body (read in place; short arrays are copied to their size)', () => {
    // Over 64 KiB: the general reader, in place. Pairs like an atlas history, then short and
    // long arrays with integral floats and integers beyond 2^53 at every position.
    const pairs = Array.from({ length: 6000 }, (_, i) => `["2026-01-01", ${i}.0, ${i}]`).join(', ');
    const text = `{"h": [${pairs}], "s": [[1.0], [2, 3.0, 12345678901234567890], [], [${Array.from({ length: 20 }, (_, i) => `${i}.0`).join(', ')}]]}`;
    expect(text.length).toBeGreaterThan(64 * 1024);
    const read = parseStrictJson(Buffer.from(text)) as { h: unknown[][]; s: unknown[][] };
    expect(isFloatToken(read.h[4321], 1)).toBe(true);
    expect(isFloatToken(read.h[4321], 2)).toBe(false);
    expect(rawIntegerOf(read.s[1], 2)).toBe('12345678901234567890');
    expect(encodeDigestJson(read)).toBe(text.replace(/, /g, ',').replace(/": /g, '":'));
  });

  it('reads every decimal literal to the same double as Number() (property)', () => {
    const literal = fc.tuple(
      fc.boolean(),
      fc.oneof(fc.constant('0'), fc.stringMatching(/^[1-9][0-9]{0,20}$/)),
      fc.option(fc.stringMatching(/^[0-9]{1,25}$/), { nil: undefined }),
      fc.option(fc.integer({ min: -330, max: 310 }), { nil: undefined }),
    ).map(([neg, int, frac, exp]) => `${neg ? '-' : ''}${int}${frac === undefined ? '' : '.' + frac}${exp === undefined ? '' : 'e' + exp}`);
    fc.assert(fc.property(literal, (text) => {
      const expected = Number(text);
      if (!Number.isFinite(expected)) {
        expect(() => parseStrictJson(`[${text}]`)).toThrow(JsonSyntaxError);
        return;
      }
      const [value] = parseStrictJson(`[${text}]`) as number[];
      expect(Object.is(value, expected)).toBe(true);
    }), { numRuns: 3000 });
  });

  it('keeps the exact digits of integers beyond 2^53', () => {
    const v = parseStrictJson('[12345678901234567890123, -9007199254740993]');
    expect(encodeDigestJson(v)).toBe('[12345678901234567890123,-9007199254740993]');
  });

  it('decodes escapes including surrogate pairs and keeps lone surrogates for later checks', () => {
    expect(parseStrictJson('["\\ud83d\\ude00", "\\u00e9\\n\\/"]')).toEqual(['😀', 'é\n/']);
    expect(parseStrictJson('["\\ud800"]')).toEqual(['\ud800']);
  });

  it('stores a "__proto__" key as data, never as a prototype', () => {
    const v = parseStrictJson('{"__proto__": {"polluted": true}}') as Record<string, unknown>;
    expect(Object.keys(v)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
  });

  it('rejects duplicate keys even when one is spelled with escapes', () => {
    expect(() => parseStrictJson('{"a": 1, "\\u0061": 2}')).toThrow(/duplicate/);
  });

  it('reads records whose keys change order or spelling from one element to the next', () => {
    const text = '[{"a": 1, "b": 2}, {"b": 3, "a": 4}, {"a\\"x": 5}, {"a\\"x": 6, "a": 7}, {"ab": 8}, {"a": 9, "a": 10}]';
    expect(() => parseStrictJson(text)).toThrow(/duplicate/);
    expect(parseStrictJson(text.replace(', {"a": 9, "a": 10}', ''))).toEqual([{ a: 1, b: 2 }, { b: 3, a: 4 }, { 'a"x': 5 }, { 'a"x': 6, a: 7 }, { ab: 8 }]);
  });
});

describe('Python float formatting', () => {
  it.each([
    [2914, '2914.0'], [0, '0.0'], [-0, '-0.0'], [0.001, '0.001'], [2930.193, '2930.193'], [1e-5, '1e-05'],
    [0.0001, '0.0001'], [1e16, '1e+16'], [1e15, '1000000000000000.0'], [1.5e-200, '1.5e-200'], [1e200, '1e+200'],
    [0.1, '0.1'], [123456789.125, '123456789.125'], [-2.5e-7, '-2.5e-07'], [1.2345678901234567e16, '1.2345678901234568e+16'],
    [5e-324, '5e-324'], [1.7976931348623157e308, '1.7976931348623157e+308'], [0.15000000000000002, '0.15000000000000002'],
  ])('formats %s as %s', (value, text) => {
    expect(pyFloatRepr(value)).toBe(text);
  });

  it('round-trips every finite double through its Python form', () => {
    fc.assert(fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => {
      expect(Object.is(Number(pyFloatRepr(x)), x)).toBe(true);
    }), { numRuns: 2000 });
  });

  it('refuses non-finite numbers', () => {
    expect(() => pyFloatRepr(Number.NaN)).toThrow();
    expect(() => encodeDigestJson([Infinity])).toThrow();
  });
});

describe('canonical encoders', () => {
  it('digest form sorts keys by code point and uses no whitespace', () => {
    expect(encodeDigestJson({ b: 1, a: [true, null, 'x'], '\u{1F600}': 1, '\uffff': 2 })).toBe('{"a":[true,null,"x"],"b":1,"\uffff":2,"\u{1F600}":1}');
  });

  it('reproduces the documented Dyson request digest', () => {
    const parsed = parseStrictJson('{"dimension": 3, "steps": 5, "seed": 6116}') as Record<string, unknown>;
    const filled = { dimension: parsed.dimension, steps: parsed.steps, dt: 0.05, seed: parsed.seed };
    expect(encodeDigestJson(filled)).toBe('{"dimension":3,"dt":0.05,"seed":6116,"steps":5}');
    expect(sha256Hex(encodeDigestJson(filled))).toBe('72158c5170f6ecee53d0ff66f229f6692fa0a51ba9e7ae1977d91248b7c90170');
  });

  it('reproduces the documented default market policy digest only when floats keep their kind', () => {
    const policy = { baseline_points: 30, recent_points: 3, move_threshold: 3, volatility_ratio: 3, coverage_drop_fraction: 0.2 };
    expect(sha256Hex(encodeDigestJson(policy))).not.toBe('2d73b416c5ae3bc1e42b47e77549a88a48f6a0a865f68a61fc9c8e8c5af594d1');
    markFloat(policy, 'move_threshold');
    markFloat(policy, 'volatility_ratio');
    expect(sha256Hex(encodeDigestJson(policy))).toBe('2d73b416c5ae3bc1e42b47e77549a88a48f6a0a865f68a61fc9c8e8c5af594d1');
  });

  it('Python body form keeps insertion order with ", " and ": " separators', () => {
    const v = parseStrictJson('{"z": 1.0, "a": ["é", 2]}');
    expect(encodePythonBody(v)).toBe('{"z": 1.0, "a": ["é", 2]}');
    expect(encodePythonBody({ error: 'route not found' })).toHaveLength(28);
  });

  it('document form is sorted, indented by two, ASCII-only, with one trailing newline', () => {
    const doc = { b: { y: [], x: {} }, a: 'café \u2028 😀', n: 2914 };
    markFloat(doc, 'n');
    expect(encodeCanonicalDocument(doc)).toBe(
      '{\n  "a": "caf\\u00e9 \\u2028 \\ud83d\\ude00",\n  "b": {\n    "x": {},\n    "y": []\n  },\n  "n": 2914.0\n}\n',
    );
  });

  it('escapes DEL only in the ASCII form, as Python does', () => {
    expect(encodeCanonicalDocument(['\u007f'])).toBe('[\n  "\\u007f"\n]\n');
    expect(encodeDigestJson(['\u007f'])).toBe('["\u007f"]');
  });

  it('refuses to encode a lone surrogate', () => {
    expect(() => encodeDigestJson({ a: 'x\ud800' })).toThrow(LoneSurrogateError);
    expect(() => encodeCanonicalDocument({ '\udc00': 1 })).toThrow(LoneSurrogateError);
  });

  it('clone and copyMember keep number kinds', () => {
    const v = parseStrictJson('{"a": [1.0, 2], "b": 5.0}') as Record<string, unknown>;
    const c = cloneJson(v);
    expect(encodeDigestJson(c)).toBe('{"a":[1.0,2],"b":5.0}');
    const target: Record<string, unknown> = {};
    copyMember(target, 'renamed', v, 'b');
    expect(encodeDigestJson(target)).toBe('{"renamed":5.0}');
  });

  const jsonValue = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      fc.constant(null), fc.boolean(), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.string({ unit: 'grapheme' }),
      fc.array(tie('value'), { maxLength: 5 }),
      fc.dictionary(fc.string({ unit: 'grapheme', maxLength: 6 }), tie('value'), { maxKeys: 5 }),
    ),
  })).value;

  it('every encoder output parses back to the same value (property)', () => {
    fc.assert(fc.property(jsonValue, (v) => {
      for (const encode of [encodeDigestJson, encodePythonBody, encodeCanonicalDocument]) {
        const back = parseStrictJson(encode(v));
        expect(back).toEqual(JSON.parse(JSON.stringify(v, (_k, x) => (Object.is(x, -0) ? 0 : x))));
      }
    }), { numRuns: 300 });
  });

  it('re-encoding a parsed document reproduces its bytes exactly (property)', () => {
    fc.assert(fc.property(jsonValue, (v) => {
      const once = encodeCanonicalDocument(v);
      expect(encodeCanonicalDocument(parseStrictJson(once))).toBe(once);
      const digest = encodeDigestJson(v);
      expect(encodeDigestJson(parseStrictJson(digest))).toBe(digest);
    }), { numRuns: 300 });
  });
});

describe('fast float formatting', () => {
  it('agrees with the general Python repr for any double (property)', () => {
    fc.assert(fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => {
      expect(floatText(x)).toBe(pyFloatRepr(x));
    }), { numRuns: 5000 });
  });

  it('agrees with the general Python repr for short decimals such as prices and rates (property)', () => {
    const decimal = fc.tuple(fc.integer({ min: -999_999_999_999, max: 999_999_999_999 }), fc.integer({ min: 0, max: 9 }))
      .map(([units, scale]) => units / 10 ** scale);
    fc.assert(fc.property(decimal, (x) => {
      expect(floatText(x)).toBe(pyFloatRepr(x));
    }), { numRuns: 20000 });
  });

  it.each([4, 0.0001, 0.1, 123.4567, 2930.193, 999999999.999999, 0.000123, -0.5, 1e-4 * 3, 0.1 + 0.2])('prints %s as Python does', (x) => {
    expect(floatText(x)).toBe(pyFloatRepr(x));
  });

  it('is what the encoders write for floats, byte for byte (property)', () => {
    const decimal = fc.tuple(fc.integer({ min: -999_999_999_999_999, max: 999_999_999_999_999 }), fc.integer({ min: 0, max: 9 }))
      .map(([units, scale]) => units / 10 ** scale);
    fc.assert(fc.property(fc.oneof(decimal, fc.double({ noNaN: true, noDefaultInfinity: true })), (x) => {
      const list = [x];
      markFloat(list, 0);
      expect(encodeDigestJson(list)).toBe(`[${pyFloatRepr(x)}]`);
    }), { numRuns: 20000 });
  });

  it('is what the encoders write for integers, byte for byte (property)', () => {
    const integral = fc.oneof(fc.integer(), fc.maxSafeInteger(), fc.constantFrom(-0, 2 ** 31, -(2 ** 31), 2 ** 31 - 1, 1e21, -1e22, 2 ** 53));
    fc.assert(fc.property(integral, (n) => {
      expect(encodeDigestJson([n])).toBe(`[${BigInt(n)}]`);
    }), { numRuns: 5000 });
  });
});

describe('byte sink growth', () => {
  it('keeps every byte of documents far larger than one 64 KiB chunk, kept or hashed', () => {
    // Kept bytes grow one buffer; hashed ones go out in chunks: both must see the same
    // text. Eighths print alike in JS and Python, and keys are already in sorted order.
    const rows = Array.from({ length: 20_000 }, (_, i) => ({ id: `row-${i}`, note: i % 7 === 0 ? 'é "q"' : 'x', value: i / 8 }));
    const kept = encodeDigestJson(rows);
    expect(kept.length).toBeGreaterThan(1 << 19);
    expect(kept).toBe(JSON.stringify(rows));
    expect(sha256OfDigestJson(rows)).toBe(sha256Hex(kept));
  });
});
