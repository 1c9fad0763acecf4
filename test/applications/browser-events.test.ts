// POST /events and POST /forget: origin allow-list, exact bodies, the visitor kept only as
// a keyed hash, de-duplication, the daily caps, forgetting, the 30-date retention and the
// report's browser section — on every backend (several instances share one store).
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { backends } from '../helpers/storage.js';
import { useFundingHarness } from '../funding/harness.js';
import { usageReport } from '../../src/applications/report.js';
import { purgeOncePerDay } from '../../src/applications/retention.js';
import { BROWSER_EVENTS_PER_DAY, BROWSER_EVENTS_PER_VISITOR_PER_DAY, visitorHash, visitorSecret } from '../../src/applications/browser-events.js';
import { utcDate } from '../../src/applications/days.js';
import { makeTestApp } from '../helpers/app.js';

const HOST = '127.0.0.1:8080';
const OWN = { host: HOST, origin: `http://${HOST}`, 'content-type': 'application/json' };
const LISTED = 'https://desk.example.org';
const visitor = () => randomBytes(16).toString('hex');

for (const backend of backends) {
  describe(`browser counters on ${backend.name}`, () => {
    const h = useFundingHarness({ backend, mode: 'sample', config: { eventOrigins: [LISTED] } });

    async function packet(): Promise<string> {
      return (await h.captured()).packet_id!;
    }
    const send = (body: unknown, headers: Record<string, string> = OWN) =>
      h.app.inject({ method: 'POST', url: '/events', payload: typeof body === 'string' ? body : JSON.stringify(body), headers });
    const event = (v: string, packetId: string, extra: Record<string, unknown> = {}) => ({
      visitor: v, consent: true, packet_id: packetId, kind: 'packet_download', traffic_class: 'browser', ...extra,
    });

    it('records one event per visitor, date, packet and kind, and stores only the keyed hash of the visitor', async () => {
      const p = await packet();
      const v = visitor();
      expect((await send(event(v, p))).json()).toEqual({ recorded: true, scope: 'unverified_consented_browser_event' });
      expect((await send(event(v, p))).json()).toEqual({ recorded: false, scope: 'unverified_consented_browser_event' });
      const rows = await h.storage.db.selectFrom('browser_events').selectAll().execute();
      expect(rows).toHaveLength(1);
      expect(JSON.stringify(rows)).not.toContain(v);
      const secret = await visitorSecret(h.storage.db);
      expect(secret).toHaveLength(32);
      expect(rows[0].visitor_hash).toBe(visitorHash(secret, v));
      // Another instance on the same store uses the same secret, so it de-duplicates too.
      const other = await h.openAnother();
      expect(visitorHash(await visitorSecret(other.db), v)).toBe(rows[0].visitor_hash);
      h.clock.advance(86_400);
      expect((await send(event(v, p))).json()).toMatchObject({ recorded: true });
    });

    it('accepts this service\'s own origin and listed origins only, and needs an Origin', async () => {
      const p = await packet();
      expect((await send(event(visitor(), p), { ...OWN, origin: LISTED })).statusCode).toBe(200);
      for (const origin of ['https://elsewhere.example', 'http://127.0.0.1:8081', 'null', `http://${HOST}/`]) {
        const res = await send(event(visitor(), p), { ...OWN, origin });
        expect(res.statusCode, origin).toBe(403);
        expect(res.json()).toMatchObject({ code: 'event_origin_not_allowed' });
      }
      const { origin: _origin, ...withoutOrigin } = OWN;
      expect((await send(event(visitor(), p), withoutOrigin)).statusCode).toBe(403);
      expect(await h.storage.db.selectFrom('browser_events').selectAll().execute()).toHaveLength(1);
    });

    it('refuses every body that is not exactly the event, with invalid_usage_event', async () => {
      const p = await packet();
      const v = visitor();
      const bad: unknown[] = [
        { ...event(v, p), consent: false },
        { ...event(v, p), consent: 'true' },
        { ...event(v, p), extra: 1 },
        { ...event(v, p), kind: 'page_view' },
        { ...event(v, p), traffic_class: 'bot' },
        { ...event(v, p), visitor: v.toUpperCase() },
        { ...event(v, p), visitor: v.slice(1) },
        { ...event(v, p), packet_id: 'latest' },
        (({ kind: _k, ...rest }) => rest)(event(v, p)),
        [event(v, p)],
      ];
      for (const body of bad) {
        const res = await send(body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json()).toMatchObject({ code: 'invalid_usage_event' });
      }
      expect((await send('{"visitor":')).statusCode).toBe(400);
      expect((await send(event(v, p), { ...OWN, 'content-type': 'application/json-patch+json' })).statusCode).toBe(415);
      expect((await send({ ...event(v, p), pad: 'x'.repeat(1100) })).statusCode).toBe(413);
      expect(await h.storage.db.selectFrom('browser_events').selectAll().execute()).toHaveLength(0);
    });

    it('acknowledges operator traffic without storing it, and refuses unknown or corrupt packets', async () => {
      const p = await packet();
      expect((await send(event(visitor(), p, { traffic_class: 'operator' }))).json()).toEqual({ recorded: false, reason: 'operator_excluded' });
      const unknown = `20200101T000000.000000Z-${'0'.repeat(32)}`;
      expect((await send(event(visitor(), unknown))).json()).toMatchObject({ code: 'usage_event_packet_unavailable' });
      await h.storage.db.updateTable('funding_packets').set({ manifest_sha256: '0'.repeat(64) }).where('packet_id', '=', p).execute();
      const res = await send(event(visitor(), p));
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'usage_event_packet_unavailable' });
      expect(await h.storage.db.selectFrom('browser_events').selectAll().execute()).toHaveLength(0);
    });

    it(`caps a visitor at ${BROWSER_EVENTS_PER_VISITOR_PER_DAY} events per date and everyone at ${BROWSER_EVENTS_PER_DAY}`, async () => {
      const p = await packet();
      const v = visitor();
      const day = utcDate(h.clock());
      const secret = await visitorSecret(h.storage.db);
      // Earlier events of this visitor today (other packets): inserted directly, as the route would have.
      const filler = Array.from({ length: BROWSER_EVENTS_PER_VISITOR_PER_DAY }, (_, i) => ({
        visitor_hash: visitorHash(secret, v), day, packet: `20200101T000000.000000Z-${i.toString(16).padStart(32, '0')}`, kind: 'packet_download',
      }));
      await h.storage.db.insertInto('browser_events').values(filler).execute();
      const capped = await send(event(v, p));
      expect(capped.statusCode).toBe(400);
      expect(capped.json()).toMatchObject({ code: 'usage_event_allowance_reached' });
      expect((await send(event(visitor(), p))).json()).toMatchObject({ recorded: true });
      const others = Array.from({ length: BROWSER_EVENTS_PER_DAY - BROWSER_EVENTS_PER_VISITOR_PER_DAY - 1 }, (_, i) => ({
        visitor_hash: `${i}`.padStart(64, 'f'), day, packet: p, kind: 'packet_download',
      }));
      for (let i = 0; i < others.length; i += 500) await h.storage.db.insertInto('browser_events').values(others.slice(i, i + 500)).execute();
      const full = await send(event(visitor(), p));
      expect(full.statusCode).toBe(400);
      expect(full.json()).toMatchObject({ code: 'usage_event_allowance_reached' });
      const count = await h.storage.db.selectFrom('browser_events').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      expect(Number(count.n)).toBe(BROWSER_EVENTS_PER_DAY);
    });

    it('concurrent events from several instances never exceed the per-visitor cap', async () => {
      const p = await packet();
      const v = visitor();
      const day = utcDate(h.clock());
      const secret = await visitorSecret(h.storage.db);
      const filler = Array.from({ length: BROWSER_EVENTS_PER_VISITOR_PER_DAY - 1 }, (_, i) => ({
        visitor_hash: visitorHash(secret, v), day, packet: `20200101T000000.000000Z-${i.toString(16).padStart(32, '0')}`, kind: 'packet_download',
      }));
      await h.storage.db.insertInto('browser_events').values(filler).execute();
      const second = await makeTestApp({ mode: 'sample' }, { storage: await h.openAnother(), clock: h.clock });
      try {
        const packets = [p, (h.clock.advance(900), await packet())];
        const answers = await Promise.all(
          [h.app, second.app, h.app, second.app].map((app, i) =>
            app.inject({ method: 'POST', url: '/events', payload: JSON.stringify(event(v, packets[i % 2])), headers: OWN }),
          ),
        );
        const recorded = answers.filter((a) => a.statusCode === 200 && a.json<{ recorded: boolean }>().recorded).length;
        expect(recorded).toBe(1);
        const mine = await h.storage.db.selectFrom('browser_events').selectAll().where('visitor_hash', '=', visitorHash(secret, v)).execute();
        expect(mine).toHaveLength(BROWSER_EVENTS_PER_VISITOR_PER_DAY);
      } finally {
        await second.app.close();
      }
    });

    it('forget deletes exactly that visitor\'s events', async () => {
      const p = await packet();
      const [a, b] = [visitor(), visitor()];
      await send(event(a, p));
      await send(event(b, p));
      h.clock.advance(86_400);
      await send(event(a, p));
      const res = await h.app.inject({ method: 'POST', url: '/forget', payload: JSON.stringify({ visitor: a, consent: true }), headers: OWN });
      expect(res.json()).toEqual({ deleted: true });
      const rows = await h.storage.db.selectFrom('browser_events').selectAll().execute();
      expect(rows.map((r) => r.visitor_hash)).toEqual([visitorHash(await visitorSecret(h.storage.db), b)]);
      const foreign = await h.app.inject({ method: 'POST', url: '/forget', payload: JSON.stringify({ visitor: b, consent: true }), headers: { ...OWN, origin: 'https://elsewhere.example' } });
      expect(foreign.statusCode).toBe(403);
      const sloppy = await h.app.inject({ method: 'POST', url: '/forget', payload: JSON.stringify({ visitor: b, consent: true, packet_id: p }), headers: OWN });
      expect(sloppy.json()).toMatchObject({ code: 'invalid_usage_event' });
    });

    it('keeps 30 UTC dates: the retention sweep purges older events, and the report counts visitors over 14 dates', async () => {
      const p = await packet();
      const [a, b] = [visitor(), visitor()];
      h.clock.set('2026-10-01T12:00:00Z');
      await send(event(a, p)); // 2026-10-01: purged by 2026-10-31
      for (const day of ['2026-10-20', '2026-10-22', '2026-10-25']) {
        h.clock.set(`${day}T08:00:00Z`);
        await send(event(a, p));
      }
      await send(event(b, p));
      h.clock.set('2026-10-30T09:00:00Z');
      let report = (await usageReport({ storage: h.storage, clock: h.clock })).browser;
      expect(report).toMatchObject({ retention_days: 30, consented_download_events: 5, anonymous_visitors_14d: 2, visitors_on_3_days_in_14d: 1, verified_fund_organizations: null });
      h.clock.set('2026-10-31T00:00:00Z');
      await purgeOncePerDay(h.storage, utcDate(h.clock()));
      const days = (await h.storage.db.selectFrom('browser_events').select('day').execute()).map((r) => r.day).sort();
      expect(days).toEqual(['2026-10-20', '2026-10-22', '2026-10-25', '2026-10-25']);
      h.clock.set('2026-11-05T00:00:00Z');
      report = (await usageReport({ storage: h.storage, clock: h.clock })).browser;
      expect(report).toMatchObject({ consented_download_events: 4, anonymous_visitors_14d: 2, visitors_on_3_days_in_14d: 0 });
    });
  });
}
