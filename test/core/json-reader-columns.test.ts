import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { JsonSyntaxError, parseStrictJson } from '../../src/core/json.js';
import { parseStrictJsonGeneral, readInPlace } from '../../src/core/json/reader.js';

// The reader reuses the string read at the same place of the previous list of records
// (panels repeat their clocks); these check that reuse never changes what is returned.
describe('strict JSON reader on lists of records inside lists', () => {
  const text = fc.oneof(
    fc.constantFrom('2026-01-01T00:00:00Z', '2026-01-01T01:00:00Z', '2026-01-01T00:00:00', 'a"b', 'a\\b', 'é', 'x\ny', ''),
    fc.string({ maxLength: 6 }),
    fc.string({ unit: 'binary', maxLength: 4 }),
  );
  const record = fc.dictionary(fc.constantFrom('observed_at', 'available_at', 'value', 'k'), fc.oneof(text, fc.integer(), fc.constant(null)), {
    maxKeys: 4,
  });
  const panel = fc.record({
    series: fc.array(fc.record({ id: text, observations: fc.array(record, { maxLength: 6 }) }), { maxLength: 6 }),
  });

  it('returns what JSON.parse returns, from bytes and from text', () => {
    fc.assert(
      fc.property(panel, (doc) => {
        const json = JSON.stringify(doc);
        const expected = JSON.parse(json);
        expect(parseStrictJson(Buffer.from(json, 'utf8'))).toEqual(expected);
        expect(parseStrictJson(json)).toEqual(expected);
        // Small bodies go through JSON.parse; the cache lives in the in-place and text readers.
        expect(readInPlace(Buffer.from(json, 'utf8'))).toEqual(expected);
        expect(parseStrictJsonGeneral(json)).toEqual(expected);
      }),
      { numRuns: 500 },
    );
  });

  it('reads a text that merely starts like the previous list\'s value', () => {
    const json = '{"s": [{"o": [{"t": "abc"}, {"t": "abd"}]}, {"o": [{"t": "abcd"}, {"t": "ab\\u0064"}]}, {"o": [{"t": "ab"}, {"t": "abd"}]}]}';
    for (const doc of [parseStrictJson(Buffer.from(json)), readInPlace(Buffer.from(json)), parseStrictJsonGeneral(json)] as { s: { o: { t: string }[] }[] }[]) {
      expect(doc.s.map((s) => s.o.map((o) => o.t))).toEqual([['abc', 'abd'], ['abcd', 'abd'], ['ab', 'abd']]);
    }
  });

  it('still refuses duplicate keys and raw control characters in later lists', () => {
    expect(() => parseStrictJson(Buffer.from('[{"o": [{"t": "a"}]}, {"o": [{"t": "a", "t": "a"}]}]'))).toThrow(JsonSyntaxError);
    expect(() => parseStrictJson(Buffer.from('[{"o": [{"t": "a"}]}, {"o": [{"t": "a\u0001"}]}]'))).toThrow(JsonSyntaxError);
    expect(() => readInPlace(Buffer.from('[{"o": [{"t": "a"}]}, {"o": [{"t": "a", "t": "a"}]}]'))).toThrow(JsonSyntaxError);
    expect(() => readInPlace(Buffer.from('[{"o": [{"t": "a"}]}, {"o": [{"t": "a\u0001"}]}]'))).toThrow(JsonSyntaxError);
  });

  it('keeps a __proto__ member an own data property', () => {
    const doc = parseStrictJson('[{"o": [{"__proto__": "x"}]}, {"o": [{"__proto__": "x"}]}]') as { o: object[] }[];
    for (const s of doc) {
      expect(Object.getPrototypeOf(s.o[0])).toBe(Object.prototype);
      expect(Object.getOwnPropertyDescriptor(s.o[0], '__proto__')?.value).toBe('x');
    }
  });
});
