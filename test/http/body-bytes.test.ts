import { createHash } from 'node:crypto';
import net from 'node:net';
import { Readable } from 'node:stream';
import { Worker } from 'node:worker_threads';
import Fastify, { type FastifyInstance } from 'fastify';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyBytesParser } from '../../src/http/body-bytes.js';
import { transferListOf } from '../../src/platform/transfer.js';

const LIMIT = 64 * 1024;

/** The same route behind Fastify's own `parseAs: 'buffer'` reader or behind bodyBytesParser. */
async function echoApp(kind: 'fastify' | 'ours'): Promise<FastifyInstance> {
  const app = Fastify({ bodyLimit: LIMIT });
  app.removeAllContentTypeParsers();
  const accept = (bytes: Buffer, done: (error: Error | null, body?: Buffer) => void) => {
    if (bytes.length === 0) done(new Error('empty'));
    else done(null, bytes);
  };
  if (kind === 'fastify') app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_r, body, done) => accept(body as Buffer, done));
  else app.addContentTypeParser('application/json', bodyBytesParser(accept));
  const describeBody = (body: Buffer) => ({ length: body.length, sha256: createHash('sha256').update(body).digest('hex') });
  app.post('/echo', async (request) => describeBody(request.body as Buffer));
  app.post('/small', { bodyLimit: 100 }, async (request) => describeBody(request.body as Buffer));
  app.post('/owns', async (request) => {
    const body = request.body as Buffer;
    return { owns: body.byteOffset === 0 && body.byteLength === body.buffer.byteLength, transferable: transferListOf({ bytes: body }).length === 1 };
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  return app;
}

let fastify: FastifyInstance;
let ours: FastifyInstance;
beforeAll(async () => {
  [fastify, ours] = await Promise.all([echoApp('fastify'), echoApp('ours')]);
});
afterAll(async () => {
  await Promise.all([fastify.close(), ours.close()]);
});

interface Answer { status: number; body: string }

async function both(send: (app: FastifyInstance) => Promise<Answer>): Promise<[Answer, Answer]> {
  return [await send(fastify), await send(ours)];
}

const inject = (url: string, payload: Buffer | (() => Readable), headers: Record<string, string> = {}) => async (app: FastifyInstance): Promise<Answer> => {
  const res = await app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json', ...headers }, payload: typeof payload === 'function' ? payload() : payload });
  return { status: res.statusCode, body: res.body };
};

/** A raw request over a socket: the client writes `head` and `body`, then closes its side. */
const raw = (head: string, body: Buffer) => async (app: FastifyInstance): Promise<Answer> => {
  const port = (app.server.address() as net.AddressInfo).port;
  const text = await new Promise<string>((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (d: Buffer) => (received += d.toString('latin1')));
    socket.on('close', () => resolve(received));
    socket.on('error', () => resolve(received));
    socket.end(Buffer.concat([Buffer.from(head, 'latin1'), body]));
  });
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
  return { status, body: text.slice(text.indexOf('\r\n\r\n') + 4) };
};

describe('bodyBytesParser', () => {
  it('delivers the same bytes as Fastify’s buffer reader, whatever the body and its chunking', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 0, maxLength: LIMIT + 16 }), fc.integer({ min: 1, max: 9000 }), async (bytes, chunk) => {
        const body = Buffer.from(bytes);
        const sized = await both(inject('/echo', body));
        expect(sized[1]).toEqual(sized[0]);
        // Chunked: no Content-Length, so the chunks are joined.
        const chunks = () => Readable.from(Array.from({ length: Math.ceil(body.length / chunk) }, (_, i) => body.subarray(i * chunk, (i + 1) * chunk)));
        const streamed = await both(inject('/echo', chunks));
        expect(streamed[1]).toEqual(streamed[0]);
        if (body.length > 0 && body.length <= LIMIT) expect(JSON.parse(sized[1].body)).toEqual({ length: body.length, sha256: createHash('sha256').update(body).digest('hex') });
      }),
      { numRuns: 40 },
    );
  });

  it('refuses a body over the route’s limit as Fastify does, declared or received', async () => {
    const declared = await both(inject('/small', Buffer.alloc(101, 0x31)));
    expect(declared[0].status).toBe(413);
    expect(declared[1]).toEqual(declared[0]);
    const streamed = await both(inject('/small', () => Readable.from([Buffer.alloc(60, 0x31), Buffer.alloc(60, 0x31)])));
    expect(streamed[0].status).toBe(413);
    expect(streamed[1]).toEqual(streamed[0]);
  });

  it('answers a body shorter than its Content-Length as Fastify does', async () => {
    const short = await both(raw('POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 10\r\nConnection: close\r\n\r\n', Buffer.from('12345')));
    expect(short[0].status).toBe(400);
    expect(short[1]).toEqual(short[0]);
    const exact = await both(raw('POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 5\r\nConnection: close\r\n\r\n', Buffer.from('12345')));
    expect(exact[0].status).toBe(200);
    expect(exact[1]).toEqual(exact[0]);
  });

  it('gives a body with a Content-Length its own ArrayBuffer, so it can move to a worker', async () => {
    const res = await ours.inject({ method: 'POST', url: '/owns', headers: { 'content-type': 'application/json' }, payload: Buffer.from('[1,2,3]') });
    expect(res.json()).toEqual({ owns: true, transferable: true });
  });
});

describe('transferListOf', () => {
  it('moves only a `bytes` view that spans its whole ArrayBuffer', () => {
    const owned = new Uint8Array(16);
    expect(transferListOf({ bytes: owned })).toEqual([owned.buffer]);
    expect(transferListOf({ bytes: owned.subarray(1) })).toEqual([]);
    expect(transferListOf({ bytes: Buffer.from('pooled') })).toEqual([]);
    expect(transferListOf({ bytes: new Uint8Array(new SharedArrayBuffer(8)) })).toEqual([]);
    expect(transferListOf({ bytes: new Uint8Array(0) })).toEqual([]);
    expect(transferListOf({ other: owned })).toEqual([]);
    expect(transferListOf(null)).toEqual([]);
  });

  it('hands the same bytes to a worker thread, leaving the sender’s view empty', async () => {
    const worker = new Worker(
      `const { parentPort } = require('node:worker_threads'); const { createHash } = require('node:crypto');
       parentPort.on('message', (m) => parentPort.postMessage(createHash('sha256').update(m.bytes).digest('hex')));`,
      { eval: true },
    );
    try {
      const bytes = Buffer.allocUnsafeSlow(3 * 1024 * 1024).fill(0x5a);
      bytes[12345] = 1;
      const expected = createHash('sha256').update(bytes).digest('hex');
      const message = { bytes };
      const answer = new Promise((resolve) => worker.once('message', resolve));
      worker.postMessage(message, transferListOf(message));
      expect(bytes.byteLength).toBe(0);
      expect(await answer).toBe(expected);
    } finally {
      await worker.terminate();
    }
  });
});
