// The common latest read (anonymous, the current packet checked within the last second)
// is answered without waiting on the store; every other read takes the general path.
// Both must give the same response, byte for byte, headers included.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { invalidateCurrentPacket } from '../../src/funding/current-cache.js';
import { useFundingHarness } from './harness.js';
import { enrolled } from '../applications/support.js';

const comparable = (res: { statusCode: number; headers: Record<string, unknown>; rawPayload: Buffer }) => {
  // The date and the check instant follow the clock, which moves between the two reads.
  const { date: _date, 'x-evidence-checked-at': checkedAt, ...headers } = res.headers;
  expect(checkedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}\+00:00$/);
  return { status: res.statusCode, headers, body: res.rawPayload.toString('base64') };
};

describe('latest: the in-memory fast path', () => {
  const h = useFundingHarness();

  it('answers exactly as the path through the store, for 200 and 304, with or without exclusion headers', async () => {
    await h.captured();
    const etag = (await h.get('/v1/funding/latest')).headers.etag as string;
    await fc.assert(
      fc.asyncProperty(
        fc.record(
          {
            'if-none-match': fc.constantFrom(etag, `W/${etag}`, '"0000"', `"x", ${etag}`, '*'),
            'x-traffic-class': fc.constantFrom('test', 'Synthetic', 'human', ''),
            'x-operator-probe': fc.constantFrom('1', ''),
            origin: fc.constantFrom('https://example.org', 'null'),
          },
          { requiredKeys: [] },
        ),
        async (headers) => {
          invalidateCurrentPacket(h.storage);
          const general = await h.get('/v1/funding/latest', headers);
          const fast = await h.get('/v1/funding/latest', headers);
          expect(comparable(fast)).toEqual(comparable(general));
          expect([200, 304]).toContain(fast.statusCode);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('a keyed reader gets the same body and validator as an anonymous one', async () => {
    await h.captured();
    const { token } = await enrolled(h.app);
    const anonymous = await h.get('/v1/funding/latest');
    const keyed = await h.get('/v1/funding/latest', { authorization: `Bearer ${token}` });
    expect(keyed.statusCode).toBe(200);
    expect(keyed.headers['x-usage-recorded']).toBe('true');
    expect(keyed.rawPayload.equals(anonymous.rawPayload)).toBe(true);
    expect(keyed.headers.etag).toBe(anonymous.headers.etag);
    // Any Authorization header takes the general path, where a malformed one is refused.
    const malformed = await h.get('/v1/funding/latest', { authorization: 'Basic abc' });
    expect(malformed.statusCode).toBe(401);
  });
});
