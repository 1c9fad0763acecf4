import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { JobHttp, retryAfterMs } from '../../../src/funding/job/http.js';
import { JobError } from '../../../src/funding/job/errors.js';

type Handler = (req: http.IncomingMessage, res: http.ServerResponse, n: number) => void;

const servers: http.Server[] = [];
async function serve(handler: Handler): Promise<string> {
  let n = 0;
  const server = http.createServer((req, res) => handler(req, res, ++n));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

function client(sleeps: number[], extra: Partial<ConstructorParameters<typeof JobHttp>[0]> = {}) {
  return new JobHttp({ headers: { 'user-agent': 'test' }, sleep: async (ms) => void sleeps.push(ms), ...extra });
}

async function failure(p: Promise<unknown>): Promise<JobError> {
  try {
    await p;
  } catch (error) {
    if (error instanceof JobError) return error;
    throw error;
  }
  throw new Error('expected a JobError');
}

describe('the job HTTP layer', () => {
  it('reads a numeric Retry-After, capped at 20 s; anything else is not a number', () => {
    expect(retryAfterMs('3')).toBe(3000);
    expect(retryAfterMs('120')).toBe(20_000);
    expect(retryAfterMs('Wed, 21 Oct 2026 07:28:00 GMT')).toBeNull();
    expect(retryAfterMs(undefined)).toBeNull();
    expect(retryAfterMs('-1')).toBeNull();
  });

  it('retries 503 with the advised wait and returns the success', async () => {
    const base = await serve((_req, res, n) => {
      if (n < 3) res.writeHead(503, { 'retry-after': n === 1 ? '7' : '99' }).end('busy');
      else res.writeHead(200).end('ok');
    });
    const sleeps: number[] = [];
    const r = await client(sleeps).get(`${base}/x`);
    expect(r.status).toBe(200);
    expect(r.body.toString()).toBe('ok');
    expect(sleeps).toEqual([7000, 20_000]);
  });

  it('waits 2 s then 4 s without a numeric Retry-After and returns the third answer as it is', async () => {
    let calls = 0;
    const base = await serve((_req, res) => {
      calls++;
      res.writeHead(calls === 1 ? 429 : calls === 2 ? 502 : 504).end();
    });
    const sleeps: number[] = [];
    const r = await client(sleeps).get(`${base}/x`);
    expect(r.status).toBe(504);
    expect(calls).toBe(3);
    expect(sleeps).toEqual([2000, 4000]);
  });

  it('does not retry other statuses', async () => {
    let calls = 0;
    const base = await serve((_req, res) => {
      calls++;
      res.writeHead(500).end();
    });
    const sleeps: number[] = [];
    expect((await client(sleeps).get(`${base}/x`)).status).toBe(500);
    expect(calls).toBe(1);
    expect(sleeps).toEqual([]);
  });

  it('does not follow redirects', async () => {
    let calls = 0;
    const base = await serve((req, res) => {
      calls++;
      if (req.url === '/x') res.writeHead(302, { location: '/y' }).end();
      else res.writeHead(200).end('followed');
    });
    const r = await client([]).get(`${base}/x`);
    expect(r.status).toBe(302);
    expect(calls).toBe(1);
  });

  it('refuses a body over 256 KiB without retrying (declared or streamed)', async () => {
    let calls = 0;
    const base = await serve((req, res) => {
      calls++;
      if (req.url === '/declared') res.writeHead(200, { 'content-length': String(256 * 1024 + 1) }).end(Buffer.alloc(256 * 1024 + 1));
      else {
        res.writeHead(200); // chunked, no length
        res.write(Buffer.alloc(200 * 1024));
        res.end(Buffer.alloc(100 * 1024));
      }
    });
    const sleeps: number[] = [];
    expect((await failure(client(sleeps).get(`${base}/declared`))).failure).toBe('response_too_large');
    expect((await failure(client(sleeps).get(`${base}/streamed`))).failure).toBe('response_too_large');
    expect(calls).toBe(2);
    expect(sleeps).toEqual([]);
    const exact = await serve((_req, res) => res.writeHead(200).end(Buffer.alloc(256 * 1024)));
    expect((await client([]).get(`${exact}/ok`)).body.length).toBe(256 * 1024);
  });

  it('retries transport failures and timeouts three times, then fails as transport', async () => {
    let calls = 0;
    const base = await serve((req) => {
      calls++;
      req.socket.destroy();
    });
    const sleeps: number[] = [];
    const reset = await failure(client(sleeps).get(`${base}/x`));
    expect(reset.failure).toBe('transport');
    expect(reset.message).toMatch(/failed after 3 attempts: [A-Z_]+/);
    expect(calls).toBe(3);
    expect(sleeps).toEqual([2000, 4000]);

    let slow = 0;
    const hanging = await serve(() => {
      slow++; // never answers
    });
    const waits: number[] = [];
    const timedOut = await failure(client(waits, { timeoutMs: 100 }).get(`${hanging}/x`));
    expect(timedOut.failure).toBe('transport');
    // The operator reads what happened, not a DOMException's legacy number (23).
    expect(timedOut.message).toMatch(/failed after 3 attempts: no answer within 100 ms$/);
    expect(slow).toBe(3);
    expect(waits).toEqual([2000, 4000]);
  });

  it('sends the configured headers and asks for an unencoded body', async () => {
    let seen: http.IncomingHttpHeaders = {};
    const base = await serve((req, res) => {
      seen = req.headers;
      res.writeHead(200).end();
    });
    await new JobHttp({ headers: { 'user-agent': 'Evidence-Desk-Funding-Job/1', 'x-operator-probe': 'funding-daily-job' } }).get(`${base}/x`, { 'if-none-match': '"a"' });
    expect(seen['user-agent']).toBe('Evidence-Desk-Funding-Job/1');
    expect(seen['x-operator-probe']).toBe('funding-daily-job');
    expect(seen['if-none-match']).toBe('"a"');
    expect(seen['accept-encoding']).toBe('identity');
  });
});
