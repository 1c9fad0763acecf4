// Two service instances on one store (PostgreSQL when DATABASE_URL is set, as CI runs it;
// SQLite otherwise): each its own app, store handle and in-process cache, sharing only the
// database. They fetch each source once between them, answer with the same snapshot_id and
// rows, and page one snapshot across instances byte for byte.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseStrictJson } from '../../src/core/json.js';
import type { QueryResult } from '../../src/data/schemas.js';
import type { Storage } from '../../src/storage/storage.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { backends } from '../helpers/storage.js';
import { atlasDoc, boardDoc } from '../data/documents.js';
import { liveConfig, serveJson, startSourceServer, testClock, type SourceServer, type TestClock } from '../data/support.js';

for (const backend of backends) {
  describe(`two instances on one ${backend.name} store`, () => {
    let opened: Awaited<ReturnType<typeof backend.open>>;
    let second: Storage;
    let server: SourceServer;
    let clock: TestClock;
    let a: TestApp;
    let b: TestApp;

    beforeEach(async () => {
      opened = await backend.open();
      second = await opened.openAnother();
      server = await startSourceServer();
      serveJson(server, 'money-market', atlasDoc([{ id: 'US-USD' }, { id: 'EU-EUR' }, { id: 'JP-JPY' }]), { delayMs: 150 });
      serveJson(server, 'bank-risk', boardDoc(), { delayMs: 150 });
      clock = testClock('2026-09-25T12:00:00Z');
      // Load shedding off, as every app test has it (a busy machine must not shed the answers under test).
      const config = liveConfig(server, { maxEventLoopDelay: 0 });
      a = await makeTestApp(config, { storage: opened.storage, clock });
      b = await makeTestApp(config, { storage: second, clock });
    });
    afterEach(async () => {
      await a.app.close();
      await b.app.close();
      await second.close();
      await server.close();
      await opened.cleanup();
    });

    const body = (res: { rawPayload: Buffer }) => parseStrictJson(res.rawPayload) as QueryResult;

    it('fetch each source once between them and answer the same snapshot and rows', async () => {
      const answers = await Promise.all(Array.from({ length: 12 }, (_, i) =>
        (i % 2 === 0 ? a : b).app.inject({ url: i % 4 < 2 ? '/api/v1/query?dataset=money_market_history' : '/openbb/api/v1/query?dataset=money_market_history' })));
      expect(answers.every((r) => r.statusCode === 200)).toBe(true);
      expect(server.requests.filter((p) => p === '/api/v2/money-markets')).toHaveLength(1);
      const results = answers.map(body);
      expect(new Set(results.map((r) => r.snapshot_id)).size).toBe(1);
      for (const r of results) expect(r.results).toEqual(results[0].results);
    });

    it('page one snapshot across instances while the source changes, byte for byte', async () => {
      const res = await a.app.inject({ url: '/api/v1/query?dataset=money_market_history&limit=2' });
      expect(res.statusCode, res.body).toBe(200);
      const first = body(res);
      expect(first.total_rows).toBe(6);
      serveJson(server, 'money-market', atlasDoc([{ id: 'US-USD', value: 9 }]));
      clock.advance(61);
      // B sees the new source state for the current answer …
      const fresh = body(await b.app.inject({ url: '/api/v1/query?dataset=money_market_history&limit=2' }));
      expect(fresh.snapshot_id).not.toBe(first.snapshot_id);
      // … and both answer the old snapshot identically for every later page.
      for (const offset of [2, 4]) {
        const url = `/api/v1/query?dataset=money_market_history&limit=2&offset=${offset}&snapshot=${first.snapshot_id}`;
        const [fromA, fromB] = [await a.app.inject({ url }), await b.app.inject({ url })];
        expect(fromB.body).toBe(fromA.body);
        expect(fromB.headers.etag).toBe(fromA.headers.etag);
        expect(body(fromB).total_rows).toBe(6);
      }
      const listed = (await a.app.inject({ url: '/api/v1/snapshots?dataset=money_market_history' })).json<{ results: { snapshot_id: string }[] }>();
      expect(listed.results.map((s) => s.snapshot_id)).toEqual([fresh.snapshot_id, first.snapshot_id]);
      expect((await b.app.inject({ url: '/api/v1/snapshots?dataset=money_market_history' })).body).toBe(
        (await a.app.inject({ url: '/api/v1/snapshots?dataset=money_market_history' })).body,
      );
    });
  });
}
