import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { sqliteBackend } from '../helpers/storage.js';
import { sha256Hex } from '../../src/core/hash.js';
import { resolveCaller } from '../../src/applications/credential.js';
import { recordUsage } from '../../src/applications/measure.js';
import { CONSENT, enrollVia, enrolled, movableClock } from './support.js';

const PACKET = '20260901T115900.123456Z-3f9c2a7e5b6d4c1e8a0f9b2d7c6e5a41';
let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function app() {
  t = await makeTestApp({}, { clock: movableClock('2026-09-01T12:00:00Z') });
  return t.app;
}

describe('POST /v1/applications', () => {
  it('answers 201 with the documented keys in order, a fe_ token and a 32-hex id, classified unverified', async () => {
    const res = await enrollVia(await app());
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(Object.keys(body)).toEqual([
      'application_id', 'token', 'token_type', 'classification', 'independent_ownership_verified',
      'quota', 'completion_retention_days', 'credential_expiry', 'erase',
    ]);
    expect(body.application_id).toMatch(/^[0-9a-f]{32}$/);
    expect(body.token).toMatch(/^fe_[A-Za-z0-9_-]{43}$/);
    expect(body).toMatchObject({
      token_type: 'Bearer',
      classification: 'unverified',
      independent_ownership_verified: false,
      quota: 'same_bounded_public_service',
      completion_retention_days: 90,
      credential_expiry: '180_days_without_accepted_use',
      erase: 'DELETE /v1/applications/current',
    });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('stores only the SHA-256 of the token, the id, UTC dates and the class', async () => {
    const a = await app();
    const { id, token } = await enrolled(a);
    const rows = await t!.storage.db.selectFrom('applications').selectAll().execute();
    expect(rows).toEqual([
      { id, token_hash: sha256Hex(token), created_day: '2026-09-01', last_seen_day: '2026-09-01', traffic_class: 'unverified', evidence_sha256: null },
    ]);
  });

  it('is also served under the /funding-evidence prefix', async () => {
    const res = await (await app()).inject({
      method: 'POST', url: '/funding-evidence/v1/applications', payload: CONSENT, headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(201);
  });

  it('is also served at the data API upstream\'s /api/v1/applications, with the same keys and refusals', async () => {
    const a = await app();
    const post = (payload: string, type = 'application/json', url = '/api/v1/applications') => a.inject({ method: 'POST', url, payload, headers: { 'content-type': type } });
    const created = await post(CONSENT);
    expect(created.statusCode).toBe(201);
    const viaFunding = await post(CONSENT, 'application/json', '/v1/applications');
    expect(Object.keys(created.json())).toEqual(Object.keys(viaFunding.json()));
    expect((await post('{"measurement_consent": false}')).json()).toMatchObject({ code: 'consent_required' });
    expect((await post(CONSENT, 'text/plain')).statusCode).toBe(415);
    expect((await a.inject({ method: 'POST', url: '/api/v1/applications', payload: CONSENT, headers: { 'content-type': 'application/json', origin: 'https://elsewhere.example' } })).json())
      .toMatchObject({ code: 'origin_not_allowed' });
    expect((await a.inject({ method: 'DELETE', url: '/api/v1/applications/current' })).json()).toMatchObject({ code: 'credential_required' });
    const token = created.json<{ token: string }>().token;
    // A client naming a JSON type on a DELETE without a body is not refused for the missing body.
    const erased = await a.inject({ method: 'DELETE', url: '/api/v1/applications/current', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } });
    expect(erased.statusCode).toBe(200);
    // Erased there means erased here: the same key is gone from group B's route too.
    expect((await a.inject({ method: 'DELETE', url: '/v1/applications/current', headers: { authorization: `Bearer ${token}` } })).statusCode).toBe(401);
  });

  it.each([
    ['false', '{"measurement_consent": false}'],
    ['1', '{"measurement_consent": 1}'],
    ['"true"', '{"measurement_consent": "true"}'],
    ['an extra key', '{"measurement_consent": true, "name": "x"}'],
    ['an empty object', '{}'],
    ['an array', '[{"measurement_consent": true}]'],
    ['null', 'null'],
  ])('refuses consent given as %s with 400 consent_required', async (_label, payload) => {
    const res = await (await app()).inject({ method: 'POST', url: '/v1/applications', payload, headers: { 'content-type': 'application/json' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'consent_required' });
    expect(res.json().detail).toEqual(expect.any(String));
  });

  it('lets no cache store a refusal of enrollment, revocation or browser counters (no-store, no-transform)', async () => {
    const a = await app();
    const refusals = await Promise.all([
      a.inject({ method: 'POST', url: '/v1/applications', payload: 'x', headers: { 'content-type': 'text/plain' } }),
      a.inject({ method: 'POST', url: '/v1/applications', payload: '{', headers: { 'content-type': 'application/json' } }),
      a.inject({ method: 'POST', url: '/funding-evidence/v1/applications', payload: '{"measurement_consent": false}', headers: { 'content-type': 'application/json' } }),
      a.inject({ method: 'DELETE', url: '/v1/applications/current' }),
      a.inject({ method: 'POST', url: '/events', payload: '{}', headers: { 'content-type': 'application/json' } }),
    ]);
    expect(refusals.map((r) => r.statusCode)).toEqual([415, 400, 400, 401, 403]);
    for (const r of refusals) expect(r.headers['cache-control'], r.body).toBe('no-store, no-transform');
  });

  it('refuses a body that is not JSON, or has duplicate keys, with 400', async () => {
    const a = await app();
    for (const payload of ['{"measurement_consent": tru', '{"measurement_consent": true, "measurement_consent": true}']) {
      const res = await a.inject({ method: 'POST', url: '/v1/applications', payload, headers: { 'content-type': 'application/json' } });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('malformed_json');
    }
  });

  it('classifies a key enrolled with an exclusion header as internal', async () => {
    const a = await app();
    const excluded: Array<Record<string, string>> = [{ 'x-traffic-class': 'synthetic' }, { 'x-traffic-class': 'TeSt' }, { 'x-operator-probe': 'probe-1' }, { 'x-traffic-class': 'Operator' }];
    for (const headers of excluded) {
      const res = await enrollVia(a, headers);
      expect(res.json().classification).toBe('internal');
    }
    const counted: Array<Record<string, string>> = [{ 'x-traffic-class': 'browser' }, { 'x-operator-probe': '' }];
    for (const headers of counted) {
      const res = await enrollVia(a, headers);
      expect(res.json().classification).toBe('unverified');
    }
  });

  it('refuses a foreign Origin with 403 before looking at anything else', async () => {
    const a = await app();
    for (const origin of ['https://beepboop2025.github.io', 'https://pro.openbb.co', 'null', 'http://localhost:80', '']) {
      const res = await a.inject({ method: 'POST', url: '/v1/applications', payload: 'x'.repeat(5000), headers: { 'content-type': 'text/plain', origin } });
      expect(res.statusCode, origin).toBe(403);
      expect(res.json()).toMatchObject({ code: 'origin_not_allowed' });
    }
  });

  it('accepts requests from the service\'s own origin (its docs page) and without Origin', async () => {
    const a = await app();
    const own = await a.inject({ method: 'POST', url: '/v1/applications', payload: CONSENT, headers: { 'content-type': 'application/json', host: 'evidence.example:8080', origin: 'http://evidence.example:8080' } });
    expect(own.statusCode).toBe(201);
    const other = await a.inject({ method: 'POST', url: '/v1/applications', payload: CONSENT, headers: { 'content-type': 'application/json', host: 'evidence.example:8080', origin: 'http://evidence.example:9090' } });
    expect(other.statusCode).toBe(403);
  });

  it('checks the media type exactly (before the first ;), before the size', async () => {
    const a = await app();
    for (const type of ['text/plain', 'Application/json', 'application/json ', ' application/json', 'application/jsonx', 'application/problem+json']) {
      const res = await a.inject({ method: 'POST', url: '/v1/applications', payload: 'x'.repeat(2000), headers: { 'content-type': type } });
      expect(res.statusCode, type).toBe(415);
      expect(res.json().code).toBe('unsupported_media_type');
    }
    const missing = await a.inject({ method: 'POST', url: '/v1/applications' });
    expect(missing.statusCode).toBe(415);
    const charset = await a.inject({ method: 'POST', url: '/v1/applications', payload: CONSENT, headers: { 'content-type': 'application/json; charset=utf-8' } });
    expect(charset.statusCode).toBe(201);
  });

  it('refuses a body over 1024 bytes with 413 even though the service limit is larger, and accepts exactly 1024', async () => {
    const a = await app();
    const padded = (n: number) => CONSENT.slice(0, -1) + ' '.repeat(n - CONSENT.length) + '}';
    expect(padded(1024).length).toBe(1024);
    const ok = await a.inject({ method: 'POST', url: '/v1/applications', payload: padded(1024), headers: { 'content-type': 'application/json' } });
    expect(ok.statusCode).toBe(201);
    const big = await a.inject({ method: 'POST', url: '/v1/applications', payload: padded(1025), headers: { 'content-type': 'application/json' } });
    expect(big.statusCode).toBe(413);
    expect(big.json().code).toBe('body_too_large');
    expect(t!.deps.config.bodyLimit).toBeGreaterThan(1024);
  });

  it('answers 503 with a code and Retry-After when the store cannot take the enrollment', async () => {
    const opened = await sqliteBackend.open();
    const broken = await opened.openAnother();
    t = await makeTestApp({}, { storage: broken });
    await opened.storage.close();
    await broken.close();
    const res = await enrollVia(t.app);
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ code: 'application_storage_unavailable' });
    expect(res.headers['retry-after']).toBe('5');
    await opened.cleanup();
  });

  it('never writes the plaintext token into the SQLite database or its WAL', async () => {
    const a = await app();
    const { token } = await enrolled(a);
    // Use the key too, so measurement writes happen as well.
    const ctx = { storage: t!.storage, clock: t!.deps.clock };
    const caller = await resolveCaller(ctx, `Bearer ${token}`);
    expect(await recordUsage(ctx, { caller, excluded: false, outcome: 'data_response', latestPacketId: PACKET })).toBe(true);
    const del = await enrolled(a);
    await a.inject({ method: 'DELETE', url: '/v1/applications/current', headers: { authorization: `Bearer ${del.token}` } });
    const file = t!.storage.location;
    const bytes = Buffer.concat(['', '-wal', '-shm', '-journal'].filter((s) => fs.existsSync(file + s)).map((s) => fs.readFileSync(file + s)));
    expect(bytes.length).toBeGreaterThan(0);
    // The digest is there (so we are reading the right bytes); the token is not.
    expect(bytes.includes(Buffer.from(sha256Hex(token)))).toBe(true);
    expect(bytes.includes(Buffer.from(token))).toBe(false);
    expect(bytes.includes(Buffer.from(token.slice(3)))).toBe(false);
    expect(bytes.includes(Buffer.from(del.token))).toBe(false);
  });
});
