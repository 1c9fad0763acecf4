import { describe, expect, it } from 'vitest';
import { makeTestApp } from '../helpers/app.js';
import { backends, sqliteBackend } from '../helpers/storage.js';
import { resolveCaller } from '../../src/applications/credential.js';
import { isAppError } from '../../src/core/errors.js';
import { appOnBackend, enrolled } from './support.js';

async function rejection(p: Promise<unknown>) {
  try {
    await p;
  } catch (error) {
    if (isAppError(error)) return { status: error.status, code: error.code, headers: error.headers };
    throw error;
  }
  throw new Error('expected a rejection');
}

for (const backend of backends) {
  describe(`resolving a Bearer key on ${backend.name}`, () => {
    const open = appOnBackend(backend);
    const setup = (start = '2026-01-01T10:00:00Z') => open(start);

    it('treats an absent or empty header as anonymous', async () => {
      const { ctx } = await setup();
      expect(await resolveCaller(ctx, undefined)).toEqual({ kind: 'anonymous' });
      expect(await resolveCaller(ctx, '')).toEqual({ kind: 'anonymous' });
    });

    it('returns the application and its class for a valid key', async () => {
      const { ctx, app } = await setup();
      const { id, token } = await enrolled(app);
      expect(await resolveCaller(ctx, `Bearer ${token}`)).toEqual({ kind: 'application', applicationId: id, trafficClass: 'unverified' });
    });

    it.each([
      'Bearer invalid',
      'bearer fe_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
      'Bearer  fe_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
      'Bearer fe_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
      'Bearer fe_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
      'Bearer fe_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=',
      'Bearer fe_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA+',
      'Basic dXNlcjpwYXNz',
      'fe_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
      'Bearer fe_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA ',
    ])('refuses the malformed header %j with 401 invalid_credential and WWW-Authenticate: Bearer', async (header) => {
      const { ctx } = await setup();
      expect(await rejection(resolveCaller(ctx, header))).toEqual({ status: 401, code: 'invalid_credential', headers: { 'www-authenticate': 'Bearer' } });
    });

    it('refuses a well-formed key that was never issued with 401 unknown_credential', async () => {
      const { ctx } = await setup();
      expect(await rejection(resolveCaller(ctx, `Bearer fe_${'A'.repeat(43)}`))).toEqual({ status: 401, code: 'unknown_credential', headers: { 'www-authenticate': 'Bearer' } });
    });

    it('expires a key after 180 UTC dates without accepted use, and purges it on use', async () => {
      const { ctx, app, clock } = await setup('2026-01-01T10:00:00Z');
      const { token } = await enrolled(app);
      clock.set('2026-06-29T23:59:59Z'); // 179 dates later: still valid
      expect((await resolveCaller(ctx, `Bearer ${token}`)).kind).toBe('application');
      clock.set('2026-06-30T00:00:00Z'); // 180 dates later: expired
      expect(await rejection(resolveCaller(ctx, `Bearer ${token}`))).toMatchObject({ status: 401, code: 'unknown_credential' });
      expect(await ctx.storage.db.selectFrom('applications').selectAll().execute()).toEqual([]);
    });

    it('DELETE /v1/applications/current erases the key: 200, then the key is refused', async () => {
      const { app } = await setup();
      const { token } = await enrolled(app);
      const del = await app.inject({ method: 'DELETE', url: '/v1/applications/current', headers: { authorization: `Bearer ${token}` } });
      expect(del.statusCode).toBe(200);
      expect(del.json()).toEqual({ deleted: true, credential_revoked: true, anonymous_aggregate_counts_retained: true });
      const again = await app.inject({ method: 'DELETE', url: '/funding-evidence/v1/applications/current', headers: { authorization: `Bearer ${token}` } });
      expect(again.statusCode).toBe(401);
      expect(again.headers['www-authenticate']).toBe('Bearer');
      expect(again.json()).toMatchObject({ code: 'unknown_credential' });
    });

    it('DELETE without a key is 401 credential_required without a challenge; a malformed key is 401 with one', async () => {
      const { app } = await setup();
      const none = await app.inject({ method: 'DELETE', url: '/v1/applications/current' });
      expect(none.statusCode).toBe(401);
      expect(none.json()).toMatchObject({ code: 'credential_required' });
      expect(none.headers['www-authenticate']).toBeUndefined();
      const empty = await app.inject({ method: 'DELETE', url: '/v1/applications/current', headers: { authorization: '' } });
      expect(empty.statusCode).toBe(401);
      expect(empty.json().code).toBe('credential_required');
      const bad = await app.inject({ method: 'DELETE', url: '/v1/applications/current', headers: { authorization: 'Bearer invalid' } });
      expect(bad.statusCode).toBe(401);
      expect(bad.json().code).toBe('invalid_credential');
      expect(bad.headers['www-authenticate']).toBe('Bearer');
    });

    it('DELETE from a foreign Origin is 403 before the key is looked at', async () => {
      const { app } = await setup();
      const { token } = await enrolled(app);
      const res = await app.inject({ method: 'DELETE', url: '/v1/applications/current', headers: { authorization: 'Bearer invalid', origin: 'https://pro.openbb.co' } });
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('origin_not_allowed');
      const ok = await app.inject({ method: 'DELETE', url: '/v1/applications/current', headers: { authorization: `Bearer ${token}` } });
      expect(ok.statusCode).toBe(200);
    });
  });
}

describe('an identity store that cannot answer', () => {
  it('is a 503 identity_storage_unavailable with Retry-After, never anonymous, for a presented key', async () => {
    const opened = await sqliteBackend.open();
    const broken = await opened.openAnother();
    const t = await makeTestApp({}, { storage: broken });
    await opened.storage.close();
    await broken.close();
    try {
      const ctx = { storage: broken, clock: t.deps.clock };
      expect(await rejection(resolveCaller(ctx, `Bearer fe_${'A'.repeat(43)}`))).toEqual({
        status: 503, code: 'identity_storage_unavailable', headers: { 'retry-after': '5' },
      });
      // Without a key nothing needs the store.
      expect(await resolveCaller(ctx, undefined)).toEqual({ kind: 'anonymous' });
      const del = await t.app.inject({ method: 'DELETE', url: '/v1/applications/current', headers: { authorization: `Bearer fe_${'A'.repeat(43)}` } });
      expect(del.statusCode).toBe(503);
      expect(del.json().code).toBe('identity_storage_unavailable');
    } finally {
      await t.close();
      await opened.cleanup();
    }
  });
});
