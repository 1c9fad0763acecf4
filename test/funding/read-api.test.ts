import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/core/hash.js';
import { ARCHIVE_LOCK, insertAttempt } from '../../src/funding/archive.js';
import { CHANGE_CHECK_INTERVAL_US } from '../../src/funding/current-cache.js';
import { backends } from '../helpers/storage.js';
import { useFundingHarness } from './harness.js';
import { srfWithAmount } from './support.js';

const TS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}\+00:00$/;

for (const backend of backends) {
  describe(`funding read API on ${backend.name}`, () => {
    const h = useFundingHarness({ backend });
    const capture = () => h.captured();
    const get = (url: string, headers: Record<string, string> = {}) => h.get(url, headers);

    describe('latest', () => {
      it('answers 200 with nine observations and an ETag that is the quoted SHA-256 of the body', async () => {
        const attempt = await capture();
        const res = await get('/v1/funding/latest');
        expect(res.statusCode, res.body).toBe(200);
        const body = res.json();
        expect(body).toMatchObject({ schema: 'financial-evidence.funding.v1', dataset: 'usd-funding', ready: true, packet_id: attempt.packet_id, review_asof: '2026-10-20' });
        expect(body.observations).toHaveLength(9);
        expect(body.sample).toBeUndefined();
        expect(res.headers.etag).toBe(`"${sha256Hex(res.rawPayload)}"`);
        expect(res.headers['cache-control']).toBe('private, no-cache, must-revalidate, no-transform');
        expect(res.headers.vary).toContain('Authorization');
        expect(res.headers['x-evidence-checked-at']).toMatch(TS);
        expect(res.headers['x-usage-recorded']).toBe('false');
        // Spec §5.2: the bare media type, as on the 304 and the packet downloads.
        expect(res.headers['content-type']).toBe('application/json');
        expect(res.body).toContain('"value": 2914.0');
        expect(res.body.endsWith('}\n')).toBe(true);
        // links point at the packet files, which serve exactly the hashes listed.
        const csv = await get(body.links['observations.csv']);
        expect(sha256Hex(csv.rawPayload)).toBe(body.artifacts['observations.csv']);
        const manifest = await get(body.links['manifest.json']);
        expect(sha256Hex(manifest.rawPayload)).toBe(body.manifest_sha256);
      });

      it('serves the same bytes under the /funding-evidence prefix', async () => {
        await capture();
        const a = await get('/v1/funding/latest');
        const b = await get('/funding-evidence/v1/funding/latest');
        expect(b.statusCode).toBe(200);
        expect(b.headers.etag).toBe(a.headers.etag);
      });

      it('answers 304 with an empty body and the 200 headers to a weak form of the current ETag', async () => {
        await capture();
        const first = await get('/v1/funding/latest');
        const res = await get('/v1/funding/latest', { 'if-none-match': `"nope", W/${first.headers.etag}` });
        expect(res.statusCode).toBe(304);
        expect(res.body).toBe('');
        expect(res.headers.etag).toBe(first.headers.etag);
        expect(res.headers['cache-control']).toContain('must-revalidate');
        expect(res.headers.vary).toContain('Authorization');
        expect(res.headers['x-evidence-checked-at']).toMatch(TS);
        expect(res.headers['x-usage-recorded']).toBe('false');
      });

      it('answers 503 evidence_not_captured with Retry-After before any capture', async () => {
        const res = await get('/v1/funding/latest', { 'if-none-match': '*' });
        expect(res.statusCode).toBe(503);
        expect(res.json()).toMatchObject({ code: 'evidence_not_captured' });
        expect(typeof res.json().detail).toBe('string');
        expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      });

      it('answers 503 (never 304) thirty minutes after the newest attempt, even with a matching ETag', async () => {
        await capture();
        const first = await get('/v1/funding/latest');
        h.clock.advance(30 * 60);
        const res = await get('/v1/funding/latest', { 'if-none-match': first.headers.etag as string });
        expect(res.statusCode).toBe(503);
        expect(res.json().code).toBe('evidence_stale');
        expect(res.headers['retry-after']).toBeDefined();
        expect(res.headers.etag).toBeUndefined();
      });

      it('stays fresh through re-verification: an identical capture keeps the packet and its ETag', async () => {
        await capture();
        const first = await get('/v1/funding/latest');
        h.clock.advance(15 * 60);
        expect((await capture()).outcome).toBe('packet_reverified');
        h.clock.advance(15 * 60);
        const res = await get('/v1/funding/latest', { 'if-none-match': first.headers.etag as string });
        expect(res.statusCode).toBe(304);
      });

      it('answers 503 when the newest attempt failed, even with If-None-Match: * and a fresh earlier packet', async () => {
        await capture();
        h.clock.advance(60);
        h.server.documents.sofr = { status: 502, body: 'bad gateway' };
        expect((await capture()).outcome).toBe('failed');
        const res = await get('/v1/funding/latest', { 'if-none-match': '*' });
        expect(res.statusCode).toBe(503);
        expect(res.json().code).toBe('latest_attempt_failed');
      });

      it('answers 503 when the newest attempt is dated in the future', async () => {
        await capture();
        h.clock.advance(-3600);
        const res = await get('/v1/funding/latest');
        expect(res.statusCode).toBe(503);
        expect(res.json().code).toBe('evidence_clock_invalid');
      });

      it.each(['csv', 'review', 'manifest'] as const)('never answers 200 or 304 once the stored %s bytes are tampered with and the change check ran', async (column) => {
        const attempt = await capture();
        const first = await get('/v1/funding/latest');
        const row = await h.storage.db.selectFrom('funding_packets').selectAll().executeTakeFirstOrThrow();
        const bytes = Buffer.from(row[column]);
        const at = bytes.indexOf('0.576') + 4;
        bytes[at] = bytes[at] === 0x36 ? 0x37 : 0x36;
        await h.storage.db.updateTable('funding_packets').set({ [column]: bytes }).execute();
        // The verified packet is kept in memory; the next change check is due after this bound.
        h.clock.advance(Number(CHANGE_CHECK_INTERVAL_US) / 1e6);
        for (const headers of [{}, { 'if-none-match': first.headers.etag as string }, { 'if-none-match': '*' }] as Record<string, string>[]) {
          const res = await get('/v1/funding/latest', headers);
          expect(res.statusCode).toBe(503);
          expect(res.json().code).toBe('artifact_verification_failed');
        }
        for (const file of ['manifest.json', 'review.json', 'observations.csv']) {
          const res = await get(`/packets/${attempt.packet_id}/${file}`, { 'if-none-match': '*' });
          expect(res.statusCode).toBe(503);
          expect(res.json().code).toBe('artifact_verification_failed');
        }
      });

      it('refuses an invalid Bearer credential with 401 before any 304', async () => {
        await capture();
        const res = await get('/v1/funding/latest', { authorization: 'Bearer invalid', 'if-none-match': '*' });
        expect(res.statusCode).toBe(401);
      });

      it('refuses credentials in the URL with 400', async () => {
        await capture();
        const res = await get('/v1/funding/latest?token=abc');
        expect(res.statusCode).toBe(400);
        expect(res.json().code).toBe('credentials_in_url');
      });
    });

    describe('changes', () => {
      async function twoPackets() {
        h.server.documents.srf = { body: srfWithAmount(500000) };
        const p1 = await capture();
        h.clock.advance(60);
        h.server.documents.srf = { body: srfWithAmount(0) };
        const p2 = await capture();
        return { p1: p1.packet_id!, p2: p2.packet_id! };
      }

      it('reports a same-date value change with its kind, before/after values and the scope caveat', async () => {
        const { p1, p2 } = await twoPackets();
        const res = await get(`/v1/funding/changes?since=${p1}&until=${p2}`);
        expect(res.statusCode).toBe(200);
        const body = res.json();
        expect(body).toMatchObject({ schema: 'financial-evidence.funding-changes.v1', before: p1, after: p2, packet_id: p2, ready: true, review_asof: '2026-10-20' });
        expect(body.scope).toContain('not_confirmed_publisher');
        expect(body.changes).toEqual([{
          metric_id: 'liquidity.srf',
          kind: 'same_date_observation_changed',
          before: { observation_date: '2026-10-20', source: 'New York Fed standing repo operation results', unit: '$B', value: 0.001, value_state: 'available' },
          after: { observation_date: '2026-10-20', source: 'New York Fed standing repo operation results', unit: '$B', value: 0, value_state: 'available' },
        }]);
        expect(res.body).toContain('"value": 0.0');
        expect(res.headers['content-type']).toBe('application/json');
        expect(res.headers.etag).toBe(`"${sha256Hex(res.rawPayload)}"`);
        const again = await get(`/v1/funding/changes?since=${p1}&until=${p2}`, { 'if-none-match': res.headers.etag as string });
        expect(again.statusCode).toBe(304);
      });

      it('answers an empty change list when since is the latest packet', async () => {
        const { p2 } = await twoPackets();
        const res = await get(`/v1/funding/changes?since=${p2}`);
        expect(res.statusCode).toBe(200);
        expect(res.json().changes).toEqual([]);
      });

      it('reads a repeated since or until by its last value, as the upstream does', async () => {
        const { p1, p2 } = await twoPackets();
        const plain = await get(`/v1/funding/changes?since=${p1}&until=${p2}`);
        const repeated = await get(`/v1/funding/changes?since=../other&since=${p1}&until=${p1}&until=${p2}`);
        expect(repeated.statusCode).toBe(200);
        expect(repeated.body).toBe(plain.body);
        expect((await get(`/v1/funding/changes?since=${p1}&since=../other`)).json().code).toBe('invalid_packet_id');
      });

      it('answers 409 when until is not the latest packet', async () => {
        const { p1 } = await twoPackets();
        const res = await get(`/v1/funding/changes?since=${p1}&until=${p1}`);
        expect(res.statusCode).toBe(409);
        expect(res.json().code).toBe('latest_changed');
      });

      it('answers 400 for a malformed since and 422 without since', async () => {
        await twoPackets();
        const bad = await get('/v1/funding/changes?since=../other');
        expect(bad.statusCode).toBe(400);
        expect(bad.json().code).toBe('invalid_packet_id');
        // Without since, as the upstream's framework answers: the validation list, checked
        // before the credential (a malformed key does not change it), at both mounts.
        for (const url of ['/v1/funding/changes', '/v1/funding/changes?until=x', '/funding-evidence/v1/funding/changes']) {
          for (const headers of [{}, { authorization: 'Bearer nope' }] as Record<string, string>[]) {
            const none = await get(url, headers);
            expect(none.statusCode).toBe(422);
            const body = none.json();
            expect(body.code).toBe('since_required');
            expect(body.path).toBe('/query/since');
            expect(body.detail).toEqual([{ type: 'missing', loc: ['query', 'since'], msg: expect.any(String), input: null }]);
          }
        }
      });

      it('answers 404 for a well-formed since that is not in the archive', async () => {
        await twoPackets();
        const res = await get('/v1/funding/changes?since=20260101T000000.000000Z-0123456789abcdef0123456789abcdef');
        expect(res.statusCode).toBe(404);
        expect(res.json().code).toBe('since_outside_archive');
      });

      it('answers 409 when since was archived after the packet that is current', async () => {
        const { p1, p2 } = await twoPackets();
        const first = await h.storage.db.selectFrom('funding_packets').selectAll().where('packet_id', '=', p1).executeTakeFirstOrThrow();
        h.clock.advance(1);
        await h.storage.serialized(ARCHIVE_LOCK, (trx) => insertAttempt(trx, {
          attempt_id: 'f'.repeat(32), mode: 'live', started_at_us: Number(h.clock()), recorded_at_us: Number(h.clock()), outcome: 'packet_reverified',
          packet_id: p1, manifest_sha256: first.manifest_sha256, review_asof: '2026-10-20', error_code: null, error: null, receipts_json: null, sample_day: null,
        }));
        const res = await get(`/v1/funding/changes?since=${p2}`);
        expect(res.statusCode).toBe(409);
        expect(res.json().code).toBe('since_after_latest');
      });

      it('answers 503 rather than comparing when the current evidence is not ready', async () => {
        const { p1 } = await twoPackets();
        h.clock.advance(3600);
        const res = await get(`/v1/funding/changes?since=${p1}`, { 'if-none-match': '*' });
        expect(res.statusCode).toBe(503);
        expect(res.json().code).toBe('evidence_stale');
      });
    });

    describe('history', () => {
      it('lists packets archived by as_of: one second before archived_at → 0, at archived_at → 1, future → 422', async () => {
        await capture();
        const latest = (await get('/v1/funding/latest')).json();
        const archived = latest.archived_at as string;
        const before = new Date(Date.parse(archived) - 1000).toISOString().replace('Z', '+00:00');
        const zero = await get(`/v1/funding/history?as_of=${encodeURIComponent(before)}`);
        expect(zero.statusCode).toBe(200);
        expect(zero.json()).toMatchObject({ packet_count: 0, packets: [], first_archived_at: null, latest_attempt: null });
        const one = await get(`/v1/funding/history?as_of=${encodeURIComponent(archived)}`);
        expect(one.json()).toMatchObject({ schema: 'financial-evidence.forward-coverage.v1', as_of: archived, packet_count: 1, truncated: false });
        expect(one.json().packets[0]).toMatchObject({ packet_id: latest.packet_id, archived_at: archived, ready_at_capture: true, review_asof: '2026-10-20' });
        expect(one.json().packets[0].source_manifest_sha256).toMatch(/^[0-9a-f]{64}$/);
        const future = await get('/v1/funding/history?as_of=2030-01-01T00:00:00Z');
        expect(future.statusCode).toBe(422);
        expect(future.json().code).toBe('invalid_as_of');
      });

      it.each(['2026-10-21T12:00:00', 'yesterday', '2026-13-01T00:00:00Z'])('answers 422 for as_of %s', async (asOf) => {
        const res = await get(`/v1/funding/history?as_of=${encodeURIComponent(asOf)}`);
        expect(res.statusCode).toBe(422);
        expect(res.json().code).toBe('invalid_as_of');
      });

      it('accepts an as_of with another offset and normalises it to +00:00', async () => {
        const res = await get(`/v1/funding/history?as_of=${encodeURIComponent('2026-10-21T08:00:00-04:00')}`);
        expect(res.statusCode).toBe(200);
        expect(res.json().as_of).toBe('2026-10-21T12:00:00.000000+00:00');
      });

      it('pages backwards through the whole archive with before and limit', async () => {
        const ids: string[] = [];
        for (const dollars of [1_000_000, 2_000_000, 3_000_000]) {
          h.server.documents.srf = { body: srfWithAmount(dollars) };
          ids.push((await capture()).packet_id!);
          h.clock.advance(60);
        }
        const page1 = (await get('/v1/funding/history?limit=2')).json();
        expect(page1.packet_count).toBe(3);
        expect(page1.packets.map((p: { packet_id: string }) => p.packet_id)).toEqual([ids[1], ids[2]]);
        expect(page1.truncated).toBe(true);
        expect(page1.next_before).toBe(ids[1]);
        const page2 = (await get(`/v1/funding/history?limit=2&before=${page1.next_before}`)).json();
        expect(page2.packets.map((p: { packet_id: string }) => p.packet_id)).toEqual([ids[0]]);
        expect(page2.truncated).toBe(false);
        expect(page2.next_before).toBeNull();
        // A repeated parameter counts with its last value, as the upstream reads it.
        const repeated = (await get(`/v1/funding/history?limit=0&limit=2&before=x&before=${page1.next_before}`)).json();
        expect({ ...repeated, as_of: page2.as_of }).toEqual(page2);
        expect((await get('/v1/funding/history?limit=2&limit=97')).statusCode).toBe(422);
        expect((await get('/v1/funding/history?limit=97')).statusCode).toBe(422);
        expect((await get('/v1/funding/history?limit=0')).statusCode).toBe(422);
        expect((await get('/v1/funding/history?before=../x')).statusCode).toBe(400);
        const unknown = await get('/v1/funding/history?before=20260101T000000.000000Z-0123456789abcdef0123456789abcdef');
        expect(unknown.statusCode).toBe(404);
        expect(unknown.json().code).toBe('history_cursor_not_found');
      });

      it('stays readable while latest is unavailable and reports the failed newest attempt', async () => {
        const good = await capture();
        h.clock.advance(60);
        h.server.documents.tga = { status: 503, body: '' };
        await capture();
        expect((await get('/v1/funding/latest')).statusCode).toBe(503);
        const res = await get('/v1/funding/history');
        expect(res.statusCode).toBe(200);
        const body = res.json();
        expect(body.packet_count).toBe(1);
        expect(body.packets[0].packet_id).toBe(good.packet_id);
        expect(body.latest_attempt).toMatchObject({ packet_id: null, outcome: 'failed' });
        expect(body.latest_attempt.error).toMatch(/^publisher_unavailable: /);
      });
    });

    describe('packet downloads', () => {
      it('serves each file immutably with a strong ETag, X-Packet-SHA256, a license link and 304 on a match', async () => {
        const { packet_id: id } = await capture();
        const types: Record<string, RegExp> = { 'manifest.json': /^application\/json/, 'review.json': /^application\/json/, 'observations.csv': /^text\/csv; charset=utf-8/ };
        for (const file of Object.keys(types)) {
          const res = await get(`/packets/${id}/${file}`);
          expect(res.statusCode).toBe(200);
          const digest = sha256Hex(res.rawPayload);
          expect(res.headers['x-packet-sha256']).toBe(digest);
          expect(res.headers.etag).toBe(`"${digest}"`);
          expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
          expect(res.headers['content-disposition']).toBe(`attachment; filename="${file}"`);
          expect(res.headers.link).toBe('</funding/sources.md>; rel="license"');
          expect(res.headers['content-type']).toMatch(types[file]);
          const again = await get(`/packets/${id}/${file}`, { 'if-none-match': `W/${res.headers.etag}` });
          expect(again.statusCode).toBe(304);
          expect(again.body).toBe('');
        }
        const page = await get('/funding/sources.md');
        expect(page.statusCode).toBe(200);
        expect(page.body).toContain('new_york_fed');
        const prefixed = await get(`/funding-evidence/packets/${id}/review.json`);
        expect(prefixed.headers.link).toBe('</funding-evidence/funding/sources.md>; rel="license"');
      });

      it('answers 400 for a malformed id, 404 for an unknown packet and 404 for another file name', async () => {
        const { packet_id: id } = await capture();
        const malformed = await get('/packets/..%2Flatest/manifest.json');
        expect(malformed.statusCode).toBe(400);
        expect(malformed.json().code).toBe('invalid_packet_id');
        const unknown = await get('/packets/20260101T000000.000000Z-0123456789abcdef0123456789abcdef/manifest.json');
        expect(unknown.statusCode).toBe(404);
        expect(unknown.json().code).toBe('packet_not_found');
        const name = await get(`/packets/${id}/secrets.txt`);
        expect(name.statusCode).toBe(404);
        expect(name.json().code).toBe('packet_file_not_found');
      });

      it('judges ids and file names of any length in the route: the file name first, then the id syntax', async () => {
        await capture();
        // Lengths on both sides of the router's old 256-character bound, up to a 12 KB segment.
        for (const length of [255, 256, 257, 300, 1000, 12_000]) {
          const id = 'x'.repeat(length);
          for (const prefix of ['', '/funding-evidence']) {
            const malformed = await get(`${prefix}/packets/${id}/manifest.json`);
            expect(malformed.statusCode).toBe(400);
            expect(malformed.json().code).toBe('invalid_packet_id');
            const other = await get(`${prefix}/packets/${id}/nope`);
            expect(other.statusCode).toBe(404);
            expect(other.json().code).toBe('packet_file_not_found');
            const longName = await get(`${prefix}/packets/20260101T000000.000000Z-0123456789abcdef0123456789abcdef/${id}`);
            expect(longName.json().code).toBe('packet_file_not_found');
          }
        }
      });

      it('stays downloadable after the packet stops being current', async () => {
        const { packet_id: id } = await capture();
        h.clock.advance(7200);
        expect((await get('/v1/funding/latest')).statusCode).toBe(503);
        expect((await get(`/packets/${id}/review.json`)).statusCode).toBe(200);
      });
    });

    describe('CORS', () => {
      it('echoes an allowed origin and exposes the evidence headers', async () => {
        await capture();
        const res = await get('/v1/funding/latest', { origin: 'https://pro.openbb.co' });
        expect(res.statusCode).toBe(200);
        expect(res.headers['access-control-allow-origin']).toBe('https://pro.openbb.co');
        expect(res.headers['access-control-expose-headers']).toBe('X-Packet-SHA256, ETag, X-Evidence-Checked-At, X-Usage-Recorded');
        expect(res.headers['access-control-allow-credentials']).toBeUndefined();
        const other = await get('/v1/funding/latest', { origin: 'https://evil.example' });
        expect(other.headers['access-control-allow-origin']).toBeUndefined();
      });

      it('answers allowed preflights with the methods, headers and max-age, and refuses others with 400', async () => {
        const ok = await h.app.inject({
          method: 'OPTIONS', url: '/v1/funding/latest',
          headers: { origin: 'https://my.openbb.co', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization, if-none-match' },
        });
        expect(ok.statusCode).toBe(204);
        expect(ok.headers['access-control-allow-origin']).toBe('https://my.openbb.co');
        expect(ok.headers['access-control-allow-methods']).toBe('GET, POST, DELETE');
        expect(ok.headers['access-control-allow-headers']).toBe('Content-Type, Authorization, If-None-Match');
        expect(ok.headers['access-control-max-age']).toBe('600');
        const bad = await h.app.inject({
          method: 'OPTIONS', url: '/v1/funding/latest',
          headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' },
        });
        expect(bad.statusCode).toBe(400);
        expect(bad.json().code).toBe('cors_preflight_refused');
      });
    });
  });
}
