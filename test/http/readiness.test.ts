import { describe, expect, it } from 'vitest';
import { backends } from '../helpers/storage.js';
import { makeTestApp } from '../helpers/app.js';

for (const backend of backends) {
  describe(`readiness on ${backend.name}`, () => {
    it('reports ready while the store answers and 503 with a code once it is gone', async () => {
      const { storage, cleanup } = await backend.open();
      const t = await makeTestApp({}, { storage });
      try {
        const ok = await t.app.inject({ method: 'GET', url: '/readyz' });
        expect(ok.statusCode).toBe(200);
        expect(ok.json().storage).toBe(backend.name);
        await storage.close();
        const down = await t.app.inject({ method: 'GET', url: '/readyz' });
        expect(down.statusCode).toBe(503);
        expect(down.json().code).toBe('storage_unavailable');
        expect(down.headers['retry-after']).toBeDefined();
        const live = await t.app.inject({ method: 'GET', url: '/healthz' });
        expect(live.statusCode).toBe(200);
      } finally {
        await t.close();
        await cleanup();
      }
    });
  });
}
