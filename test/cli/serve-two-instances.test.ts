// Two real `serve` processes on different ports sharing one PostgreSQL database, as
// docs/deploy.md describes a deployment: captures never overlap, a packet captured through
// either one is served by the other (same ETag) within the documented bound, and enrollment
// caps and usage de-duplication hold exactly for requests spread over both, and group C
// answers one query from either instance with one snapshot, fetching each source once
// between them, and serves a pinned snapshot's pages byte for byte with the same ETag.
// Needs DATABASE_URL (CI starts PostgreSQL); each run uses its own schema.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QueryResult } from '../../src/data/schemas.js';
import { startServe, type ServedProcess } from '../helpers/serve.js';
import { postgresUrl } from '../helpers/storage.js';

/** docs/deploy.md: a packet captured through one instance is served by every other within this. */
const INVALIDATION_BOUND_MS = 1000;
/** One poll apart, a request's own time and process scheduling on a busy 2-core machine. */
const SLACK_MS = 1000;
const CAPTURE_INTERVAL_S = 3;
const SAMPLE_DAYS = 3;
/** The longest source reuse the service accepts: no retrieval expires while the group C case runs. */
const SOURCE_CACHE_TTL_S = 300;

function withSearchPath(url: string, schema: string): string {
  return `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Observation {
  instance: 'a' | 'b';
  /** Wall-clock ms when the request was sent. */
  sentAt: number;
  status: number;
  packetId: string;
  etag: string;
}

async function observe(instance: 'a' | 'b', served: ServedProcess): Promise<Observation> {
  const sentAt = Date.now();
  const res = await fetch(`${served.address}/v1/funding/latest`);
  const body = (await res.json()) as { packet_id?: string };
  return { instance, sentAt, status: res.status, packetId: body.packet_id ?? '', etag: res.headers.get('etag') ?? '' };
}

/** Packet ids of the captures this process logged as its own. */
function capturedBy(served: ServedProcess): string[] {
  return served
    .logLines()
    .filter((entry) => entry.msg === 'funding capture attempt succeeded' && entry.outcome === 'packet_created' && entry.packet_id)
    .map((entry) => entry.packet_id as string);
}

const title = 'two serve processes on one PostgreSQL database';
describe.runIf(postgresUrl !== undefined)(postgresUrl ? title : `${title} (skipped: DATABASE_URL is not set to a postgres:// URL)`, () => {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const db = new pg.Client({ connectionString: postgresUrl });
  let a: ServedProcess;
  let b: ServedProcess;
  /** B's first run, stopped after the start-up capture. */
  let bFirst: ServedProcess;
  /** Every run of B, the one kept last. */
  const bRuns: ServedProcess[] = [];

  /** When each of these captures started (µs since the epoch, the store's clock), in order. */
  async function captureStarts(packetIds: string[]): Promise<number[]> {
    const { rows } = await db.query<{ packet_id: string; started_at_us: string }>(
      'select packet_id, started_at_us from funding_attempts where packet_id = any($1) order by seq', [packetIds],
    );
    expect(rows).toHaveLength(packetIds.length);
    return rows.map((r) => Number(r.started_at_us));
  }

  /** The first packet this process captured itself (its start-up capture, or its next tick's). */
  async function firstCapture(served: ServedProcess): Promise<string> {
    for (let waited = 0; waited < 60_000; waited += 100) {
      const [first] = capturedBy(served);
      if (first) return first;
      await sleep(100);
    }
    throw new Error('an instance did not capture within a minute');
  }

  beforeAll(async () => {
    await db.connect();
    await db.query(`create schema ${schema}`);
    await db.query(`set search_path to ${schema}`);
    const args = ['--mode', 'sample', '--database-url', withSearchPath(postgresUrl!, schema), '--capture-interval', String(CAPTURE_INTERVAL_S), '--source-cache-ttl', String(SOURCE_CACHE_TTL_S)];
    // Started together, both migrate and both try the start-up capture at once. Then B's
    // scheduler is put half an interval behind A's, so each of them captures in turn and
    // each packet stays current long enough for the other instance to serve it. How long
    // a process takes to start varies on a busy machine, so B's phase is measured from its
    // first capture, and B is started again (at most a few times) until it lies between A's.
    let startupMs = Date.now();
    [a, bFirst] = await Promise.all([startServe(args), startServe(args)]);
    startupMs = Date.now() - startupMs;
    expect(await bFirst.stop()).toBe(0);
    bRuns.push(bFirst);
    const intervalUs = CAPTURE_INTERVAL_S * 1_000_000;
    for (let attempt = 1; ; attempt++) {
      await firstCapture(a); // A skips its start-up capture when B's first run won it
      const aStarts = await captureStarts(capturedBy(a));
      const aPhase = aStarts.at(-1)!;
      // Aim B's start-up capture at the next half-interval point after A's, one start-up away.
      const earliestUs = Date.now() * 1000 + startupMs * 1000;
      const targetUs = aPhase + intervalUs / 2 + Math.ceil((earliestUs - aPhase - intervalUs / 2) / intervalUs) * intervalUs;
      await sleep(Math.max(0, (targetUs - earliestUs) / 1000));
      const startedAt = Date.now();
      const candidate = await startServe(args);
      startupMs = Date.now() - startedAt;
      bRuns.push(candidate);
      const first = await firstCapture(candidate);
      const [bStart] = await captureStarts([first]);
      const phase = (((bStart - aPhase) % intervalUs) + intervalUs) % intervalUs / intervalUs;
      if ((phase >= 0.3 && phase <= 0.7) || attempt === 4) {
        b = candidate;
        break;
      }
      expect(await candidate.stop()).toBe(0);
    }
  }, 120_000);

  afterAll(async () => {
    for (const served of [a, b]) if (served) expect(await served.stop()).toBe(0);
    await db.query(`drop schema if exists ${schema} cascade`);
    await db.end();
  }, 30_000);

  it('captures one at a time, and each instance serves the other\'s packets with the same ETag within the bound', async () => {
    const observations: Observation[] = [];
    const until = Date.now() + 4 * CAPTURE_INTERVAL_S * 1000;
    while (Date.now() < until) {
      observations.push(...(await Promise.all([observe('a', a), observe('b', b)])));
      await sleep(50);
    }

    const { rows: attempts } = await db.query<{ started_at_us: string; recorded_at_us: string; outcome: string; packet_id: string | null; sample_day: string }>(
      'select started_at_us, recorded_at_us, outcome, packet_id, sample_day from funding_attempts order by seq',
    );
    expect(attempts.length).toBeGreaterThanOrEqual(4);
    // One capture at a time: each attempt started after the previous one was recorded, and
    // each saw every earlier attempt (sample captures walk the bundled days by attempt count,
    // so two captures running together would have read the same day).
    attempts.forEach((attempt, i) => {
      expect(attempt.outcome).toBe('packet_created');
      expect(attempt.sample_day).toBe(`day-${(i % SAMPLE_DAYS) + 1}`);
      if (i > 0) expect(Number(attempt.started_at_us)).toBeGreaterThan(Number(attempts[i - 1].recorded_at_us));
    });

    // Both processes captured, and every packet was captured by exactly one of them.
    const byA = capturedBy(a);
    const byB = bRuns.flatMap(capturedBy);
    expect(byA.length).toBeGreaterThan(0);
    expect(byB.length).toBeGreaterThan(0);
    expect([...byA, ...byB].sort()).toEqual(attempts.map((x) => x.packet_id).sort());

    // Each packet has one ETag, whichever instance serves it.
    const etags = new Map<string, Set<string>>();
    for (const o of observations) {
      expect(o.status).toBe(200);
      etags.set(o.packetId, (etags.get(o.packetId) ?? new Set()).add(o.etag));
    }
    for (const [, tags] of etags) expect(tags.size).toBe(1);
    const servedByBoth = [...etags.keys()].filter((id) => observations.some((o) => o.instance === 'a' && o.packetId === id) && observations.some((o) => o.instance === 'b' && o.packetId === id));
    expect(servedByBoth.length).toBeGreaterThanOrEqual(2);
    expect(servedByBoth.some((id) => byA.includes(id))).toBe(true);
    expect(servedByBoth.some((id) => byB.includes(id))).toBe(true);

    // No instance serves a packet older than one recorded longer than the bound ago.
    const recorded = attempts.map((x) => ({ packetId: x.packet_id!, atMs: Number(x.recorded_at_us) / 1000 }));
    for (const o of observations) {
      const due = recorded.filter((r) => r.atMs <= o.sentAt - INVALIDATION_BOUND_MS - SLACK_MS).at(-1);
      if (due) expect(o.packetId >= due.packetId, `${o.instance} served ${o.packetId} after ${due.packetId} was due`).toBe(true);
    }
  }, 60_000);

  it('holds the enrollment cap and usage de-duplication exactly for requests spread over both', async () => {
    const enroll = (served: ServedProcess) =>
      fetch(`${served.address}/v1/applications`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"measurement_consent": true}' });
    const dayBefore = new Date().toISOString().slice(0, 10);
    const answers = await Promise.all(Array.from({ length: 130 }, (_, i) => enroll(i % 2 === 0 ? a : b)));
    const bodies = await Promise.all(answers.map(async (res) => ({ status: res.status, body: (await res.json()) as { code?: string; token?: string; application_id?: string } })));
    // The allowance is per UTC date: a run that straddles midnight proves nothing here.
    if (new Date().toISOString().slice(0, 10) !== dayBefore) return;
    const created = bodies.filter((r) => r.status === 201);
    const refused = bodies.filter((r) => r.status === 429);
    expect(created).toHaveLength(100);
    expect(refused).toHaveLength(30);
    for (const r of refused) expect(r.body.code).toBe('enrollment_allowance_reached');
    expect(Number((await db.query('select count(*) as n from applications')).rows[0].n)).toBe(100);

    // Three keys read latest 40 times each, spread over both instances, all at once.
    const keys = created.slice(0, 3).map((r) => ({ id: r.body.application_id!, token: r.body.token! }));
    const reads = await Promise.all(
      keys.flatMap((key) =>
        Array.from({ length: 40 }, async (_, i) => {
          const res = await fetch(`${(i % 2 === 0 ? a : b).address}/v1/funding/latest`, { headers: { authorization: `Bearer ${key.token}` } });
          const body = (await res.json()) as { packet_id: string };
          return { id: key.id, status: res.status, packetId: body.packet_id };
        }),
      ),
    );
    expect(reads.every((r) => r.status === 200)).toBe(true);
    // One completion per key, date and packet it was served — captures keep minting packets
    // meanwhile, so a key may have been served more than one.
    const { rows: completions } = await db.query<{ application: string; packet: string }>('select application, packet from completions');
    for (const key of keys) {
      const served = new Set(reads.filter((r) => r.id === key.id).map((r) => r.packetId));
      expect(completions.filter((c) => c.application === key.id).map((c) => c.packet).sort()).toEqual([...served].sort());
    }
    expect(completions.every((c) => keys.some((k) => k.id === c.application))).toBe(true);
    // Keyed counts are exact: every one of the 120 responses counted once.
    const { rows: counted } = await db.query<{ count: number }>("select count from aggregates where traffic_class = 'unverified' and outcome = 'data_response'");
    expect(counted.map((r) => Number(r.count)).reduce((x, y) => x + y, 0)).toBe(120);
  }, 60_000);

  it('answers a data query from either instance with one snapshot, fetching each source once between them', async () => {
    const query = '/api/v1/query?dataset=money_market_history';
    const answers = await Promise.all(Array.from({ length: 12 }, async (_, i) => {
      const res = await fetch(`${(i % 2 === 0 ? a : b).address}${i % 4 < 2 ? '' : '/openbb'}${query}`);
      return { status: res.status, body: (await res.json()) as QueryResult };
    }));
    for (const answer of answers) expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(new Set(answers.map((x) => x.body.snapshot_id)).size).toBe(1);
    for (const answer of answers) expect(answer.body.results).toEqual(answers[0].body.results);
    expect(answers[0].body.results.length).toBeGreaterThan(0);

    // Twelve requests over two processes, one retrieval per source in the shared store.
    const { rows: retrievals } = await db.query<{ source_key: string; n: string }>(
      "select source_key, count(*) as n from data_retrievals where mode = 'sample' group by source_key",
    );
    expect(retrievals.map((r) => r.source_key)).toContain('money-market');
    for (const r of retrievals) expect(Number(r.n), r.source_key).toBe(1);
    const { rows: snapshots } = await db.query<{ snapshot_id: string }>("select snapshot_id from data_snapshots where dataset = 'money_market_history'");
    expect(snapshots.map((r) => r.snapshot_id)).toEqual([answers[0].body.snapshot_id]);
  }, 60_000);

  it('serves every page of a pinned snapshot byte for byte with the same ETag from either instance', async () => {
    const first = await fetch(`${a.address}/api/v1/query?dataset=money_market_history&limit=2`);
    expect(first.status).toBe(200);
    const { snapshot_id: snapshot, total_rows: total } = (await first.json()) as QueryResult;
    expect(total).toBeGreaterThan(2);

    const read = async (served: ServedProcess, url: string, headers: Record<string, string> = {}) => {
      const res = await fetch(`${served.address}${url}`, { headers });
      return { status: res.status, etag: res.headers.get('etag'), bytes: Buffer.from(await res.arrayBuffer()) };
    };
    const pinned = (offset: number, format = 'json') =>
      `/api/v1/query?dataset=money_market_history&limit=2&offset=${offset}&snapshot=${snapshot}&format=${format}`;
    const seen = new Set<string>();
    for (let offset = 0; offset < total; offset += 2) {
      for (const format of ['json', 'csv']) {
        const [fromA, fromB] = await Promise.all([read(a, pinned(offset, format)), read(b, pinned(offset, format))]);
        expect(fromA.status).toBe(200);
        expect(fromB.status).toBe(200);
        expect(fromA.etag).toMatch(/^"/);
        expect(fromB.etag).toBe(fromA.etag);
        expect(fromB.bytes.equals(fromA.bytes), `${format} page at offset ${offset} differs`).toBe(true);
        if (format === 'json') expect((JSON.parse(fromA.bytes.toString()) as QueryResult).snapshot_id).toBe(snapshot);
        seen.add(fromA.etag!);
        // The other instance's ETag validates here: 304 without a body.
        const revalidated = await read(b, pinned(offset, format), { 'if-none-match': fromA.etag! });
        expect(revalidated.status).toBe(304);
        expect(revalidated.bytes.length).toBe(0);
      }
    }
    // Each page and format is its own representation.
    expect(seen.size).toBe(2 * Math.ceil(total / 2));

    const list = '/api/v1/snapshots?dataset=money_market_history';
    const [listA, listB] = await Promise.all([read(a, list), read(b, list)]);
    expect(listA.status).toBe(200);
    expect(listB.bytes.equals(listA.bytes)).toBe(true);
    expect(listB.etag).toBe(listA.etag);
    expect((JSON.parse(listA.bytes.toString()) as { results: { snapshot_id: string }[] }).results.map((s) => s.snapshot_id)).toContain(snapshot);
  }, 60_000);
});
