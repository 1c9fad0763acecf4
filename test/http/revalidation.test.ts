// Revalidations answered ahead of the router (src/http/revalidation.ts): what a client gets
// must be what the routed request gets — same status, same headers in the same order, same
// usage counts — and anything the fast answer cannot vouch for must reach the router.
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import fc from 'fast-check';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flushAnonymousCounts } from '../../src/applications/anonymous-counts.js';
import { captureOnce } from '../../src/funding/capture.js';
import { SWEEP_PROOF_US } from '../../src/data/snapshots.js';
import { Revalidation, type RememberedAnswer } from '../../src/http/revalidation.js';
import { movableClock } from '../applications/support.js';
import { liveConfig, testClock } from '../funding/support.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { portOf } from '../helpers/raw-http.js';

interface Answer {
  status: number;
  /** Raw header pairs in wire order, without the ones Node adds per connection. */
  headers: string[];
  body: string;
}

const PER_CONNECTION = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

function withoutConnectionHeaders(raw: readonly string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < raw.length; i += 2) if (!PER_CONNECTION.has(raw[i].toLowerCase())) kept.push(`${raw[i].toLowerCase()}: ${raw[i + 1]}`);
  return kept;
}

/** One request on its own connection; node:http adds only Host (and Connection) to these headers. */
function send(port: number, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port, path, method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: withoutConnectionHeaders(res.rawHeaders), body: Buffer.concat(chunks).toString() }));
    });
    request.on('error', reject);
    request.end();
  });
}

function rawRequest(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('latin1')));
    socket.on('error', reject);
    socket.write(text);
  });
}

