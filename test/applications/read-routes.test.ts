// Bearer keys and usage measurement on the real funding read routes (latest, changes,
// history): the check order of §5.1 and the X-Usage-Recorded header.
import { describe, expect, it } from 'vitest';
import type { Storage } from '../../src/storage/storage.js';
import { usageReport } from '../../src/applications/report.js';
import { enroll } from '../../src/applications/enroll.js';
import { backends } from '../helpers/storage.js';
import { useFundingHarness } from '../funding/harness.js';
import { srfWithAmount } from '../funding/support.js';
import { enrolled } from './support.js';

for (const backend of backends) {
  describe(`keys on the funding read routes (${backend.name})`, () => {
    const h = useFundingHarness({ backend });
    const capture = async () => {
      const attempt = await h.captured();
      if (attempt.packet_id === null) throw new Error('capture did not produce a packet');
      return attempt.packet_id;
    };
    const get = (url: string, headers: Record<string, string> = {}) => h.get(url, headers);
    const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
    const completions = () => h.storage.db.selectFrom('completions').selectAll().execute();
    const ctx = () => ({ storage: h.storage, clock: h.clock });

    it('X-Usage-Recorded: true only for a new keyed completion; false for anonymous, duplicates and 304', async () => {
      const packet = await capture();
      const { id, token } = await enrolled(h.app);
      const anon = await get('/v1/funding/latest');
      expect(anon.statusCode).toBe(200);
      expect(anon.headers['x-usage-recorded']).toBe('false');
      const first = await get('/v1/funding/latest', bearer(token));
      expect(first.statusCode).toBe(200);
      expect(first.headers['x-usage-recorded']).toBe('true');
      expect(first.body).toBe(anon.body); // the body has no per-caller fields
      const again = await get('/v1/funding/latest', bearer(token));
      expect(again.headers['x-usage-recorded']).toBe('false');
      // changes for the same latest packet on the same date counts once with latest.
      const changes = await get(`/v1/funding/changes?since=${packet}&until=${packet}`, bearer(token));
      expect(changes.statusCode).toBe(200);
      expect(changes.headers['x-usage-recorded']).toBe('false');
      const notModified = await get('/v1/funding/latest', { ...bearer(token), 'if-none-match': first.headers.etag as string });
      expect(notModified.statusCode).toBe(304);
      expect(notModified.headers['x-usage-recorded']).toBe('false');
      expect(await completions()).toEqual([{ application: id, day: '2026-10-21', packet, traffic_class: 'unverified' }]);
      const report = await usageReport(ctx());
      expect(report.request_aggregates).toEqual([
        { day: '2026-10-21', traffic_class: 'anonymous', outcome: 'data_response', count: 1 },
        { day: '2026-10-21', traffic_class: 'unverified', outcome: 'data_response', count: 3 },
        { day: '2026-10-21', traffic_class: 'unverified', outcome: 'not_modified', count: 1 },
      ]);
    });

    it('a new latest packet on the same date is a new completion, for latest or changes', async () => {
      h.server.documents.srf = { body: srfWithAmount(500000) };
      const p1 = await capture();
      const { token } = await enrolled(h.app);
      expect((await get('/v1/funding/latest', bearer(token))).headers['x-usage-recorded']).toBe('true');
      h.clock.advance(900);
      h.server.documents.srf = { body: srfWithAmount(0) };
      const p2 = await capture();
      const changes = await get(`/v1/funding/changes?since=${p1}&until=${p2}`, bearer(token));
      expect(changes.statusCode).toBe(200);
      expect(changes.headers['x-usage-recorded']).toBe('true');
      expect((await get('/v1/funding/latest', bearer(token))).headers['x-usage-recorded']).toBe('false');
      expect((await completions()).map((c) => c.packet).sort()).toEqual([p1, p2].sort());
    });

    it('an internal key: two 200s and one 304 on one date → one internal completion; no external_verified use; D7 null', async () => {
      await capture();
      const enrollment = await h.app.inject({
        method: 'POST', url: '/v1/applications', payload: '{"measurement_consent": true}',
        headers: { 'content-type': 'application/json', 'x-traffic-class': 'synthetic' },
      });
      expect(enrollment.json().classification).toBe('internal');
      const token = enrollment.json().token as string;
      const a = await get('/v1/funding/latest', bearer(token));
      await get('/v1/funding/latest', bearer(token));
      expect((await get('/v1/funding/latest', { ...bearer(token), 'if-none-match': a.headers.etag as string })).statusCode).toBe(304);
      const report = await usageReport(ctx());
      expect(report.classes.internal.deduplicated_data_responses).toBe(1);
      expect(report.classes.external_verified.applications_with_data_responses).toBe(0);
      expect(report.classes.internal.retention['7'].rate).toBeNull();
    });

    it('requests carrying an exclusion header are measured as synthetic', async () => {
      await capture();
      const { token } = await enrolled(h.app);
      const res = await get('/v1/funding/latest', { ...bearer(token), 'x-operator-probe': 'funding-daily-job' });
      expect(res.headers['x-usage-recorded']).toBe('true');
      expect((await completions())[0].traffic_class).toBe('synthetic');
      await get('/v1/funding/latest', { 'x-traffic-class': 'Test' });
      const report = await usageReport(ctx());
      expect(report.request_aggregates.map((a) => a.traffic_class)).toEqual(['synthetic']);
      expect(report.request_aggregates[0].count).toBe(2);
    });

    it('a HEAD request checks the key but is not measured', async () => {
      await capture();
      const { token } = await enrolled(h.app);
      const head = await h.app.inject({ method: 'HEAD', url: '/v1/funding/latest', headers: bearer(token) });
      expect(head.statusCode).toBe(200);
      expect(head.headers['x-usage-recorded']).toBe('false');
      expect(await completions()).toEqual([]);
      expect(await h.storage.db.selectFrom('aggregates').selectAll().execute()).toEqual([]);
      expect((await h.app.inject({ method: 'HEAD', url: '/v1/funding/latest', headers: { authorization: 'Bearer invalid' } })).statusCode).toBe(401);
    });

    it('an erased key with a matching ETag is 401 with a challenge, never 304 and never anonymous', async () => {
      await capture();
      const { token } = await enrolled(h.app);
      const ok = await get('/v1/funding/latest', bearer(token));
      expect((await h.app.inject({ method: 'DELETE', url: '/v1/applications/current', headers: bearer(token) })).statusCode).toBe(200);
      expect(await completions()).toEqual([]);
      for (const inm of [ok.headers.etag as string, `W/${ok.headers.etag}`, '*']) {
        const res = await get('/v1/funding/latest', { ...bearer(token), 'if-none-match': inm });
        expect(res.statusCode).toBe(401);
        expect(res.headers['www-authenticate']).toBe('Bearer');
        expect(res.json().code).toBe('unknown_credential');
      }
    });

    it('Bearer invalid with If-None-Match: * is 401 on latest, changes and history', async () => {
      const packet = await capture();
      for (const url of ['/v1/funding/latest', `/v1/funding/changes?since=${packet}`, '/v1/funding/history', '/funding-evidence/v1/funding/latest']) {
        const res = await get(url, { authorization: 'Bearer invalid', 'if-none-match': '*' });
        expect(res.statusCode, url).toBe(401);
        expect(res.headers['www-authenticate']).toBe('Bearer');
        expect(res.json()).toMatchObject({ code: 'invalid_credential', detail: expect.any(String) });
      }
    });

    it('an expired key is 401 even with a matching ETag', async () => {
      await capture();
      const { id, token } = await enrolled(h.app);
      const ok = await get('/v1/funding/latest', bearer(token));
      // Last accepted use 179 dates before today: still valid (and the use refreshes it).
      await h.storage.db.updateTable('applications').set({ last_seen_day: '2026-04-25' }).where('id', '=', id).execute();
      expect((await get('/v1/funding/latest', { ...bearer(token), 'if-none-match': ok.headers.etag as string })).statusCode).toBe(304);
      // 180 dates: expired, whatever If-None-Match says.
      await h.storage.db.updateTable('applications').set({ last_seen_day: '2026-04-24' }).where('id', '=', id).execute();
      const res = await get('/v1/funding/latest', { ...bearer(token), 'if-none-match': ok.headers.etag as string });
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('unknown_credential');
      expect(await h.storage.db.selectFrom('applications').selectAll().execute()).toEqual([]);
    });

    it('checks in order: since presence (422) → credential (401) → id syntax (400) → readiness (503)', async () => {
      // Nothing captured: readiness would fail, but the earlier checks decide first.
      expect((await get('/v1/funding/changes', { authorization: 'Bearer invalid' })).statusCode).toBe(422);
      expect((await get('/v1/funding/changes?since=../other', { authorization: 'Bearer invalid' })).statusCode).toBe(401);
      const { token } = await enrolled(h.app);
      expect((await get('/v1/funding/changes?since=../other', bearer(token))).statusCode).toBe(400);
      expect((await get('/v1/funding/latest', { authorization: 'Bearer invalid' })).statusCode).toBe(401);
      const notReady = await get('/v1/funding/latest', bearer(token));
      expect(notReady.statusCode).toBe(503);
      expect(notReady.headers['x-usage-recorded']).toBeUndefined();
    });

    it('history checks the key but neither measures nor extends its life', async () => {
      await capture();
      const { id, token } = await enrolled(h.app);
      h.clock.advance(2 * 86400);
      await capture();
      const res = await get('/v1/funding/history', bearer(token));
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-usage-recorded']).toBe('false');
      const row = await h.storage.db.selectFrom('applications').select('last_seen_day').where('id', '=', id).executeTakeFirstOrThrow();
      expect(row.last_seen_day).toBe('2026-10-21');
      expect(await h.storage.db.selectFrom('aggregates').selectAll().execute()).toEqual([]);
    });

    it('a keyed 304 extends the key\'s life', async () => {
      await capture();
      const { id, token } = await enrolled(h.app);
      const ok = await get('/v1/funding/latest');
      h.clock.advance(3 * 86400);
      await capture();
      expect((await get('/v1/funding/latest', { ...bearer(token), 'if-none-match': ok.headers.etag as string })).statusCode).toBe(304);
      const row = await h.storage.db.selectFrom('applications').select('last_seen_day').where('id', '=', id).executeTakeFirstOrThrow();
      expect(row.last_seen_day).toBe('2026-10-24');
    });
  });
}

