import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  cloneJson, encodeDigestJson, encodePythonBody, isArrayIndexKey, keysInOrder, parseStrictJson, setKeyOrder,
} from '../../../src/core/json.js';

describe('member order of objects with array-index keys', () => {
  it('tells array-index keys (what JS enumerates first) from other keys', () => {
    for (const key of ['0', '1', '42', '4294967294']) expect(isArrayIndexKey(key), key).toBe(true);
    for (const key of ['', '01', '-1', '1.5', '4294967295', '99999999999', 'a1', '1a', ' 1', '__proto__']) {
      expect(isArrayIndexKey(key), key).toBe(false);
    }
    // The rule is V8's own: exactly the keys listed first in ascending numeric order.
    const o: Record<string, number> = {};
    for (const key of ['b', '4294967295', '4294967294', '01', '7', '0']) o[key] = 1;
    const early = Object.keys(o).filter((k) => isArrayIndexKey(k));
    expect(Object.keys(o).slice(0, early.length)).toEqual(early);
  });

  it('the reader records the written order and the Python-body encoder writes it back', () => {
    const text = '{"zeta": 1, "2": 2.0, "alpha": [3], "0": {"y": 1, "1": 2}, "__proto__": null}';
    const value = parseStrictJson(text) as Record<string, unknown>;
    expect(keysInOrder(value)).toEqual(['zeta', '2', 'alpha', '0', '__proto__']);
    expect(keysInOrder(value['0'] as object)).toEqual(['y', '1']);
    expect(encodePythonBody(value)).toBe(text);
    // Digests sort the keys anyway.
    expect(encodeDigestJson(value)).toBe('{"0":{"1":2,"y":1},"2":2.0,"__proto__":null,"alpha":[3],"zeta":1}');
  });

  it('a number member named __proto__ is an own member like any other', () => {
    const value = parseStrictJson('{"__proto__": 1.5, "a": 2}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(['__proto__', 'a']);
    expect(encodePythonBody(value)).toBe('{"__proto__": 1.5, "a": 2}');
  });

  it('objects without such keys keep their plain enumeration order and pay no side entry', () => {
    const value = parseStrictJson('{"b": 1, "a": 2}') as object;
    expect(keysInOrder(value)).toEqual(['b', 'a']);
    expect(encodePythonBody(value)).toBe('{"b": 1, "a": 2}');
  });

  it('a deep copy keeps the order', () => {
    const value = parseStrictJson('{"x": {"k": 1, "3": 2.0, "1": 3}}') as Record<string, object>;
    const copy = cloneJson(value);
    expect(keysInOrder(copy.x)).toEqual(['k', '3', '1']);
    expect(encodePythonBody(copy)).toBe('{"x": {"k": 1, "3": 2.0, "1": 3}}');
  });

  it('an order recorded by code is honoured by the encoder', () => {
    const o: Record<string, number> = {};
    for (const key of ['decided', '1', '0']) o[key] = 1;
    setKeyOrder(o, ['decided', '1', '0']);
    expect(encodePythonBody(o)).toBe('{"decided": 1, "1": 1, "0": 1}');
  });

  it('any object read and re-encoded comes back in the written order', () => {
    const key = fc.oneof(fc.string({ maxLength: 4 }), fc.nat({ max: 50 }).map(String), fc.constant('__proto__'));
    const entries = fc.uniqueArray(fc.tuple(key, fc.integer()), { selector: ([k]) => k, maxLength: 8 });
    fc.assert(
      fc.property(entries, (pairs) => {
        const text = '{' + pairs.map(([k, v]) => `${JSON.stringify(k)}: ${v}`).join(', ') + '}';
        const value = parseStrictJson(text) as object;
        expect(keysInOrder(value)).toEqual(pairs.map(([k]) => k));
        expect(encodePythonBody(value)).toBe(text);
      }),
    );
  });
});
