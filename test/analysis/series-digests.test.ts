import { describe, expect, it } from 'vitest';
import { isAppError } from '../../src/core/errors.js';
import { sha256OfDigestJson } from '../../src/core/json.js';
import { seriesRequestSha256 } from '../../src/analysis/request-digest.js';
import { withSeriesDigests } from '../../src/analysis/series-digests.js';

describe('series digests', () => {
  it('append request_sha256 then policy_sha256 after the body members', () => {
    const request = { series: [], as_of: '2026-01-01T00:00:00Z', policy: { b: 2 } };
    const result = withSeriesDigests(request, { a: 1, policy: { b: 2, c: 3.5 } });
    expect(Object.keys(result)).toEqual(['a', 'policy', 'request_sha256', 'policy_sha256']);
    expect(result.request_sha256).toBe(seriesRequestSha256(request));
    expect(result.policy_sha256).toBe(sha256OfDigestJson({ b: 2, c: 3.5 }));
  });

  it('report a request that cannot be digested as lone_surrogate', () => {
    let error: unknown;
    try {
      withSeriesDigests({ series: [{ id: 'bad\uD800' }], as_of: '2026-01-01T00:00:00Z' }, { policy: {} });
    } catch (e) {
      error = e;
    }
    expect(isAppError(error) && error.code).toBe('lone_surrogate');
  });
});
