// The verified current packet is kept in memory: what invalidates it (a capture through
// this handle, the change counter a write by anyone bumps, the scheduled re-verification)
// and the bounds within which a change elsewhere is seen. Time is moved, never waited for.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { CHANGE_CHECK_INTERVAL_US, REVERIFY_INTERVAL_US } from '../../src/funding/current-cache.js';
import { makeTestApp } from '../helpers/app.js';
import { backends } from '../helpers/storage.js';
import { useFundingHarness } from './harness.js';
import { srfWithAmount } from './support.js';

const CHECK_SECONDS = Number(CHANGE_CHECK_INTERVAL_US) / 1e6;
const REVERIFY_SECONDS = Number(REVERIFY_INTERVAL_US) / 1e6;

// Over a socket as well: there revalidations of the current packet are answered ahead of
// the router (src/http/revalidation.ts), and every bound below must hold for them too.
const transports = [{ name: 'app.inject()', overSocket: false }, { name: 'a socket', overSocket: true }];

for (const backend of backends) for (const transport of transports) {
  describe(`the in-memory current packet on ${backend.name}, read through ${transport.name}`, () => {
    const h = useFundingHarness({ backend, overSocket: transport.overSocket });

    const revision = async () => Number((await h.storage.db.selectFrom('funding_revision').select('revision').executeTakeFirstOrThrow()).revision);

    /** Flips one digit of the stored CSV, the way someone editing the table would. */
    async function tamperCsv(): Promise<void> {
      const row = await h.storage.db.selectFrom('funding_packets').selectAll().orderBy('seq', 'desc').executeTakeFirstOrThrow();
      const bytes = Buffer.from(row.csv);
      const at = bytes.indexOf('0.576') + 4;
      bytes[at] = bytes[at] === 0x36 ? 0x37 : 0x36;
      await h.storage.db.updateTable('funding_packets').set({ csv: bytes }).where('packet_id', '=', row.packet_id).execute();
    }

    it('counts every write to packets and attempts in the change counter, whoever makes it', async () => {
      const before = await revision();
      await h.captured();
      const afterCapture = await revision();
      expect(afterCapture).toBeGreaterThan(before);
      await tamperCsv();
      const afterUpdate = await revision();
      expect(afterUpdate).toBeGreaterThan(afterCapture);
      await h.storage.db.deleteFrom('funding_attempts').execute();
      expect(await revision()).toBeGreaterThan(afterUpdate);
    });

    it('answers from memory, with the verified bytes, until the change check sees a tampered row; then never 200 or 304', async () => {
      const { packet_id: id } = await h.captured();
      const first = await h.get('/v1/funding/latest');
      expect(first.statusCode).toBe(200);
      const csv = (await h.get(`/packets/${id}/observations.csv`)).rawPayload;
      await tamperCsv();

      // Inside the bound: the bytes verified at load, never the tampered ones.
      h.clock.advance(CHECK_SECONDS / 2);
      const cached = await h.get('/v1/funding/latest');
      expect(cached.statusCode).toBe(200);
      expect(cached.headers.etag).toBe(first.headers.etag);
      const answeredAhead = h.app.revalidation.answered;
      expect((await h.get('/v1/funding/latest', { 'if-none-match': first.headers.etag as string })).statusCode).toBe(304);
      // Over a socket that revalidation did not need the router.
      expect(h.app.revalidation.answered).toBe(answeredAhead + (transport.overSocket ? 1 : 0));
      expect((await h.get(`/packets/${id}/observations.csv`)).rawPayload.equals(csv)).toBe(true);

      h.clock.advance(CHECK_SECONDS / 2);
      for (const headers of [{}, { 'if-none-match': first.headers.etag as string }, { 'if-none-match': '*' }] as Record<string, string>[]) {
        const res = await h.get('/v1/funding/latest', headers);
        expect(res.statusCode).toBe(503);
        expect(res.json().code).toBe('artifact_verification_failed');
      }
      const download = await h.get(`/packets/${id}/observations.csv`, { 'if-none-match': '*' });
      expect(download.statusCode).toBe(503);
      expect(download.json().code).toBe('artifact_verification_failed');
    });

    it('re-reads and re-hashes the stored packet on schedule even when the change counter is written back', async () => {
      await h.captured();
      expect((await h.get('/v1/funding/latest')).statusCode).toBe(200);
      const counter = await revision();
      await tamperCsv();
      await h.storage.db.updateTable('funding_revision').set({ revision: counter }).where('id', '=', 1).execute();

      h.clock.advance(CHECK_SECONDS);
      const etag = (await h.get('/v1/funding/latest')).headers.etag as string;
      h.clock.advance(REVERIFY_SECONDS - CHECK_SECONDS);
      for (const tag of [etag, '*']) {
        const res = await h.get('/v1/funding/latest', { 'if-none-match': tag });
        expect(res.statusCode).toBe(503);
        expect(res.json().code).toBe('artifact_verification_failed');
      }
    });

    it('judges freshness per request against the clock: the cached packet turns stale without any store change', async () => {
      await h.captured();
      const etag = (await h.get('/v1/funding/latest')).headers.etag as string;
      expect((await h.get('/v1/funding/latest', { 'if-none-match': etag })).statusCode).toBe(304);
      const store = await revision();
      h.clock.advance(h.config.freshnessLimit + 1);
      for (const tag of ['*', etag]) {
        const res = await h.get('/v1/funding/latest', { 'if-none-match': tag });
        expect(res.statusCode).toBe(503);
        expect(res.json().code).toBe('evidence_stale');
      }
      expect(await revision()).toBe(store);
    });

    it('drops the cache when a capture through the same store handle is recorded, with no wait', async () => {
      h.server.documents.srf = { body: srfWithAmount(500000) };
      const p1 = await h.captured();
      const first = await h.get('/v1/funding/latest');
      expect(first.json().packet_id).toBe(p1.packet_id);
      const revalidate = { 'if-none-match': first.headers.etag as string };
      expect((await h.get('/v1/funding/latest', revalidate)).statusCode).toBe(304);
      h.server.documents.srf = { body: srfWithAmount(0) };
      const p2 = await h.captured();
      expect(p2.packet_id).not.toBe(p1.packet_id);
      // A client revalidating the previous packet gets the new one at once.
      const renewed = await h.get('/v1/funding/latest', revalidate);
      expect(renewed.statusCode).toBe(200);
      expect(renewed.json().packet_id).toBe(p2.packet_id);

      h.server.documents.srf = { status: 500, body: 'down' };
      await h.captured();
      const failed = await h.get('/v1/funding/latest', { 'if-none-match': renewed.headers.etag as string });
      expect(failed.statusCode).toBe(503);
      expect(failed.json().code).toBe('latest_attempt_failed');
    });

    it('serves a packet captured through another instance on the same database with the same ETag within one change-check interval', async () => {
      h.server.documents.srf = { body: srfWithAmount(500000) };
      await h.captured();
      const otherStorage = await h.openAnother();
      // SQLite handles on one file are shared within a process (a capture through either is
      // seen at once); PostgreSQL handles are separate pools, as separate instances' are.
      const sharedHandle = otherStorage.db === h.storage.db;
      const other = await makeTestApp({ ...h.config }, { storage: otherStorage, clock: h.clock });
      try {
        const get = (app: typeof h.app) => app.inject({ method: 'GET', url: '/v1/funding/latest' });
        const old = await get(other.app);
        expect(old.statusCode).toBe(200);

        h.server.documents.srf = { body: srfWithAmount(0) };
        const p2 = await h.captured();
        const here = await get(h.app);
        expect(here.json().packet_id).toBe(p2.packet_id);

        // A separate instance learns of it from the change counter, at its next check.
        expect((await get(other.app)).headers.etag).toBe(sharedHandle ? here.headers.etag : old.headers.etag);
        h.clock.advance(CHECK_SECONDS);
        const there = await get(other.app);
        expect(there.statusCode).toBe(200);
        expect(there.json().packet_id).toBe(p2.packet_id);
        expect(there.headers.etag).toBe(here.headers.etag);
      } finally {
        await other.app.close();
      }
    });

    it('answers 503 storage_unavailable when the change check cannot reach the store, never the cached packet past the bound', async () => {
      await h.captured();
      const etag = (await h.get('/v1/funding/latest')).headers.etag as string;
      await sql`drop table funding_revision`.execute(h.storage.db);
      h.clock.advance(CHECK_SECONDS);
      const res = await h.get('/v1/funding/latest', { 'if-none-match': etag });
      expect(res.statusCode).toBe(503);
      expect(res.json().code).toBe('storage_unavailable');
    });
  });
}
