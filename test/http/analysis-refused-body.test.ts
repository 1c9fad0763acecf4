// A request refused before its body is read (503 overloaded, no room on the pool) may still
// send that body: the service reads it to the end so the connection stays usable, and frees
// each chunk as it comes instead of leaving it for the collector (under overload, retried
// maximum bodies arrive faster than collections).
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { closeAnalysisPools } from '../../src/http/analysis/offload.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';

const released = vi.hoisted(() => ({ bytes: 0 }));
vi.mock('../../src/platform/release.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/platform/release.js')>();
  return {
    releaseNow: (bytes: Uint8Array) => {
      released.bytes += bytes.byteLength;
      return real.releaseNow(bytes);
    },
  };
});

const apps: TestApp[] = [];
afterAll(async () => {
  for (const t of apps) await t.close();
  await closeAnalysisPools();
});

/** Everything the server sends on `socket` until `done(text)` holds. */
function readUntil(socket: net.Socket, done: (text: string) => boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error(`no complete answer: ${JSON.stringify(text)}`)), 10_000);
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
      if (done(text)) {
        clearTimeout(timer);
        resolve(text);
      }
    });
  });
}

describe('a refused analysis body', () => {
  it('is read to its end with every chunk freed, and the connection then serves the next request', async () => {
    const t = await makeTestApp({ analysisWorkers: 1, analysisQueue: 0 });
    apps.push(t);
    const app = t.app;
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as AddressInfo;
    const head = (length: number) => `POST /v1/spectral/assess HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;
    const connect = () => new Promise<net.Socket>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => resolve(socket));
    });

    // A holds the only place on the pool with a body it has only begun to send.
    const holder = await connect();
    holder.write(head(1_000_000) + '{"series": [');
    await new Promise((resolve) => setTimeout(resolve, 100));

    // B is refused at its headers, sends its 3 MB body anyway, then a second request.
    const size = 3 * 1024 * 1024;
    const client = await connect();
    const answers = readUntil(client, (text) => /HTTP\/1\.1 200[\s\S]*"status": ?"ok"/.test(text));
    const before = released.bytes;
    client.write(head(size));
    const piece = Buffer.alloc(256 * 1024, 0x20);
    for (let sent = 0; sent < size; sent += piece.length) {
      client.write(piece);
      await new Promise((resolve) => setImmediate(resolve));
    }
    client.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    const text = await answers;
    const freed = released.bytes - before;
    client.destroy();
    holder.destroy();

    expect(text.startsWith('HTTP/1.1 503')).toBe(true);
    expect(text).toContain('"code":"overloaded"');
    expect(text.indexOf('HTTP/1.1 200')).toBeGreaterThan(0);
    // Every byte of B's body went through releaseNow (A's few bytes may add to it).
    expect(freed).toBeGreaterThanOrEqual(size);
    expect(freed).toBeLessThan(size + 64 * 1024);
  });
});
