import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseQueryString } from '../../src/http/query-string.js';

// Recorded from Python 3: parse_qsl(query, keep_blank_values=True), a repeated name's values in order.
const PYTHON: [string, Record<string, string | string[]>][] = [
  ["limit=%ff", {"limit": "\ufffd"}],
  ["a=x%ffy%41", {"a": "x\ufffdyA"}],
  ["a=%zz", {"a": "%zz"}],
  ["a=%", {"a": "%"}],
  ["a=%4", {"a": "%4"}],
  ["a=1&a=2&a=3", {"a": ["1", "2", "3"]}],
  ["a&b=1", {"a": "", "b": "1"}],
  ["=x", {"": "x"}],
  ["&&a=1&", {"a": "1"}],
  ["a=1;b=2", {"a": "1;b=2"}],
  ["a+b=c+d", {"a b": "c d"}],
  ["a=%2B1", {"a": "+1"}],
  ["a=%e2%82", {"a": "\ufffd"}],
  ["a=%C3%A9", {"a": "\u00e9"}],
  ["a==b", {"a": "=b"}],
  ["%61=1", {"a": "1"}],
  ["a=%u0041", {"a": "%u0041"}],
  ["a=%00", {"a": "\u0000"}],
  ["a=1&&", {"a": "1"}],
  ["a", {"a": ""}],
  ["a=%C3b%A9", {"a": "\ufffdb\ufffd"}],
  ["a=%EF%BB%BFx", {"a": "\ufeffx"}],
  ["a=%F0%9F%98%80", {"a": "\ud83d\ude00"}],
  ["a=%ED%A0%80", {"a": "\ufffd\ufffd\ufffd"}],
  ["a=%c0%af", {"a": "\ufffd\ufffd"}],
  ["constructor=x&toString=y", {"constructor": "x", "toString": "y"}],
];

describe('query strings', () => {
  it('read as Python\'s parse_qsl reads them, invalid escapes and repeated names included', () => {
    for (const [query, expected] of PYTHON) expect({ ...parseQueryString(query) }, query).toEqual(expected);
  });

  it('give back any text a client percent-encodes (property)', () => {
    fc.assert(fc.property(fc.dictionary(fc.string({ minLength: 1 }), fc.string(), { maxKeys: 5 }), (params) => {
      const wellFormed = Object.fromEntries(Object.entries(params).filter(([k, v]) => k.isWellFormed() && v.isWellFormed()));
      const query = Object.entries(wellFormed).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
      expect({ ...parseQueryString(query) }).toEqual(wellFormed);
    }));
  });

  it('make names such as __proto__ plain members', () => {
    const parsed = parseQueryString('__proto__=1&constructor=x');
    expect(Object.getPrototypeOf(parsed)).toBeNull();
    expect(parsed.__proto__).toBe('1');
  });
});
