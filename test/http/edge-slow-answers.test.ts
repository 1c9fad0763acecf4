// The connection inactivity limit cuts clients that stall, never the wait for an answer
// the client is owed: a complete request whose answer takes longer than the limit (an
// analysis queued behind others, a worker starting) still gets it, and so does a malformed
// request pipelined behind it, in order. A client that stops reading an answer is still cut,
// and one whose body stops arriving is refused with 408 (the limit may fire before Node's
// own request deadline, which is equal by default).
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseStrictJson } from '../../src/core/json.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { exchange, parseResponses, portOf } from '../helpers/raw-http.js';

// requestTimeout is also the socket inactivity limit (connectionTimeout).
const TIMEOUTS = { headersTimeout: 200, requestTimeout: 300, keepAliveTimeout: 200 };
const SLOW_ANSWER_MS = 1000;
const LARGE_ANSWER = 'x'.repeat(32 * 1024 * 1024);

let t: TestApp;
let port: number;
beforeAll(async () => {
  t = await makeTestApp(TIMEOUTS, {
    beforeReady: (app) => {
      app.get('/test/slow', async () => {
        await new Promise((resolve) => setTimeout(resolve, SLOW_ANSWER_MS));
        return { slow: true };
      });
      app.get('/test/large', async (_request, reply) => reply.type('text/plain').send(LARGE_ANSWER));
    },
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = portOf(t.app);
});
afterAll(async () => t.close());

describe('answers slower than the inactivity limit', () => {
  it('are still sent to the client that waits for them', async () => {
    const got = await exchange(port, 'GET /test/slow HTTP/1.1\r\nHost: p.test\r\nConnection: close\r\n\r\n', { limitMs: 5000 });
    const [res] = parseResponses(got.bytes);
    expect(res?.status).toBe(200);
    expect(parseStrictJson(res.body)).toEqual({ slow: true });
    expect(got.elapsedMs).toBeGreaterThanOrEqual(SLOW_ANSWER_MS - 50);
  });

  it('come before the refusal of a malformed request pipelined behind them', async () => {
    const got = await exchange(port, 'GET /test/slow HTTP/1.1\r\nHost: p.test\r\n\r\nGET / HTTP/1.1\r\nHost: p.test\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n', { limitMs: 5000 });
    expect(got.closed).toBe(true);
    const responses = parseResponses(got.bytes);
    expect(responses.map((r) => r.status)).toEqual([200, 400]);
    expect((parseStrictJson(responses[1].body) as { code: string }).code).toBe('bad_framing');
    expect(responses[1].headers.connection).toBe('close');
  });

  it('never come for a request whose body stopped arriving: that is a 408 and a close', async () => {
    for (const head of ['OPTIONS /healthz HTTP/1.0', 'OPTIONS /healthz HTTP/1.1', 'POST /v1/market/assess HTTP/1.1', 'POST /v1/applications HTTP/1.1']) {
      const got = await exchange(port, `${head}\r\nHost: p.test\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n`, { limitMs: 5000 });
      expect(got.closed, head).toBe(true);
      const [res] = parseResponses(got.bytes);
      expect(res?.status, head).toBe(408);
      expect((parseStrictJson(res.body) as { code: string }).code, head).toBe('request_timeout');
      expect(res.headers.connection, head).toBe('close');
    }
  });

  it('do not shelter a client that stops reading: it is cut at the limit', async () => {
    // The client reads nothing for well past the limit, then reads what is left: the
    // connection has ended without the whole answer.
    const received = await new Promise<{ bytes: number; ended: boolean }>((resolve) => {
      let bytes = 0;
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.write('GET /test/large HTTP/1.1\r\nHost: p.test\r\n\r\n');
        socket.pause();
        // Far past the 300 ms limit, so a busy machine still gets to cut the connection first.
        setTimeout(() => socket.resume(), 4000);
      });
      socket.on('data', (chunk: Buffer) => (bytes += chunk.length));
      socket.on('close', () => resolve({ bytes, ended: true }));
      socket.on('error', () => undefined);
      setTimeout(() => {
        socket.destroy();
        resolve({ bytes, ended: false });
      }, 15_000).unref();
    });
    expect(received.ended).toBe(true);
    expect(received.bytes).toBeLessThan(LARGE_ANSWER.length);
  });
});
