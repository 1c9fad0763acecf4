import { describe, expect, it } from 'vitest';
import { makeTestApp } from '../helpers/app.js';

describe('funding routes in the OpenAPI document', () => {
  it('documents the funding routes in the OpenAPI document', async () => {
    const t = await makeTestApp();
    try {
      const doc = (await t.app.inject({ url: '/openapi.json' })).json();
      for (const p of ['/v1/funding/latest', '/v1/funding/changes', '/v1/funding/history', '/packets/{packet_id}/{file}']) expect(Object.keys(doc.paths)).toContain(p);
      expect(Object.keys(doc.paths).some((p: string) => p.startsWith('/funding-evidence/'))).toBe(false);
    } finally {
      await t.close();
    }
  });
});
