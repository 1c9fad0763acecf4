// Group A receives bodies into one buffer of Content-Length (src/http/analysis/body.ts):
// over real sockets, every framing — whole, chunked, split into arbitrary pieces, over the
// limit declared or sent, shorter than declared — gets the same answer as Fastify's own
// buffer parser, and an accepted body holds exactly the bytes sent, in a buffer that owns
// its whole ArrayBuffer (so the pool can transfer it instead of copying).
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import Fastify, { type FastifyInstance } from 'fastify';
import { receiveBody } from '../../src/http/analysis/body.js';
import { sha256Hex } from '../../src/core/hash.js';

const LIMIT = 4096;
const seenChunks = new WeakMap<object, Buffer[]>();

async function serve(custom: boolean): Promise<{ app: FastifyInstance; port: number }> {
  const app = Fastify({ bodyLimit: LIMIT });
  app.removeAllContentTypeParsers();
  if (custom) {
    app.addContentTypeParser('application/json', (request, payload, done) => {
      receiveBody(request, payload, request.routeOptions.bodyLimit, (error, body) => done(error, body));
      // Heard after receiveBody's own listener: what each chunk is once it has been copied.
      if (request.url === '/chunks') {
        const seen: Buffer[] = [];
        seenChunks.set(request.raw, seen);
        payload.on('data', (chunk: Buffer) => seen.push(chunk));
      }
    });
  } else {
    app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  }
  const answer = (body: Buffer) => {
    // The custom path must hand over a buffer that owns its whole ArrayBuffer.
    if (custom && body.length > 0 && !(body.byteOffset === 0 && body.byteLength === body.buffer.byteLength)) throw new Error('body is a slice of a shared buffer');
    return { length: body.length, sha: sha256Hex(body) };
  };
  app.post('/', async (request) => answer(request.body as Buffer));
  app.post('/chunks', async (request) => ({ ...answer(request.body as Buffer), chunks: seenChunks.get(request.raw)?.map((c) => c.byteLength) }));
  app.post('/small', { bodyLimit: 100 }, async (request) => answer(request.body as Buffer));
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  return { app, port: typeof address === 'object' && address ? address.port : 0 };
}

/** Writes `pieces` one by one and returns everything the server sent until it closed or went quiet. */
function exchange(port: number, pieces: Buffer[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const got: Buffer[] = [];
    let timer: NodeJS.Timeout | undefined;
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(Buffer.concat(got).toString('latin1').replace(/^date: .*\r\n/im, ''));
    };
    socket.on('data', (d: Buffer) => {
      got.push(d);
      clearTimeout(timer);
      timer = setTimeout(finish, 150);
    });
    socket.on('end', finish);
    socket.on('error', reject);
    socket.on('connect', () => {
      void (async () => {
        for (const piece of pieces) {
          socket.write(piece);
          await new Promise((r) => setImmediate(r));
        }
        timer = setTimeout(finish, 400);
      })();
    });
  });
}

const head = (path: string, headers: string) => Buffer.from(`POST ${path} HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n${headers}\r\n`, 'latin1');
const chunked = (parts: Buffer[]) => Buffer.concat([...parts.flatMap((p) => [Buffer.from(`${p.length.toString(16)}\r\n`), p, Buffer.from('\r\n')]), Buffer.from('0\r\n\r\n')]);

/** Splits `bytes` at the given cut points. */
function split(bytes: Buffer, cuts: number[]): Buffer[] {
  const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Buffer[] = [];
  let from = 0;
  for (const c of [...at, bytes.length]) {
    if (c > from) out.push(bytes.subarray(from, c));
    from = c;
  }
  return out;
}

describe('receiving an analysis body into one buffer', () => {
  let general: { app: FastifyInstance; port: number };
  let fast: { app: FastifyInstance; port: number };
  beforeAll(async () => {
    [general, fast] = await Promise.all([serve(false), serve(true)]);
  });
  afterAll(async () => {
    await Promise.all([general.app.close(), fast.app.close()]);
  });

  const both = async (pieces: Buffer[]) => {
    const [a, b] = await Promise.all([exchange(general.port, pieces), exchange(fast.port, pieces)]);
    return { general: a, fast: b };
  };

  it('answers every framing as Fastify’s buffer parser does, over real sockets', async () => {
    const body = Buffer.from(JSON.stringify({ a: 'x'.repeat(300) }));
    const cases: Buffer[][] = [
      [head('/', `content-length: ${body.length}\r\n`), body],
      [head('/', 'transfer-encoding: chunked\r\n'), chunked([body.subarray(0, 10), body.subarray(10)])],
      [head('/', `content-length: ${LIMIT + 1}\r\n`), Buffer.alloc(LIMIT + 1, 0x20)],
      [head('/small', `content-length: ${body.length}\r\n`), body],
      [head('/small', 'transfer-encoding: chunked\r\n'), chunked([body])],
      [head('/', 'transfer-encoding: chunked\r\n'), chunked([Buffer.alloc(LIMIT, 0x20), Buffer.from(' ')])],
      [head('/', 'content-length: 0\r\n')],
      [head('/', `content-length: ${body.length + 5}\r\n`), body],
    ];
    for (const pieces of cases) {
      const { general: a, fast: b } = await both(pieces);
      expect(b, pieces[0].toString('latin1')).toBe(a);
    }
  });

  it('frees every socket chunk once copied (Node hands over chunks nobody else holds), and keeps the bytes exact', async () => {
    for (const framing of ['length', 'chunked'] as const) {
      const body = Buffer.from(JSON.stringify({ a: 'y'.repeat(3000) }));
      const pieces = framing === 'length'
        ? [head('/chunks', `content-length: ${body.length}\r\n`), body.subarray(0, 700), body.subarray(700, 2100), body.subarray(2100)]
        : [head('/chunks', 'transfer-encoding: chunked\r\n'), chunked([body.subarray(0, 1000), body.subarray(1000)])];
      const answer = await exchange(fast.port, pieces);
      expect(answer, framing).toContain(`"sha":"${sha256Hex(body)}"`);
      const chunks = JSON.parse(answer.slice(answer.indexOf('{'))) as { chunks: number[] };
      expect(chunks.chunks.length, framing).toBeGreaterThan(1);
      expect(chunks.chunks.every((n) => n === 0), `${framing}: ${chunks.chunks.join(',')}`).toBe(true);
    }
  });

  it('keeps exactly the bytes sent however the socket splits them, in a buffer of its own', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 1, maxLength: 3000 }), fc.array(fc.nat(), { maxLength: 6 }), async (raw, cuts) => {
        const body = Buffer.from(raw);
        const request = Buffer.concat([head('/', `content-length: ${body.length}\r\n`), body]);
        const { general: a, fast: b } = await both(split(request, cuts));
        expect(b).toBe(a);
        expect(b).toContain(`"sha":"${sha256Hex(body)}"`);
      }),
      { numRuns: 40 },
    );
  });
});
