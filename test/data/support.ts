// Shared helpers of the data-group tests: a moving test clock, a local HTTP server that
// serves source documents (with failures on demand), contexts on real stores, and a JSON
// pointer resolver to check rows against the stored documents.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { defaultConfig, SOURCE_KEYS, type Config, type SourceKey } from '../../src/core/config.js';
import { parseUtcTimestamp, type Instant } from '../../src/core/time.js';
import { createDataContext, type DataContext, type DataDeps } from '../../src/data/service.js';
import { QueryValidationError } from '../../src/data/errors.js';
import { Limiter } from '../../src/data/limiter.js';
import type { Storage } from '../../src/storage/storage.js';
import type { ProjectionInput } from '../../src/data/projections/types.js';
import type { RowBase } from '../../src/data/row.js';
import type { DatasetId } from '../../src/data/datasets.js';
import { sourceReported } from '../../src/data/source-reported.js';
import { buildRegistry } from '../../src/data/registry.js';

export interface TestClock {
  (): Instant;
  set(text: string): void;
  advance(seconds: number): void;
}

/** A clock that stands still unless moved (freshness tests need exact ages). */
export function testClock(start = '2026-11-19T12:00:00Z'): TestClock {
  let now = parseUtcTimestamp(start)!;
  const clock = (() => now) as TestClock;
  clock.set = (text) => {
    now = parseUtcTimestamp(text)!;
  };
  clock.advance = (seconds) => {
    now += BigInt(Math.round(seconds * 1e6));
  };
  return clock;
}

export interface Served {
  status?: number;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  delayMs?: number;
  /** Send the body in pieces with pauses (slow drip). */
  dripMs?: number;
}

export interface SourceServer {
  base: string;
  /** What each path answers; change between requests. */
  routes: Map<string, Served>;
  /** Paths requested, in order. */
  requests: string[];
  /** Most requests in flight at once. */
  maxInFlight: number;
  close(): Promise<void>;
}

export const SOURCE_PATHS: Record<SourceKey, string> = {
  'money-market': '/api/v2/money-markets',
  'capital-market': '/api/v2/world-markets?section=capital_markets',
  'china-economy-palimpsest': '/readings/china-index-latest.json',
  'china-economy-seiche': '/api/v2/world-markets?section=china_macro',
  'bank-risk': '/api/failure-radar/board',
  'market-liquidity': '/undertow/x402/summary',
};

export async function startSourceServer(): Promise<SourceServer> {
  const routes = new Map<string, Served>();
  const requests: string[] = [];
  let inFlight = 0;
  const state = { maxInFlight: 0 };
  const server = http.createServer((req, res) => {
    const path = req.url ?? '/';
    requests.push(path);
    inFlight++;
    state.maxInFlight = Math.max(state.maxInFlight, inFlight);
    res.on('close', () => inFlight--);
    const answer = routes.get(path);
    if (!answer) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not here');
      return;
    }
    const send = () => {
      const body = answer.body === undefined ? '' : answer.body;
      res.writeHead(answer.status ?? 200, { 'content-type': 'application/json', ...answer.headers });
      if (answer.dripMs) {
        const bytes = Buffer.from(body);
        let i = 0;
        const tick = () => {
          if (res.destroyed) return;
          if (i >= bytes.length) return void res.end();
          res.write(bytes.subarray(i, i + 16));
          i += 16;
          setTimeout(tick, answer.dripMs);
        };
        tick();
      } else {
        res.end(body);
      }
    };
    if (answer.delayMs) setTimeout(send, answer.delayMs);
    else send();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    routes,
    requests,
    get maxInFlight() {
      return state.maxInFlight;
    },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

export function serveJson(server: SourceServer, key: SourceKey, document: unknown, extra: Served = {}): void {
  server.routes.set(SOURCE_PATHS[key], { body: typeof document === 'string' ? document : JSON.stringify(document), ...extra });
}

export function liveConfig(server: SourceServer, overrides: Partial<Config> = {}): Config {
  const sourceUrls = Object.fromEntries(SOURCE_KEYS.map((k) => [k, `${server.base}${SOURCE_PATHS[k]}`])) as Record<SourceKey, string>;
  return { ...defaultConfig(), logLevel: 'silent', captureInterval: 0, sourceUrls, ...overrides };
}

export function makeContext(storage: Storage, config: Config, clock: () => Instant, extra: Partial<DataDeps> = {}): DataContext {
  return createDataContext({ storage, config, clock, limiter: new Limiter(4), pollMs: 10, ...extra });
}

/** RFC 6901 resolution (undefined when the pointer names nothing). */
export function resolvePointer(document: unknown, pointer: string): unknown {
  if (pointer === '') return document;
  let node: unknown = document;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node)) node = /^(0|[1-9][0-9]*)$/.test(key) ? node[Number(key)] : undefined;
    else if (node !== null && typeof node === 'object' && Object.hasOwn(node, key)) node = (node as Record<string, unknown>)[key];
    else return undefined;
  }
  return node;
}

export const TEST_URL = 'https://source.test/doc';

/** A projection input for a document, as a successful retrieval would give it. */
export function inputFor(dataset: DatasetId, document: unknown, key: SourceKey = 'money-market'): ProjectionInput {
  const base: RowBase = {
    dataset,
    product: 'Seiche',
    source_url: TEST_URL,
    retrieved_at: '2026-11-19T12:00:00Z',
    content_sha256: `sha256:${'a'.repeat(64)}`,
    transport_status: 'complete',
  };
  const adapter = buildRegistry(defaultConfig()).get(key).adapter;
  return { document, base, reported: sourceReported(adapter, document, TEST_URL, base.content_sha256!) };
}

/**
 * The one 422 body a promise is refused with; fails the test when it is not refused so.
 * Plain throws rather than vitest's expect: the benchmarks import this module too, outside vitest.
 */
export async function refusal(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    if (error instanceof QueryValidationError) return error.body();
    throw error;
  }
  throw new Error('expected a 422');
}
