// The per-process cache of encoded query answers (src/data/answer-cache.ts): what it gives
// is byte for byte what building the answer again gives (JSON and CSV, pinned and current,
// at any clock), and it never answers for another snapshot, other parameters, or a
// snapshot the retention sweep removed.
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/core/hash.js';
import { AnswerCache, answerKey, answerOf, csvEntry, jsonEntry, weightOf } from '../../src/data/answer-cache.js';
import { rowsCsv } from '../../src/data/csv.js';
import { encodeDataBody } from '../../src/data/encode.js';
import { answerQuery, queryValidated, sweep, type DataContext, type QueryAnswer } from '../../src/data/service.js';
import { validateQuery, type QueryParams, type RawQuery } from '../../src/data/validate.js';
import type { Storage } from '../../src/storage/storage.js';
import { backends, sqliteBackend } from '../helpers/storage.js';
import { atlasDoc } from './documents.js';
import { liveConfig, makeContext, refusal, serveJson, startSourceServer, testClock, type SourceServer, type TestClock } from './support.js';

/** Documents the source switches between: different values, different market sets, a unicode name. */
const DOCUMENTS = [
  atlasDoc(['US-USD', 'EU-EUR', 'JP-JPY', 'GB-GBP'].map((id, m) => ({
    id,
    value: 1 + m / 4,
    history: Array.from({ length: 6 }, (_, d) => [`2026-09-${String(d + 20).padStart(2, '0')}`, m + d / 8]),
  }))),
  atlasDoc([{ id: 'US-USD', value: 66, history: [['2026-09-21', 0], ['2026-09-22', null]] }, { id: 'CH-CHF', name: 'Zürich “franc” €', value: -0.25 }]),
  atlasDoc([{ id: 'EU-EUR', value: null, availability: 'withheld' }, { id: 'JP-JPY', value: 1e-7, redistribution: 'restricted' }]),
];

interface Step {
  /** Seconds the clock moves before the query (past 60 s the source is fetched again). */
  advance: number;
  document: number;
  raw: RawQuery;
  format: 'json' | 'csv';
  /** Ask for one of the snapshots seen so far (by index) instead of the current one. */
  pin: number | null;
}

const stepArb: fc.Arbitrary<Step> = fc.record({
  advance: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 5000 }).map((ms) => ms / 1000), fc.constant(61)),
  document: fc.integer({ min: 0, max: DOCUMENTS.length - 1 }),
  raw: fc.record({
    // source_health and china_economy: several source records, most of them failed (not served).
    dataset: fc.constantFrom('money_markets', 'money_market_history', 'money_market_history', 'source_health', 'china_economy'),
    entity: fc.constantFrom(undefined, 'usd', 'US', ' eur ', 'zürich', 'nothing'),
    start_date: fc.constantFrom(undefined, '2026-09-21', '2026-09-23'),
    end_date: fc.constantFrom(undefined, '2026-09-24', '2026-09-30'),
    limit: fc.constantFrom(undefined, '1', '3', '7', '2000'),
    offset: fc.constantFrom(undefined, '0', '2', '5', '40'),
  }, { requiredKeys: ['dataset'] }),
  format: fc.constantFrom('json' as const, 'csv' as const),
  pin: fc.option(fc.nat(20), { nil: null }),
});

function defined(raw: RawQuery): RawQuery {
  return Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined));
}

/** The general path: build the answer from the snapshot and encode it. */
async function built(ctx: DataContext, params: QueryParams): Promise<Buffer> {
  const result = await queryValidated(ctx, params);
  return params.format === 'csv' ? rowsCsv(result.results) : encodeDataBody(result);
}

/**
 * The tag an answer must carry: the strong SHA-256 of its bytes, or, for an answer of the
 * current snapshot in JSON (it reports its copies' ages now), the weak SHA-256 of those
 * bytes with each `cache` object cut out.
 */
function tagFor(bytes: Buffer, live: boolean): string {
  if (!live) return `"${sha256Hex(bytes)}"`;
  return `W/"${sha256Hex(bytes.toString('utf8').replace(/"cache":\{[^{}]*\}/g, '"cache":'))}"`;
}

/**
 * Asserts that the fast path answers exactly what the general path builds. A call that had
 * to wait for a fetch says `"hit":false` in its source records where any later call says
 * true, so the first answer is compared with that one flag turned, and a second answer,
 * made after the general path at the same clock, must be the general path's bytes exactly.
 */
async function expectSameAsBuilt(ctx: DataContext, params: QueryParams): Promise<QueryAnswer> {
  const first = await answerQuery(ctx, params);
  const general = await built(ctx, params);
  const again = await answerQuery(ctx, params);
  const live = !first.pinned && params.format !== 'csv';
  for (const answer of [first, again]) expect(answer.etag).toBe(tagFor(answer.bytes(), live));
  // Ages and hits change between answers; a weak tag does not.
  if (live) expect(first.etag).toBe(again.etag);
  expect(again.bytes().equals(general)).toBe(true);
  expect(again.snapshotId).toBe(first.snapshotId);
  const turned = first.bytes().toString('utf8').replaceAll('"cache":{"hit":false,', '"cache":{"hit":true,');
  expect(turned).toBe(general.toString('utf8'));
  return again;
}

