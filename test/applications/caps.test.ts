import { afterEach, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { backends } from '../helpers/storage.js';
import { enrollVia, movableClock } from './support.js';

for (const backend of backends) {
  describe(`enrollment allowances on ${backend.name}, two instances sharing one store`, () => {
    const cleanups: Array<() => Promise<void>> = [];
    afterEach(async () => {
      for (const c of cleanups.splice(0).reverse()) await c();
    });

    async function twoInstances(clockText: string): Promise<[TestApp, TestApp, ReturnType<typeof movableClock>]> {
      const opened = await backend.open();
      cleanups.push(opened.cleanup);
      const clock = movableClock(clockText);
      const a = await makeTestApp({}, { storage: opened.storage, clock });
      const b = await makeTestApp({}, { storage: await opened.openAnother(), clock });
      cleanups.push(() => a.close(), () => b.close());
      return [a, b, clock];
    }

    it('150 concurrent enrollments: exactly 100 succeed today, the rest get 429 with Retry-After to UTC midnight', async () => {
      const [a, b, clock] = await twoInstances('2026-09-01T18:00:00Z');
      const results = await Promise.all(Array.from({ length: 150 }, (_, i) => enrollVia(i % 2 === 0 ? a.app : b.app)));
      const created = results.filter((r) => r.statusCode === 201);
      const refused = results.filter((r) => r.statusCode === 429);
      expect(created).toHaveLength(100);
      expect(refused).toHaveLength(50);
      for (const r of refused) {
        expect(r.json()).toMatchObject({ code: 'enrollment_allowance_reached' });
        expect(r.headers['retry-after']).toBe(String(6 * 3600));
      }
      const stored = await a.storage.db.selectFrom('applications').select('id').execute();
      expect(stored).toHaveLength(100);
      expect(new Set(created.map((r) => r.json().application_id)).size).toBe(100);

      // An erased key frees a place today; the next UTC date starts a fresh allowance.
      const victim = created[0].json<{ token: string }>();
      expect((await a.app.inject({ method: 'DELETE', url: '/v1/applications/current', headers: { authorization: `Bearer ${victim.token}` } })).statusCode).toBe(200);
      expect((await enrollVia(b.app)).statusCode).toBe(201);
      expect((await enrollVia(a.app)).statusCode).toBe(429);
      clock.set('2026-09-02T00:00:00Z');
      expect((await enrollVia(a.app)).statusCode).toBe(201);
    });

    it('10,000 retained keys: concurrent enrollments past the total get 429 with a bounded Retry-After', async () => {
      const [a, b] = await twoInstances('2026-09-01T23:30:00Z');
      // 9,998 keys created on earlier dates, still in use.
      const rows = Array.from({ length: 9_998 }, (_, i) => ({
        id: i.toString(16).padStart(32, '0'),
        token_hash: 'a' + i.toString(16).padStart(63, '0'),
        created_day: '2026-08-01',
        last_seen_day: '2026-08-31',
        traffic_class: 'unverified' as const,
        evidence_sha256: null,
      }));
      for (let i = 0; i < rows.length; i += 500) await a.storage.db.insertInto('applications').values(rows.slice(i, i + 500)).execute();
      const results = await Promise.all(Array.from({ length: 12 }, (_, i) => enrollVia(i % 2 === 0 ? a.app : b.app)));
      expect(results.filter((r) => r.statusCode === 201)).toHaveLength(2);
      const refused = results.filter((r) => r.statusCode === 429);
      expect(refused).toHaveLength(10);
      for (const r of refused) {
        expect(r.json().code).toBe('enrollment_allowance_reached');
        // Half an hour to midnight, when idle keys may expire; never more than an hour.
        expect(r.headers['retry-after']).toBe('1800');
      }
      const count = await a.storage.db.selectFrom('applications').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      expect(Number(count.n)).toBe(10_000);
    });

    it('expired keys do not hold places: they are purged before the allowance is counted', async () => {
      const [a] = await twoInstances('2026-09-01T12:00:00Z');
      const rows = Array.from({ length: 10_000 }, (_, i) => ({
        id: i.toString(16).padStart(32, '0'),
        token_hash: 'a' + i.toString(16).padStart(63, '0'),
        created_day: '2026-01-01',
        last_seen_day: i < 5 ? '2026-03-05' : '2026-08-31', // 2026-03-05 is 180 dates before 2026-09-01
        traffic_class: 'unverified' as const,
        evidence_sha256: null,
      }));
      for (let i = 0; i < rows.length; i += 500) await a.storage.db.insertInto('applications').values(rows.slice(i, i + 500)).execute();
      const results = await Promise.all(Array.from({ length: 8 }, () => enrollVia(a.app)));
      expect(results.filter((r) => r.statusCode === 201)).toHaveLength(5);
    });
  });
}
