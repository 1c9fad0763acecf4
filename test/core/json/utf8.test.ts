import fc from 'fast-check';
import { isUtf8 } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import { JsonSyntaxError, parseStrictJson } from '../../../src/core/json.js';
import { firstInvalidUtf8 } from '../../../src/core/json/utf8.js';

// Recorded from Python 3: bytes.decode('utf-8') raising UnicodeDecodeError, whose start is the offset.
const PYTHON_OFFSETS: [string, number][] = [
  ['ff', 0],
  ['6162ff', 2],
  ['7b2261223a2022c328227d', 7],
  ['e08080', 0],
  ['78eda080', 1],
  ['f4908080', 0],
  ['6f6be282', 2],
  ['c0af', 0],
  ['f09f9880f09f98', 4],
  ['c3a980', 2],
  ['22efbfbdfe22', 4],
];

// Bytes near the edges of the UTF-8 ranges, so that drawn arrays hit every kind of fault.
const edgeByte = fc.constantFrom(0x00, 0x41, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0xff);
const bytesArb = fc.array(fc.oneof(edgeByte, fc.integer({ min: 0, max: 255 })), { maxLength: 24 }).map((b) => Uint8Array.from(b));

describe('the first byte of invalid UTF-8', () => {
  it('is the offset Python names', () => {
    for (const [hex, offset] of PYTHON_OFFSETS) expect(firstInvalidUtf8(Buffer.from(hex, 'hex')), hex).toBe(offset);
  });

  it('is -1 exactly for valid UTF-8; else everything before it is valid and no longer prefix is (property)', () => {
    fc.assert(fc.property(bytesArb, (bytes) => {
      const at = firstInvalidUtf8(bytes);
      expect(at === -1).toBe(isUtf8(bytes));
      if (at === -1) return;
      expect(isUtf8(bytes.subarray(0, at))).toBe(true);
      for (let end = at + 1; end <= bytes.length; end++) expect(isUtf8(bytes.subarray(0, end))).toBe(false);
    }), { numRuns: 3000 });
  });

  it('is the offset a JSON refusal of such bytes reports, short or long', () => {
    for (const pad of [0, 70_000]) {
      const body = Buffer.concat([Buffer.from(`{"pad": "${'p'.repeat(pad)}", "x": "`), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]);
      const at = body.indexOf(0xc3);
      expect(() => parseStrictJson(body)).toThrow(new JsonSyntaxError('body is not valid UTF-8', at));
    }
  });
});
