import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formatInstantZ, parseUtcMicros, parseUtcTimestamp } from '../../src/core/time.js';

const LIMIT = 2n ** 53n;

/** What parseUtcMicros promises, stated through the BigInt parser. */
function expected(text: string): number | null {
  const t = parseUtcTimestamp(text);
  if (t === null) return null;
  return t > LIMIT || t < -LIMIT ? NaN : Number(t);
}

describe('parseUtcMicros (double microseconds where they are exact)', () => {
  it('agrees with the BigInt parser on clocks across the whole range', () => {
    const instant = fc.bigInt({ min: -62135596800000000n, max: 253402300799999999n });
    fc.assert(
      fc.property(instant, fc.boolean(), (t, offset) => {
        const text = offset ? formatInstantZ(t).replace('Z', '+00:00') : formatInstantZ(t);
        expect(Object.is(parseUtcMicros(text), expected(text))).toBe(true);
      }),
      { numRuns: 5000 },
    );
  });

  it('is exact up to ±2^53 µs and NaN just beyond', () => {
    for (const t of [LIMIT - 1n, LIMIT, LIMIT + 1n, -LIMIT - 1n, -LIMIT, -LIMIT + 1n, 0n, -1n]) {
      const text = formatInstantZ(t);
      expect(Object.is(parseUtcMicros(text), expected(text))).toBe(true);
    }
    expect(parseUtcMicros(formatInstantZ(LIMIT))).toBe(2 ** 53);
    expect(parseUtcMicros(formatInstantZ(LIMIT + 1n))).toBeNaN();
  });

  it('refuses what the BigInt parser refuses', () => {
    for (const text of ['2026-02-29T00:00:00Z', '2026-10-08T01:00:00', 'bad', '2026-10-08T01:00:00.1234567Z']) {
      expect(parseUtcMicros(text)).toBeNull();
    }
  });
});