describe('revalidations of a pinned query', () => {
  let test: TestApp;
  let port: number;
  let pinned: string;
  let etag: string;
  const clock = movableClock('2026-11-20T10:00:00Z');

  beforeAll(async () => {
    test = await makeTestApp({ mode: 'sample' }, { clock });
    await test.app.listen({ host: '127.0.0.1', port: 0 });
    port = portOf(test.app);
    const current = JSON.parse((await send(port, '/api/v1/query?dataset=money_market_history&limit=3')).body) as { snapshot_id: string };
    pinned = `/api/v1/query?dataset=money_market_history&limit=3&snapshot=${current.snapshot_id}`;
    const first = await send(port, pinned);
    expect(first.status).toBe(200);
    etag = first.headers.find((h) => h.startsWith('etag: '))!.slice('etag: '.length);
  });
  afterAll(async () => test.close());

  const answered = () => test.app.revalidation.answered;

  it('gets the router\'s own 304, header for header, from the second revalidation on', async () => {
    for (const path of [pinned, `${pinned}&format=csv`]) {
      const tag = (await send(port, path)).headers.find((h) => h.startsWith('etag: '))!.slice(6);
      const before = answered();
      const routed = await send(port, path, { 'if-none-match': tag, 'user-agent': 'probe/1' });
      // The routed 200 above already recorded the answer: this one did not reach the router.
      expect(answered()).toBe(before + 1);
      const inject = await test.app.inject({ method: 'GET', url: path, headers: { 'if-none-match': tag, 'user-agent': 'probe/1' } });
      expect(routed.status).toBe(304);
      expect(inject.statusCode).toBe(304);
      expect(routed.headers).toEqual(withoutConnectionHeaders(inject.raw.res.getHeaderNames().flatMap((n) => [n, String(inject.headers[n])])));
      expect(routed.headers.join('\n')).toContain('x-evidence-mode: sample');
      expect(routed.body).toBe('');
    }
  });

  it('counts every revalidation it answers as the router counts a 304', async () => {
    await flushAnonymousCounts(test.storage);
    const count = async () => {
      await flushAnonymousCounts(test.storage);
      const row = await test.storage.db.selectFrom('aggregates').select('count')
        .where('outcome', '=', 'data_query_not_modified').where('traffic_class', '=', 'anonymous').executeTakeFirst();
      return Number(row?.count ?? 0);
    };
    const before = await count();
    const answeredBefore = answered();
    for (let i = 0; i < 5; i++) expect((await send(port, pinned, { 'if-none-match': etag })).status).toBe(304);
    expect(answered()).toBe(answeredBefore + 5);
    expect(await count()).toBe(before + 5);
  });

  it('sends to the router every request it cannot vouch for', async () => {
    const cases: [string, () => Promise<Answer | string>][] = [
      ['HEAD', () => send(port, pinned, { 'if-none-match': etag }, 'HEAD')],
      ['a key', () => send(port, pinned, { 'if-none-match': etag, authorization: 'Bearer fe_notakeyatall' })],
      ['an allowed origin', () => send(port, pinned, { 'if-none-match': etag, origin: 'https://pro.openbb.co' })],
      ['a traffic class', () => send(port, pinned, { 'if-none-match': etag, 'x-traffic-class': 'synthetic' })],
      ['a weak form of the tag', () => send(port, pinned, { 'if-none-match': `W/${etag}` })],
      ['a list of tags', () => send(port, pinned, { 'if-none-match': `"x", ${etag}` })],
      ['another tag', () => send(port, pinned, { 'if-none-match': '"0"' })],
      ['no tag', () => send(port, pinned)],
      ['long headers', () => send(port, pinned, { 'if-none-match': etag, 'user-agent': 'u'.repeat(5000) })],
      ['an unrouted spelling', () => send(port, `${pinned}&limit=3`, { 'if-none-match': etag })],
      ['HTTP/1.0', () => rawRequest(port, `GET ${pinned} HTTP/1.0\r\nHost: x\r\nIf-None-Match: ${etag}\r\n\r\n`)],
      ['two Host headers', () => rawRequest(port, `GET ${pinned} HTTP/1.1\r\nHost: x\r\nHost: y\r\nIf-None-Match: ${etag}\r\nConnection: close\r\n\r\n`)],
    ];
    for (const [name, request] of cases) {
      const before = answered();
      const result = await request();
      expect(answered(), name).toBe(before);
      if (typeof result === 'string') expect(result, name).toMatch(/^HTTP\/1\.[01] (304|400) /);
    }
    // The key is not valid: only the router can say so.
    const keyed = await send(port, pinned, { 'if-none-match': etag, authorization: 'Bearer fe_notakeyatall' });
    expect(keyed.headers).toContain('x-financial-evidence-measurement: invalid_measurement_key');
  });

  it('gives any request the answer the router gives it (property)', async () => {
    const csvTag = (await send(port, `${pinned}&format=csv`)).headers.find((h) => h.startsWith('etag: '))!.slice(6);
    // Mostly absent, so that a good share of the requests are ones answered ahead of the router.
    const rarely = <T>(values: T[]) => fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constantFrom(...values) });
    const header = fc.record({
      'if-none-match': fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom(etag, csvTag) },
        { weight: 1, arbitrary: fc.constantFrom(undefined, `W/${etag}`, '"0"', '*', `"0", ${etag}`) },
      ),
      'user-agent': rarely(['a', 'probe/2']),
      accept: rarely(['*/*', 'application/json']),
      origin: rarely(['https://pro.openbb.co', 'https://elsewhere.example']),
      'x-service-traffic-class': rarely(['internal', 'synthetic', 'user']),
      'cache-control': rarely(['no-cache']),
    });
    const path = fc.constantFrom(pinned, `${pinned}&format=csv`, '/api/v1/query?dataset=money_market_history&limit=3');
    const before = answered();
    await fc.assert(fc.asyncProperty(path, header, async (url, given) => {
      const headers = Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)) as Record<string, string>;
      const viaServer = await send(port, url, headers);
      const viaRouter = await test.app.inject({ method: 'GET', url, headers });
      expect(viaServer.status).toBe(viaRouter.statusCode);
      expect(viaServer.body).toBe(viaRouter.body);
      const routedHeaders = withoutConnectionHeaders(Object.entries(viaRouter.headers).flatMap(([n, v]) => [n, String(v)]));
      // The unpinned answer reports the source copies' age now: its tag may move between the two.
      const moving = url.includes('snapshot=') ? [] : ['etag: '];
      const comparable = (list: string[]) => list.filter((h) => !moving.some((m) => h.startsWith(m)) && !h.startsWith('content-length: '));
      expect(comparable(viaServer.headers)).toEqual(comparable(routedHeaders));
    }), { numRuns: 100 });
    // Some of those requests were answered ahead of the router (the comparison means something).
    expect(answered()).toBeGreaterThan(before);
  });

  it('leaves a pinned answer to the router once a sweep may have removed its snapshot', async () => {
    expect((await send(port, pinned, { 'if-none-match': etag })).status).toBe(304);
    const before = answered();
    clock.set(new Date(Date.parse('2026-11-20T10:00:00Z') + SWEEP_PROOF_US / 1000 + 1000).toISOString().replace(/\.\d{3}Z$/, 'Z'));
    // The router asks the store (the snapshot is still there) and answers; the fast answer may not.
    expect((await send(port, pinned, { 'if-none-match': etag })).status).toBe(304);
    expect((await send(port, pinned, { 'if-none-match': etag })).status).toBe(304);
    expect(answered()).toBe(before);
  });
});

