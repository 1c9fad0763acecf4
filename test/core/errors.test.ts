import { describe, expect, it } from 'vitest';
import { AppError, CoreErrors, defineErrors, errorCatalogue, lookupError } from '../../src/core/errors.js';

describe('error registry', () => {
  it('gives every code one status and one meaning', () => {
    const catalogue = errorCatalogue();
    expect(new Set(catalogue.map((e) => e.code)).size).toBe(catalogue.length);
    for (const entry of catalogue) {
      expect(entry.status).toBeGreaterThanOrEqual(400);
      expect(entry.meaning.length).toBeGreaterThan(10);
    }
    expect(lookupError('malformed_json')).toEqual(CoreErrors.malformed_json);
  });

  it('refuses to redefine a code with another status', () => {
    expect(() => defineErrors('shared', { malformed_json: { status: 422, meaning: 'something else' } })).toThrow(/twice/);
  });

  it('refuses to move a code into another group', () => {
    const { code, status, meaning } = CoreErrors.malformed_json;
    expect(() => defineErrors('analysis', { [code]: { status, meaning } })).toThrow(/twice/);
  });

  it('carries code, status, path and headers on AppError', () => {
    const err = new AppError(CoreErrors.overloaded, undefined, { path: '/a', headers: { 'retry-after': '1' } });
    expect(err).toMatchObject({ code: 'overloaded', status: 503, path: '/a', headers: { 'retry-after': '1' } });
    expect(err.message).toBe(CoreErrors.overloaded.meaning);
  });
});
