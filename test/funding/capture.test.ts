import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/core/hash.js';
import { parseStrictJson } from '../../src/core/json.js';
import { CAPTURE_LEASE_MS } from '../../src/funding/capture.js';
import { CAPTURE_LEASE, newestAttempt } from '../../src/funding/archive.js';
import type { Config } from '../../src/core/config.js';
import type { Storage } from '../../src/storage/storage.js';
import { backends } from '../helpers/storage.js';
import { useFundingHarness } from './harness.js';
import { liveConfig, srfWithAmount } from './support.js';

const LIMITS = { maxBytes: 2_000_000, socketTimeoutMs: 2000, deadlineMs: 3000 };

for (const backend of backends) {
  describe(`funding capture on ${backend.name}`, () => {
    const h = useFundingHarness({ backend });
    const capture = (storage?: Storage, config: Partial<Config> = {}) => h.capture({ storage, config, fetchLimits: LIMITS });
    const count = async (table: 'funding_packets' | 'funding_attempts' | 'funding_publisher_blobs') =>
      Number((await h.storage.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

    it('downloads the seven documents from the configured bases and archives one packet with its attempt', async () => {
      const result = await capture();
      expect(result.ran).toBe(true);
      if (!result.ran) return;
      expect(result.attempt).toMatchObject({ outcome: 'packet_created', review_asof: '2026-10-20', error: null });
      expect(result.attempt.packet_id).toMatch(/^20261021T120000\.[0-9]{6}Z-[0-9a-f]{32}$/);
      expect(await count('funding_packets')).toBe(1);
      expect(await count('funding_attempts')).toBe(1);
      expect(await count('funding_publisher_blobs')).toBe(7);
      const paths = h.server.requests.map((r) => r.path);
      expect(paths).toHaveLength(7);
      const tga = paths.find((p) => p.includes('operating_cash_balance'))!;
      expect(decodeURIComponent(tga)).toContain('record_date:gte:2026-10-12');
      for (const r of h.server.requests) {
        expect(r.headers['user-agent']).toMatch(/^evidence-desk\//);
        expect(r.headers['accept-encoding']).toBe('identity');
      }
    });

    it('stores publisher bodies content-addressed and lists their receipts in the manifest', async () => {
      const result = await capture();
      if (!result.ran) throw new Error('did not run');
      const packet = await h.storage.db.selectFrom('funding_packets').selectAll().executeTakeFirstOrThrow();
      const manifest = parseStrictJson(packet.manifest) as { publisher_receipts: Record<string, { sha256: string; bytes: number; source_url: string }> };
      for (const [key, receipt] of Object.entries(manifest.publisher_receipts)) {
        const blob = await h.storage.db.selectFrom('funding_publisher_blobs').selectAll().where('sha256', '=', receipt.sha256).executeTakeFirstOrThrow();
        expect(sha256Hex(blob.bytes)).toBe(receipt.sha256);
        expect(Number(blob.size)).toBe(receipt.bytes);
        expect(receipt.source_url.startsWith(h.server.base)).toBe(true);
        expect(key).toMatch(/^(sofr|effr|iorb|reserves|on_rrp|srf|tga)$/);
      }
    });

    it('does not mint a new packet when the rows equal the current packet: the attempt re-verifies it', async () => {
      const first = await capture();
      h.clock.advance(900);
      const second = await capture();
      if (!first.ran || !second.ran) throw new Error('did not run');
      expect(second.attempt.outcome).toBe('packet_reverified');
      expect(second.attempt.packet_id).toBe(first.attempt.packet_id);
      expect(await count('funding_packets')).toBe(1);
      expect(await count('funding_attempts')).toBe(2);
      expect(await count('funding_publisher_blobs')).toBe(7);
    });

    it('mints a new packet when a value changes on the same date', async () => {
      await capture();
      h.clock.advance(900);
      h.server.documents.srf = { body: srfWithAmount(0) };
      const second = await capture();
      if (!second.ran) throw new Error('did not run');
      expect(second.attempt.outcome).toBe('packet_created');
      expect(await count('funding_packets')).toBe(2);
    });

    it('records a failed attempt with a bounded error and archives nothing when a publisher answers 500', async () => {
      h.server.documents.tga = { status: 500, body: 'oops' };
      const result = await capture();
      if (!result.ran) throw new Error('did not run');
      expect(result.attempt.outcome).toBe('failed');
      expect(result.attempt.error_code).toBe('publisher_unavailable');
      expect(result.attempt.error).toMatch(/^publisher_unavailable: Treasury DTS .*HTTP 500/);
      expect(result.attempt.error!.length).toBeLessThanOrEqual(300);
      expect(await count('funding_packets')).toBe(0);
      const attempt = await newestAttempt(h.storage.db, 'live');
      expect(attempt).toMatchObject({ outcome: 'failed', packet_id: null, error_code: 'publisher_unavailable' });
      expect(attempt!.receipts_json).toContain('"sofr"');
    });

    it.each([
      ['a PRATES archive that is not a zip', 'iorb', { body: 'PK not really' }, 'publisher_document_invalid'],
      ['XML with a DOCTYPE', 'iorb', { body: 'replace' }, 'publisher_document_invalid'],
      ['a redirect', 'sofr', { status: 302, body: '', headers: { location: 'http://example.org/' } }, 'publisher_unavailable'],
      ['a body over 2,000,000 bytes', 'effr', { body: ' '.repeat(2_000_001) }, 'publisher_unavailable'],
      ['a gzip-encoded body', 'on_rrp', { body: 'x', headers: { 'content-encoding': 'gzip' } }, 'publisher_unavailable'],
      ['an SRF day with only one of its two operations', 'srf', { body: 'one-operation' }, 'publisher_document_invalid'],
    ] as const)('records a failed attempt for %s', async (_label, key, served, code) => {
      const answer = { ...served } as { status?: number; body: string | Uint8Array; headers?: Record<string, string> };
      if (answer.body === 'replace') {
        const { zipPrates, fixtureBytes } = await import('./support.js');
        answer.body = zipPrates(fixtureBytes('iorb/doctype.xml'));
      } else if (answer.body === 'one-operation') {
        const doc = JSON.parse(new TextDecoder().decode(srfWithAmount(500000)));
        doc.repo.operations = doc.repo.operations.filter((op: { operationDate: string; closeTime: string }) => !(op.operationDate === '2026-10-20' && op.closeTime === '08:30'));
        answer.body = JSON.stringify(doc);
      }
      h.server.documents[key] = answer;
      const result = await capture();
      if (!result.ran) throw new Error('did not run');
      expect(result.attempt.outcome).toBe('failed');
      expect(result.attempt.error_code).toBe(code);
      expect(await count('funding_packets')).toBe(0);
    });

    it('records a timeout as a failed attempt', async () => {
      h.server.documents.reserves = { body: 'late', delayMs: 4000 };
      const result = await h.capture({ fetchLimits: { maxBytes: 2_000_000, socketTimeoutMs: 300, deadlineMs: 500 } });
      if (!result.ran) throw new Error('did not run');
      expect(result.attempt).toMatchObject({ outcome: 'failed', error_code: 'publisher_unavailable' });
      expect(result.attempt.error).toMatch(/timed out/);
    });

    it('records a failed attempt when nothing listens at the publisher base', async () => {
      const result = await h.capture({ config: { publisherBases: liveConfig('http://127.0.0.1:9').publisherBases } });
      if (!result.ran) throw new Error('did not run');
      expect(result.attempt).toMatchObject({ outcome: 'failed', error_code: 'publisher_unavailable' });
    });

    it('refuses documents whose review date is more than eight days before the capture date', async () => {
      h.clock.set('2026-10-29T12:00:00Z');
      const result = await capture();
      if (!result.ran) throw new Error('did not run');
      expect(result.attempt).toMatchObject({ outcome: 'failed', error_code: 'publisher_observation_missing' });
    });

    it('excludes concurrent captures across two instances: the second does not run and records nothing', async () => {
      const other = await h.openAnother();
      h.server.documents.sofr = { ...h.server.documents.sofr, delayMs: 300 };
      const [a, b] = await Promise.all([capture(h.storage), capture(other)]);
      const ran = [a, b].filter((r) => r.ran);
      const skipped = [a, b].filter((r) => !r.ran);
      expect(ran).toHaveLength(1);
      expect(skipped).toEqual([{ ran: false, reason: 'capture_in_progress' }]);
      expect(await count('funding_attempts')).toBe(1);
      // The lease is released afterwards: the next capture runs.
      const next = await capture(other);
      expect(next.ran).toBe(true);
    });

    it('writes nothing when its lease expired and was taken over while it ran (a stalled holder), on success or failure', async () => {
      for (const fail of [false, true]) {
        if (fail) h.server.documents.tga = { status: 500, body: 'oops' };
        h.server.documents.sofr = { ...h.server.documents.sofr, delayMs: 400 };
        const before = await count('funding_attempts');
        const running = capture();
        // While it fetches, another instance finds the lease expired by its clock and takes it over.
        await new Promise((r) => setTimeout(r, 150));
        expect(await h.storage.tryLease(CAPTURE_LEASE, `other-instance-${String(fail)}`, CAPTURE_LEASE_MS, Date.now() + 2 * CAPTURE_LEASE_MS)).toBe(true);
        expect(await running).toEqual({ ran: false, reason: 'capture_lease_lost' });
        expect(await count('funding_attempts')).toBe(before);
        expect(await count('funding_packets')).toBe(0);
        expect(await count('funding_publisher_blobs')).toBe(0);
        // The new holder's lease is untouched: the stalled capture did not release it.
        const lease = await h.storage.db.selectFrom('leases').selectAll().where('name', '=', CAPTURE_LEASE).executeTakeFirstOrThrow();
        expect(lease.holder).toBe(`other-instance-${String(fail)}`);
        await h.storage.releaseLease(CAPTURE_LEASE, lease.holder);
      }
    });

    it('does not run while another holder keeps the lease, and runs once it expires', async () => {
      expect(await h.storage.tryLease(CAPTURE_LEASE, 'someone-else', CAPTURE_LEASE_MS, Date.now())).toBe(true);
      expect(await capture()).toEqual({ ran: false, reason: 'capture_in_progress' });
      const later = await h.capture({ leaseNowMs: () => Date.now() + CAPTURE_LEASE_MS + 1 });
      expect(later.ran).toBe(true);
    });

    it('fails the attempt instead of re-verifying when the current packet no longer verifies, and rewrites nothing', async () => {
      await capture();
      const before = await h.storage.db.selectFrom('funding_packets').selectAll().executeTakeFirstOrThrow();
      const csv = Buffer.from(before.csv);
      csv[csv.length - 3] ^= 1;
      await h.storage.db.updateTable('funding_packets').set({ csv }).execute();
      h.clock.advance(900);
      const result = await capture();
      if (!result.ran) throw new Error('did not run');
      expect(result.attempt).toMatchObject({ outcome: 'failed', error_code: 'artifact_verification_failed' });
      expect(await count('funding_packets')).toBe(1);
    });
  });
}