describe('revalidations of the current funding packet', () => {
  let test: TestApp;
  let port: number;

  beforeAll(async () => {
    const clock = testClock('2026-11-20T15:30:00Z');
    const offline = liveConfig('http://127.0.0.1:9', { mode: 'sample' });
    test = await makeTestApp({ mode: 'sample', publisherBases: offline.publisherBases }, { clock });
    const result = await captureOnce({ storage: test.storage, config: offline, clock });
    if (!result.ran || result.attempt.packet_id === null) throw new Error('the sample capture made no packet');
    await test.app.listen({ host: '127.0.0.1', port: 0 });
    port = portOf(test.app);
  });
  afterAll(async () => test.close());

  it('gets the router\'s own 304, header for header, at every mount of the route', async () => {
    for (const path of ['/v1/funding/latest', '/funding-evidence/v1/funding/latest']) {
      const first = await send(port, path);
      expect(first.status).toBe(200);
      const tag = first.headers.find((h) => h.startsWith('etag: '))!.slice(6);
      const before = test.app.revalidation.answered;
      const fast = await send(port, path, { 'if-none-match': tag });
      expect(test.app.revalidation.answered).toBe(before + 1);
      const routed = await test.app.inject({ method: 'GET', url: path, headers: { 'if-none-match': tag } });
      expect(fast.status).toBe(304);
      expect(routed.statusCode).toBe(304);
      // The check instant follows the clock, which moves between the two.
      const instantless = (list: string[]) => list.map((h) => h.replace(/^(x-evidence-checked-at: ).*/, '$1…'));
      const routedHeaders = withoutConnectionHeaders(Object.entries(routed.headers).flatMap(([n, v]) => [n, String(v)]));
      expect(instantless(fast.headers)).toEqual(instantless(routedHeaders));
      expect(fast.headers.join('\n')).toMatch(/x-evidence-checked-at: \d{4}-\d{2}-\d{2}T[\d:.]+\+00:00\nx-usage-recorded: false/);
    }
  });

  it('sends the router\'s own 200, header for header and byte for byte, to an anonymous read without a tag', async () => {
    for (const path of ['/v1/funding/latest', '/funding-evidence/v1/funding/latest']) {
      await send(port, path);
      const before = test.app.revalidation.served;
      const fast = await send(port, path, { accept: 'application/json' });
      expect(test.app.revalidation.served).toBe(before + 1);
      const routed = await test.app.inject({ method: 'GET', url: path, headers: { accept: 'application/json' } });
      expect(fast.status).toBe(200);
      expect(routed.statusCode).toBe(200);
      expect(fast.body).toBe(routed.body);
      const instantless = (list: string[]) => list.map((h) => h.replace(/^(x-evidence-checked-at: ).*/, '$1…'));
      const routedHeaders = withoutConnectionHeaders(Object.entries(routed.headers).flatMap(([n, v]) => [n, String(v)]));
      expect(instantless(fast.headers)).toEqual(instantless(routedHeaders));
    }
  });

  it('counts each read it sends as the router counts a 200, and each revalidation as a 304', async () => {
    const count = async (outcome: 'data_response' | 'not_modified') => {
      await flushAnonymousCounts(test.storage);
      const row = await test.storage.db.selectFrom('aggregates').select(({ fn }) => fn.sum<number>('count').as('n'))
        .where('outcome', '=', outcome).where('traffic_class', '=', 'anonymous').executeTakeFirst();
      return Number(row?.n ?? 0);
    };
    const path = '/v1/funding/latest';
    const tag = (await send(port, path)).headers.find((h) => h.startsWith('etag: '))!.slice(6);
    const [data, notModified] = [await count('data_response'), await count('not_modified')];
    const [served, answered] = [test.app.revalidation.served, test.app.revalidation.answered];
    for (let i = 0; i < 3; i++) expect((await send(port, path)).status).toBe(200);
    for (let i = 0; i < 2; i++) expect((await send(port, path, { 'if-none-match': tag })).status).toBe(304);
    expect([test.app.revalidation.served - served, test.app.revalidation.answered - answered]).toEqual([3, 2]);
    expect([await count('data_response') - data, await count('not_modified') - notModified]).toEqual([3, 2]);
  });

  it('leaves to the router every read it cannot vouch for: keyed, cross-origin, excluded, HEAD, another tag', async () => {
    const path = '/v1/funding/latest';
    await send(port, path);
    const served = test.app.revalidation.served;
    const answers = [
      await send(port, path, { authorization: 'Bearer fe_notakey' }),
      await send(port, path, { origin: 'https://pro.openbb.co' }),
      await send(port, path, { 'x-service-traffic-class': 'synthetic' }),
      await send(port, path, {}, 'HEAD'),
      await send(port, path, { 'if-none-match': '"0"' }),
    ];
    expect(answers.map((a) => a.status)).toEqual([401, 200, 200, 200, 200]);
    expect(answers[1].headers).toContain('access-control-allow-origin: https://pro.openbb.co');
    expect(test.app.revalidation.served).toBe(served);
  });
});

