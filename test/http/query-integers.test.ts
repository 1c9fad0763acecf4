// Integer query parameters are read as decimal digits: text that JavaScript's Number()
// would read as a number in another way is refused exactly as non-numeric text is.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

const history = (mount: string, limit: string) => t.app.inject({ method: 'GET', url: `${mount}/v1/funding/history?limit=${encodeURIComponent(limit)}` });

// Texts Number() reads as a whole number between 1 and 96 that are not written in decimal digits.
const numberLike = fc.oneof(
  fc.integer({ min: 1, max: 96 }).map((n) => `0x${n.toString(16)}`),
  fc.integer({ min: 1, max: 96 }).map((n) => `0b${n.toString(2)}`),
  fc.integer({ min: 1, max: 96 }).map((n) => `0o${n.toString(8)}`),
  fc.integer({ min: 1, max: 9 }).map((n) => `${n}e1`),
  fc.integer({ min: 1, max: 96 }).map((n) => `${n}.0`),
  fc.integer({ min: 1, max: 96 }).map((n) => `${n}.`),
  fc.tuple(fc.constantFrom(' ', '\t', '\n'), fc.integer({ min: 1, max: 96 })).map(([ws, n]) => `${ws}${n}${ws}`),
  fc.constantFrom(' ', '\t', '0x', '1_0'),
);

describe('integer query parameters', () => {
  it('refuses number-like text that is not decimal digits as it refuses abc, at both mounts', async () => {
    const reference = await history('', 'abc');
    expect(reference.statusCode).toBe(422);
    expect(reference.json()).toMatchObject({ code: 'invalid_request', path: '/limit' });
    await fc.assert(
      fc.asyncProperty(numberLike, fc.constantFrom('', '/funding-evidence'), async (limit, mount) => {
        const res = await history(mount, limit);
        expect({ limit, status: res.statusCode, body: res.body }).toEqual({ limit, status: 422, body: reference.body });
      }),
      { numRuns: 150 },
    );
  });

  it('still reads decimal digits, signed or with leading zeros, and checks their bounds', async () => {
    for (const [limit, code] of [['5', undefined], ['+5', undefined], ['007', undefined], ['96', undefined], ['0', 'invalid_request'], ['-1', 'invalid_request'], ['97', 'invalid_request']] as const) {
      const res = await history('', limit);
      if (code === undefined) expect(res.statusCode, limit).not.toBe(422);
      else expect(res.json().detail, limit).toMatch(/must be [<>]=/);
    }
  });
});
