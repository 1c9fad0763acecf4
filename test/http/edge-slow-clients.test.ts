// Many slow clients at once cannot take the service down: while 200 connections trickle
// their headers or bodies a byte at a time, ordinary requests are answered, and every slow
// connection is cut with 408 at its configured deadline instead of being held for as long
// as the client keeps sending.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseStrictJson } from '../../src/core/json.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { exchange, parseResponses, portOf } from '../helpers/raw-http.js';

const TIMEOUTS = { headersTimeout: 1000, requestTimeout: 2000, keepAliveTimeout: 500 };
const SLOW_CLIENTS = 200;
/** How long a slow client would keep sending if nobody stopped it. */
const TRICKLE_MS = 20_000;

let t: TestApp;
let port: number;
beforeAll(async () => {
  t = await makeTestApp(TIMEOUTS);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = portOf(t.app);
});
afterAll(async () => t.close());

describe('slow clients', () => {
  it(`${SLOW_CLIENTS} connections trickling headers or bodies are all cut at their deadline while other requests are answered`, async () => {
    const host = 'Host: slow.test\r\n';
    const pauseMs = 100;
    const pieces = TRICKLE_MS / pauseMs;
    const slowHeaders = () => exchange(port, [`GET /healthz HTTP/1.1\r\n${host}`, ...Array.from({ length: pieces }, () => 'X')], { pauseMs, limitMs: TRICKLE_MS });
    const slowBody = () =>
      exchange(port, [`POST /v1/applications HTTP/1.1\r\n${host}Content-Type: application/json\r\nContent-Length: ${pieces + 1}\r\n\r\n`, ...Array.from({ length: pieces }, () => ' ')], { pauseMs, limitMs: TRICKLE_MS });
    const slow = Array.from({ length: SLOW_CLIENTS }, (_, i) => (i % 2 === 0 ? slowHeaders() : slowBody()));

    // With every slow connection open and sending, ordinary requests still get their answers.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const ordinary = await Promise.all(Array.from({ length: 20 }, () => fetch(`http://127.0.0.1:${port}/healthz`)));
    expect(ordinary.map((r) => r.status)).toEqual(Array(20).fill(200));

    const cut = await Promise.all(slow);
    for (const got of cut) {
      // Closed by the server long before the client would have stopped sending.
      expect(got.closed).toBe(true);
      expect(got.elapsedMs).toBeLessThan(TRICKLE_MS / 2);
      const [res] = parseResponses(got.bytes);
      expect(res.status).toBe(408);
      expect((parseStrictJson(res.body) as { code: string }).code).toBe('request_timeout');
    }
    // Headers were cut at the headers deadline, bodies at the request deadline: neither earlier.
    expect(Math.min(...cut.filter((_, i) => i % 2 === 0).map((g) => g.elapsedMs))).toBeGreaterThanOrEqual(TIMEOUTS.headersTimeout - 50);
    expect(Math.min(...cut.filter((_, i) => i % 2 === 1).map((g) => g.elapsedMs))).toBeGreaterThanOrEqual(TIMEOUTS.requestTimeout - 50);
    // And the service is still itself afterwards.
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
  }, 60_000);
});