/** A fresh SQLite store and a source server serving the first money-market document, for `body`. */
async function withMoneyMarketSource(body: (env: { server: SourceServer; clock: TestClock; ctx: DataContext }) => Promise<void>): Promise<void> {
  const opened = await sqliteBackend.open();
  const server = await startSourceServer();
  try {
    const clock = testClock('2026-09-25T12:00:00Z');
    serveJson(server, 'money-market', DOCUMENTS[0]);
    await body({ server, clock, ctx: makeContext(opened.storage, liveConfig(server), clock) });
  } finally {
    await server.close();
    await opened.cleanup();
  }
}

describe('answer cache', () => {
  it('answers the same bytes and tag as building the answer again, for any parameters, clock and snapshot', async () => {
    await fc.assert(fc.asyncProperty(fc.array(stepArb, { minLength: 1, maxLength: 12 }), (steps) =>
      withMoneyMarketSource(async ({ server, clock, ctx }) => {
        const seen: Record<string, string[]> = {};
        for (const step of steps) {
          clock.advance(step.advance);
          serveJson(server, 'money-market', DOCUMENTS[step.document]);
          const ids = seen[step.raw.dataset as string] ?? [];
          const pinned = step.pin !== null && ids.length > 0 ? ids[step.pin % ids.length] : undefined;
          const params = validateQuery(defined({ ...step.raw, format: step.format === 'csv' ? 'csv' : undefined, snapshot: pinned }));
          const answer = await expectSameAsBuilt(ctx, params);
          expect(answer.pinned).toBe(pinned !== undefined);
          if (pinned !== undefined) expect(answer.snapshotId).toBe(pinned);
          if (!ids.includes(answer.snapshotId)) ids.push(answer.snapshotId);
          seen[step.raw.dataset as string] = ids;
        }
      })), { numRuns: 25 });
  });

  it('gives a cached answer the tag of its bytes even when asked for the tag only', async () => {
    // A 304 decision reads the tag without the body: the tag must be the body's (weak: the ages move).
    await withMoneyMarketSource(async ({ clock, ctx }) => {
      const params = validateQuery({ dataset: 'money_market_history', limit: '5' });
      await answerQuery(ctx, params);
      for (const step of [0.001, 0.5, 10]) {
        clock.advance(step);
        const tagOnly = (await answerQuery(ctx, params)).etag;
        expect(tagOnly).toBe(tagFor(await built(ctx, params), true));
      }
    });
  });

  it('forgets the least recently used answers beyond its byte budget', () => {
    const measurement = { eligible: true, digest: 'd' };
    const one = weightOf(csvEntry(Buffer.alloc(40), measurement));
    const cache = new AnswerCache(2 * one + 20);
    const key = (n: number) => answerKey('s', 'csv', false, { entity: String(n), startDate: '', endDate: '', limit: 1, offset: 0 });
    for (let n = 0; n < 3; n++) cache.set(key(n), csvEntry(Buffer.alloc(40, n), measurement));
    expect(cache.get(key(0))).toBeUndefined();
    const kept = cache.get(key(2))!;
    expect(answerOf(kept, 's', false, () => []).bytes().equals(Buffer.alloc(40, 2))).toBe(true);
    cache.set('too big', csvEntry(Buffer.alloc(2 * one + 21), measurement));
    expect(cache.get('too big')).toBeUndefined();
    expect(cache.get(key(1))).toBeDefined();
  });

  it('bounds many tiny answers too: each entry counts a fixed cost besides its bytes', () => {
    const measurement = { eligible: true, digest: 'd' };
    const cache = new AnswerCache(1024 * 1024);
    const key = (n: number) => answerKey('s', 'json', false, { entity: `e${n}`, startDate: '', endDate: '', limit: 1, offset: 0 });
    for (let n = 0; n < 5000; n++) cache.set(key(n), jsonEntry({ a: n }, { b: 1 }, [{ id: 'x', cache: {} }], 'live', measurement));
    let kept = 0;
    for (let n = 0; n < 5000; n++) if (cache.get(key(n)) !== undefined) kept++;
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(1024 * 1024 / 2048);
  });

  it('keeps every buffer in memory of its own, never a view that holds a shared slab', () => {
    const measurement = { eligible: true, digest: 'd' };
    const owns = (b: Buffer) => b.byteOffset === 0 && b.buffer.byteLength === b.length;
    // Small Buffers come from Node's shared pool: a view would keep its 8 KiB slab alive.
    const pooled = Buffer.from('a,b\n1,2\n');
    expect(owns(pooled)).toBe(false);
    const csv = csvEntry(pooled, measurement);
    expect(csv.kind === 'fixed' && owns(csv.tagged.bytes)).toBe(true);
    const live = jsonEntry({ a: 1 }, { b: 2 }, [{ id: 'x', cache: {} }, { id: 'y', cache: {} }], 'live', measurement);
    if (live.kind !== 'live') throw new Error('expected a live entry');
    for (const b of [live.head, live.tail, ...live.joints]) expect(owns(b)).toBe(true);
    const answer = answerOf(live, 's', false, () => [{ age: 1 }, { age: 2 }]);
    expect(owns(answer.bytes())).toBe(true);
    expect(live.last && owns(live.last.caches)).toBe(true);
  });

  it('keys answers by snapshot, format, pinning and every filter and paging parameter', () => {
    const base = { entity: 'usd', startDate: '2026-09-01', endDate: '2026-09-30', limit: 5, offset: 0 };
    const keys = [
      answerKey('a', 'json', false, base),
      answerKey('b', 'json', false, base),
      answerKey('a', 'json', true, base),
      answerKey('a', 'csv', false, base),
      answerKey('a', 'json', false, { ...base, entity: 'USD' }),
      answerKey('a', 'json', false, { ...base, startDate: '' }),
      answerKey('a', 'json', false, { ...base, endDate: '' }),
      answerKey('a', 'json', false, { ...base, limit: 6 }),
      answerKey('a', 'json', false, { ...base, offset: 5 }),
      // A separator inside a value cannot make two parameter sets one key.
      answerKey('a', 'json', false, { ...base, entity: 'usd","2026-09-01' }),
    ];
    expect(new Set(keys).size).toBe(keys.length);
    // CSV bodies carry no source ages: pinned or not, one entry.
    expect(answerKey('a', 'csv', true, base)).toBe(answerKey('a', 'csv', false, base));
  });
});

