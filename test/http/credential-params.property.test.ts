// The credential-in-URL guard decides from the raw query without decoding when nothing is
// encoded; for every query it must name the same parameter URLSearchParams would.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { credentialParamOf } from '../../src/http/app.js';

const NAMES = ['token', 'api_key', 'apikey', 'access_token', 'key'];

function byDecoding(query: string): string | undefined {
  for (const name of new URLSearchParams(query).keys()) if (NAMES.includes(name.toLowerCase())) return name;
  return undefined;
}

const piece = fc.oneof(
  fc.constantFrom(...NAMES, 'TOKEN', 'Api_Key', 'keys', 'monkey', 'key2', 'dataset', 'limit', 'to%6Ben', 'api%5Fkey', 'k+ey', '%4B%45%59'),
  fc.constantFrom('=', '&', '?', '%', '+', '=1', '%zz', ';', '#'),
  fc.string({ maxLength: 6 }),
);
const query = fc.array(piece, { maxLength: 12 }).map((parts) => parts.join(''));

describe('credentialParamOf', () => {
  it('names the credential parameter exactly as decoding every name would', () => {
    fc.assert(fc.property(query, (q) => {
      expect(credentialParamOf(q)).toBe(byDecoding(q));
    }), { numRuns: 5000 });
  });

  it('finds names in any case and position, encoded or not, and leaves look-alikes alone', () => {
    expect(credentialParamOf('dataset=x&Token=abc')).toBe('Token');
    expect(credentialParamOf('key')).toBe('key');
    expect(credentialParamOf('to%6Ben=1')).toBe('token');
    expect(credentialParamOf('?access_token=1')).toBe('access_token');
    expect(credentialParamOf('??token')).toBeUndefined();
    expect(credentialParamOf('monkey=1&keys=2&apikey2=3')).toBeUndefined();
  });
});
