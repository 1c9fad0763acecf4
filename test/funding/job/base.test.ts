import { describe, expect, it } from 'vitest';
import { checkBase } from '../../../src/funding/job/job.js';
import { JobError } from '../../../src/funding/job/errors.js';

describe('the job base URL', () => {
  it('accepts http(s) bases with or without a path prefix, trimming trailing slashes', () => {
    expect(checkBase('https://evidence.example/funding-evidence/', true)).toBe('https://evidence.example/funding-evidence');
    expect(checkBase('http://127.0.0.1:8080', true)).toBe('http://127.0.0.1:8080');
    expect(checkBase('http://localhost:8080', true)).toBe('http://localhost:8080');
    expect(checkBase('http://evidence.example', false)).toBe('http://evidence.example');
  });

  it('never sends a key over plain http to another machine, and refuses odd bases', () => {
    for (const [base, withToken] of [
      ['http://evidence.example', true],
      ['ftp://evidence.example', false],
      ['https://user:pw@evidence.example', false],
      ['https://evidence.example/?a=1', false],
      ['not a url', false],
    ] as const) {
      expect(() => checkBase(base, withToken), base).toThrow(JobError);
    }
  });
});
