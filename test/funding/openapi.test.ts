import { describe, expect, it } from 'vitest';
import { makeTestApp } from '../helpers/app.js';

describe('funding routes in the OpenAPI document', () => {
  it('documents the funding routes in the OpenAPI document', async () => {
    const t = await makeTestApp();
    try {
      const doc = (await t.app.inject({ url: '/openapi.json' })).json();
      for (const p of ['/v1/funding/latest', '/v1/funding/changes', '/v1/funding/history', '/packets/{packet_id}/{file}']) expect(Object.keys(doc.paths)).toContain(p);
      // The prefixed copies stay out of the document, except the operations served only there.
      expect(Object.keys(doc.paths).filter((p: string) => p.startsWith('/funding-evidence/')).sort()).toEqual(['/funding-evidence/apps.json', '/funding-evidence/widgets.json']);
    } finally {
      await t.close();
    }
  });
});