describe('Revalidation', () => {
  const remembered = (etag: string, measure: () => string | undefined = () => 'counted'): RememberedAnswer => ({
    etag,
    headers: [['etag', etag], ['cache-control', 'no-cache']],
    revalidate: () => {
      const measured = measure();
      return measured === undefined ? undefined : ['x-measured', measured, 'content-type', 'text/plain'];
    },
  });

  async function serve(revalidation: Revalidation): Promise<{ port: number; routed: () => number; close: () => Promise<void> }> {
    let routed = 0;
    const server = http.createServer((req, res) => {
      if (revalidation.tryAnswer(req, res)) return;
      routed += 1;
      res.writeHead(200).end('routed');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    return { port, routed: () => routed, close: () => new Promise((resolve) => server.close(() => resolve())) };
  }

  it('writes the security headers, the recorded headers and then what revalidate gives, in that order', async () => {
    const revalidation = new Revalidation({ security: { 'x-content-type-options': 'nosniff' }, log: pino({ level: 'silent' }), refusing: () => false });
    revalidation.remember('/a', remembered('"t"'));
    const server = await serve(revalidation);
    try {
      const answer = await send(server.port, '/a', { 'if-none-match': '"t"' });
      expect(answer.status).toBe(304);
      expect(answer.headers).toEqual(['x-content-type-options: nosniff', 'etag: "t"', 'cache-control: no-cache', 'x-measured: counted', 'content-type: text/plain']);
    } finally {
      await server.close();
    }
  });

  it('lets the router answer while the instance refuses, and whenever revalidate says only the route can', async () => {
    let refusing = true;
    let measured: string | undefined = 'counted';
    const revalidation = new Revalidation({ security: {}, log: pino({ level: 'silent' }), refusing: () => refusing });
    revalidation.remember('/a', remembered('"t"', () => measured));
    const server = await serve(revalidation);
    try {
      expect((await send(server.port, '/a', { 'if-none-match': '"t"' })).status).toBe(200);
      refusing = false;
      measured = undefined;
      expect((await send(server.port, '/a', { 'if-none-match': '"t"' })).status).toBe(200);
      measured = 'counted';
      expect((await send(server.port, '/a', { 'if-none-match': '"t"' })).status).toBe(304);
      expect(server.routed()).toBe(2);
    } finally {
      await server.close();
    }
  });

  it('routes a revalidation whose checks fail with an exception, and keeps serving', async () => {
    let fail = true;
    const revalidation = new Revalidation({ security: {}, log: pino({ level: 'silent' }), refusing: () => false });
    revalidation.remember('/a', remembered('"t"', () => {
      if (fail) throw new Error('store closed');
      return 'counted';
    }));
    const server = await serve(revalidation);
    try {
      expect((await send(server.port, '/a', { 'if-none-match': '"t"' })).status).toBe(200);
      fail = false;
      expect((await send(server.port, '/a', { 'if-none-match': '"t"' })).status).toBe(304);
      expect(server.routed()).toBe(1);
    } finally {
      await server.close();
    }
  });

  it('keeps at most maxEntries answers, dropping the oldest recorded', async () => {
    const revalidation = new Revalidation({ security: {}, log: pino({ level: 'silent' }), refusing: () => false, maxEntries: 2 });
    for (const url of ['/a', '/b', '/c']) revalidation.remember(url, remembered('"t"'));
    const server = await serve(revalidation);
    try {
      const statuses = [];
      for (const url of ['/a', '/b', '/c']) statuses.push((await send(server.port, url, { 'if-none-match': '"t"' })).status);
      expect(statuses).toEqual([200, 304, 304]);
    } finally {
      await server.close();
    }
  });

  it('logs what Fastify logs for a request, with the path redacted and no query', async () => {
    const lines: Record<string, unknown>[] = [];
    const stream = new Writable({ write(chunk, _e, done) { lines.push(JSON.parse(String(chunk)) as Record<string, unknown>); done(); } });
    const revalidation = new Revalidation({ security: {}, log: pino({ level: 'info' }, stream), refusing: () => false });
    const url = '/x/fe_Zk9xQ2VzdFRva2VuLW5vdC1hLXJlYWwta2V5LTEyMzQ1?q=1';
    revalidation.remember(url, remembered('"t"'));
    const server = await serve(revalidation);
    try {
      expect((await send(server.port, url, { 'if-none-match': '"t"' })).status).toBe(304);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(lines.map((l) => l.msg)).toEqual(['incoming request', 'request completed']);
      expect(lines[0].req).toEqual({ method: 'GET', url: '/x/[redacted]', id: lines[0].reqId });
      expect(lines[1]).toMatchObject({ reqId: lines[0].reqId, res: { statusCode: 304 } });
      expect(typeof lines[1].responseTime).toBe('number');
    } finally {
      await server.close();
    }
  });
});
