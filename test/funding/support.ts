// Shared pieces of the funding archive tests: the recorded publisher documents, a local
// HTTP server that serves them like the publishers do, and a clock tests can move.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { zipSync } from 'fflate';
import { defaultConfig, type Config } from '../../src/core/config.js';
import { parseUtcTimestamp, type Instant } from '../../src/core/time.js';
import { IORB_DOCUMENTS, PUBLISHER_DOCUMENTS } from '../../src/funding/publishers/catalogue.js';
import type { PublisherKey } from '../../src/funding/publishers/types.js';

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/publishers');

export function fixtureBytes(relative: string): Uint8Array {
  return new Uint8Array(readFileSync(path.join(FIXTURES, relative)));
}

export function zipPrates(xml: Uint8Array | string): Uint8Array {
  return zipSync({ 'PRATES_data.xml': typeof xml === 'string' ? new TextEncoder().encode(xml) : xml }, { mtime: new Date('2026-10-21T00:00:00Z') });
}

/** The recorded valid documents (review date 2026-10-20), as each publisher sends them. */
export function recordedDocuments(): Record<PublisherKey, Uint8Array> {
  return {
    sofr: fixtureBytes('sofr/valid.json'),
    effr: fixtureBytes('effr/valid.json'),
    iorb: zipPrates(fixtureBytes('iorb/daily-frequency.xml')),
    reserves: fixtureBytes('reserves/valid.htm'),
    on_rrp: fixtureBytes('on_rrp/valid.json'),
    srf: fixtureBytes('srf/valid.json'),
    tga: fixtureBytes('tga/valid.json'),
  };
}

/** The recorded SRF document with both 2026-10-20 operations at `dollars` each. */
export function srfWithAmount(dollars: number): Uint8Array {
  const doc = JSON.parse(new TextDecoder().decode(fixtureBytes('srf/valid.json')));
  for (const op of doc.repo.operations) if (op.operationDate === '2026-10-20') op.totalAmtAccepted = dollars;
  return new TextEncoder().encode(JSON.stringify(doc, null, 2));
}

export interface Served {
  status?: number;
  body: Uint8Array | string;
  headers?: Record<string, string>;
  delayMs?: number;
}

export interface PublisherServer {
  base: string;
  /** What each document path answers; replace entries to change the next capture. */
  documents: Record<PublisherKey, Served>;
  requests: { path: string; headers: http.IncomingHttpHeaders }[];
  close(): Promise<void>;
}

/** A node:http server on 127.0.0.1 (random port) answering the seven document paths. */
export async function startPublisherServer(documents = recordedDocuments()): Promise<PublisherServer> {
  const served = Object.fromEntries(Object.entries(documents).map(([k, body]) => [k, { body }])) as Record<PublisherKey, Served>;
  const requests: PublisherServer['requests'] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    requests.push({ path: req.url ?? '/', headers: req.headers });
    // Paths may carry a fixed query (PRATES); either IORB source's path answers with documents.iorb.
    const spec = [...PUBLISHER_DOCUMENTS, IORB_DOCUMENTS.board_iorb_page].find((d) => new URL(d.path, 'http://localhost').pathname === url.pathname);
    if (!spec) {
      res.writeHead(404).end('not here');
      return;
    }
    const answer = state.documents[spec.key];
    const send = () => {
      res.writeHead(answer.status ?? 200, { 'content-type': spec.mediaType, ...answer.headers });
      res.end(answer.body);
    };
    if (answer.delayMs) setTimeout(send, answer.delayMs);
    else send();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const state: PublisherServer = {
    base: `http://127.0.0.1:${port}`,
    documents: served,
    requests,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
  return state;
}

export function instant(text: string): Instant {
  const i = parseUtcTimestamp(text);
  if (i === null) throw new Error(`bad instant ${text}`);
  return i;
}

export interface TestClock {
  (): Instant;
  set(text: string): void;
  advance(seconds: number): void;
}

/** A clock that stays where it is put; each reading is 1 µs after the previous one. */
export function testClock(start = '2026-10-21T12:00:00Z'): TestClock {
  let now = instant(start);
  const clock = (() => {
    now += 1n;
    return now;
  }) as TestClock;
  clock.set = (text) => {
    now = instant(text);
  };
  clock.advance = (seconds) => {
    now += BigInt(Math.round(seconds * 1e6));
  };
  return clock;
}

export function liveConfig(server: PublisherServer | string, overrides: Partial<Config> = {}): Config {
  const base = typeof server === 'string' ? server : server.base;
  return {
    ...defaultConfig(),
    logLevel: 'silent',
    captureInterval: 0,
    publisherBases: { nyfed: base, frb: base, treasury: base },
    ...overrides,
  };
}
