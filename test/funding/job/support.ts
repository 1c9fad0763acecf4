// A real evidence service for the job tests: the full app listening on 127.0.0.1, fed by
// captures from the recorded publisher documents, behind a thin proxy that logs every
// request and can alter answers in transit (a corrupt download, a 409, a redirect).

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Storage } from '../../../src/storage/storage.js';
import { captureOnce } from '../../../src/funding/capture.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import type { BackendFactory } from '../../helpers/storage.js';
import { liveConfig, startPublisherServer, testClock, type PublisherServer, type TestClock } from '../support.js';

export interface Seen {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
}

export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** Returns a replacement answer, or the upstream answer (possibly altered), or undefined to pass it on. */
export type Fault = (seen: Seen, upstream: () => Promise<Answer>) => Promise<Answer | undefined>;

export interface EvidenceServer {
  /** Base URL of the proxy in front of the real service. */
  base: string;
  app: TestApp;
  storage: Storage;
  clock: TestClock;
  publishers: PublisherServer;
  requests: Seen[];
  faults: Fault[];
  capture(): Promise<string>;
  close(): Promise<void>;
}

function forward(target: string, seen: Seen, body: Buffer): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const url = new URL(seen.path, target);
    const req = http.request(url, { method: seen.method, headers: { ...seen.headers, host: url.host } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(res.headers)) if (v !== undefined && k !== 'transfer-encoding' && k !== 'connection') headers[k] = Array.isArray(v) ? v.join(', ') : v;
        resolve({ status: res.statusCode ?? 502, headers, body: Buffer.concat(chunks) });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

export async function startEvidenceServer(backend: BackendFactory): Promise<EvidenceServer> {
  const opened = await backend.open();
  const publishers = await startPublisherServer();
  const clock = testClock('2026-10-21T12:00:00Z');
  const app = await makeTestApp({ publisherBases: liveConfig(publishers).publisherBases }, { storage: opened.storage, clock });
  const target = await app.app.listen({ port: 0, host: '127.0.0.1' });

  const requests: Seen[] = [];
  const faults: Fault[] = [];
  const proxy = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    // Every failure becomes a 502 inside, so the promise never rejects.
    const relay = async () => {
      const seen: Seen = { method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers };
      requests.push(seen);
      try {
        const upstream = () => forward(target, seen, Buffer.concat(chunks));
        let answer: Answer | undefined;
        for (const fault of faults) {
          answer = await fault(seen, upstream);
          if (answer) break;
        }
        answer ??= await upstream();
        const headers = { ...answer.headers, 'content-length': String(answer.body.length) };
        res.writeHead(answer.status, headers).end(answer.body);
      } catch {
        res.writeHead(502).end();
      }
    };
    req.on('end', () => void relay());
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;

  return {
    base,
    app,
    storage: opened.storage,
    clock,
    publishers,
    requests,
    faults,
    async capture() {
      const result = await captureOnce({ storage: opened.storage, config: liveConfig(publishers), clock });
      if (!result.ran || result.attempt.packet_id === null) throw new Error(`capture failed: ${JSON.stringify(result)}`);
      return result.attempt.packet_id;
    },
    async close() {
      proxy.closeAllConnections();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
      await app.app.close();
      await publishers.close();
      await opened.cleanup();
    },
  };
}