for (const backend of backends) {
  describe(`answer cache over snapshots on ${backend.name}`, () => {
    let opened: Awaited<ReturnType<typeof backend.open>>;
    let storage: Storage;
    let server: SourceServer;
    let clock: TestClock;
    let ctx: DataContext;

    beforeEach(async () => {
      opened = await backend.open();
      storage = opened.storage;
      server = await startSourceServer();
      clock = testClock('2026-11-19T12:00:00Z');
      serveJson(server, 'money-market', DOCUMENTS[0]);
      ctx = makeContext(storage, liveConfig(server), clock);
    });
    afterEach(async () => {
      await server.close();
      await opened.cleanup();
    });

    it('answers the new snapshot, not the cached one, once the source changed', async () => {
      const params = validateQuery({ dataset: 'money_markets' });
      const before = await answerQuery(ctx, params);
      clock.advance(30);
      serveJson(server, 'money-market', DOCUMENTS[1]);
      // Still fresh (60 s): the same snapshot, as the freshness cache decides.
      expect((await answerQuery(ctx, params)).snapshotId).toBe(before.snapshotId);
      clock.advance(31);
      const after = await expectSameAsBuilt(ctx, params);
      expect(after.snapshotId).not.toBe(before.snapshotId);
      expect(JSON.parse(after.bytes().toString()).results.map((r: { entity_id: string }) => r.entity_id)).toEqual(['US-USD', 'CH-CHF']);
      // The old snapshot stays answerable by id, with its own rows.
      const pinned = validateQuery({ dataset: 'money_markets', snapshot: before.snapshotId });
      expect((await expectSameAsBuilt(ctx, pinned)).snapshotId).toBe(before.snapshotId);
    });

    it('refuses a cached pinned answer once the retention sweep removed its snapshot', async () => {
      const first = await answerQuery(ctx, validateQuery({ dataset: 'money_markets' }));
      const pinned = validateQuery({ dataset: 'money_markets', snapshot: first.snapshotId });
      expect((await answerQuery(ctx, pinned)).snapshotId).toBe(first.snapshotId);
      clock.advance(91 * 86400);
      expect((await sweep(ctx)).snapshots_removed).toBe(1);
      expect(await refusal(answerQuery(ctx, pinned))).toMatchObject({ code: 'snapshot_not_stored' });
    });

    it('refuses a pinned id on another instance once this one swept it, whatever that instance cached', async () => {
      const other = makeContext(await opened.openAnother(), liveConfig(server), clock);
      const first = await answerQuery(ctx, validateQuery({ dataset: 'money_markets' }));
      const pinned = validateQuery({ dataset: 'money_markets', snapshot: first.snapshotId });
      const there = await answerQuery(other, pinned);
      expect(there.bytes().equals((await answerQuery(ctx, pinned)).bytes())).toBe(true);
      clock.advance(91 * 86400);
      await sweep(ctx);
      expect(await refusal(answerQuery(other, pinned))).toMatchObject({ code: 'snapshot_not_stored' });
    });
  });
}