describe('store failures on the read routes', () => {
  describe('with a usage store whose writes fail', () => {
    const h = useFundingHarness({ appStorage: (storage): Storage => ({ ...storage, serialized: () => Promise.reject(new Error('usage store down')) }) });

    it('a failing usage store still serves the data, with X-Usage-Recorded: unavailable', async () => {
      await h.captured();
      const { token } = await enroll({ storage: h.storage, clock: h.clock }, { excluded: false });
      const res = await h.get('/v1/funding/latest', { authorization: `Bearer ${token}` });
      expect(res.statusCode).toBe(200);
      expect(res.json().observations).toHaveLength(9);
      expect(res.headers['x-usage-recorded']).toBe('unavailable');
    });
  });

  describe('with an identity store that cannot be read', () => {
    const failingIdentity = (storage: Storage): Storage => {
      const db = new Proxy(storage.db, {
        get(target, prop, receiver) {
          if (prop === 'selectFrom') {
            return (table: string) => {
              if (table === 'applications') throw new Error('identity store down');
              return target.selectFrom(table as never);
            };
          }
          return Reflect.get(target, prop, receiver) as unknown;
        },
      });
      return { ...storage, db };
    };
    const h = useFundingHarness({ appStorage: failingIdentity });

    it('an identity store that cannot answer is 503 identity_storage_unavailable, never an anonymous 200', async () => {
      await h.captured();
      const res = await h.get('/v1/funding/latest', { authorization: `Bearer fe_${'A'.repeat(43)}`, 'if-none-match': '*' });
      expect(res.statusCode).toBe(503);
      expect(res.json().code).toBe('identity_storage_unavailable');
      expect(res.headers['retry-after']).toBe('5');
      const anon = await h.get('/v1/funding/latest');
      expect(anon.statusCode).toBe(200);
    });
  });
});
