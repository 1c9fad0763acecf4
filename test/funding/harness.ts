// The one HTTP test harness of the funding tests: a fresh store (any backend), a local
// publisher server replaying the recorded documents, a movable clock, and the app built
// on them, with capture and request helpers. `useFundingHarness` wraps it in
// beforeEach/afterEach for a describe block.
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach } from 'vitest';
import type { Config } from '../../src/core/config.js';
import { captureOnce, type AttemptReport, type CaptureResult } from '../../src/funding/capture.js';
import type { FetchLimits } from '../../src/funding/fetch.js';
import type { Storage } from '../../src/storage/storage.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { sqliteBackend, type BackendFactory } from '../helpers/storage.js';
import { liveConfig, startPublisherServer, testClock, type PublisherServer, type TestClock } from './support.js';

export interface HarnessOptions {
  /** Default: SQLite. */
  backend?: BackendFactory;
  /** Where the clock starts (strict UTC text); default 2026-10-21T12:00:00Z, the day after the recorded documents. */
  start?: string;
  /** `sample` captures the bundled documents and starts no publisher server. */
  mode?: Config['mode'];
  /** Overrides of the app's configuration (publisher bases point at the local server). */
  config?: Partial<Config>;
  /** The store the app sees (e.g. one whose writes fail); captures always use the real one. */
  appStorage?: (storage: Storage) => Storage;
  /**
   * Requests go over a socket to the listening app instead of app.inject(), so they pass
   * where a real client's do (revalidations answered ahead of the router among them).
   */
  overSocket?: boolean;
}

export interface CaptureOptions {
  storage?: Storage;
  config?: Partial<Config>;
  fetchLimits?: FetchLimits;
  leaseNowMs?: () => number;
}

export interface FundingHarness {
  readonly storage: Storage;
  /** The local publisher server (live mode only). */
  readonly server: PublisherServer;
  readonly clock: TestClock;
  readonly app: FastifyInstance;
  readonly config: Config;
  /** A second handle ("instance") on the same store. */
  openAnother(): Promise<Storage>;
  /** One capture attempt against the harness's publishers and clock. */
  capture(options?: CaptureOptions): Promise<CaptureResult>;
  /** One capture attempt that must run (it may still fail and be recorded). */
  captured(options?: CaptureOptions): Promise<AttemptReport>;
  get(url: string, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/** Where sample-mode configurations point: nothing listens, so a sample capture cannot touch the network. */
const NOWHERE = 'http://127.0.0.1:9';

export async function openFundingHarness(options: HarnessOptions = {}): Promise<FundingHarness> {
  const opened = await (options.backend ?? sqliteBackend).open();
  const mode = options.mode ?? 'live';
  const server = mode === 'live' ? await startPublisherServer() : undefined;
  const clock = testClock(options.start);
  const base = liveConfig(server ?? NOWHERE, { mode });
  let t: TestApp;
  try {
    const storage = options.appStorage ? options.appStorage(opened.storage) : opened.storage;
    t = await makeTestApp({ mode, publisherBases: base.publisherBases, ...options.config }, { storage, clock });
  } catch (error) {
    await server?.close();
    await opened.cleanup();
    throw error;
  }
  const capture = (o: CaptureOptions = {}) =>
    captureOnce({
      storage: o.storage ?? opened.storage,
      config: { ...base, ...o.config },
      clock,
      ...(o.fetchLimits ? { fetchLimits: o.fetchLimits } : {}),
      ...(o.leaseNowMs ? { leaseNowMs: o.leaseNowMs } : {}),
    });
  return {
    storage: opened.storage,
    get server() {
      if (!server) throw new Error('a sample-mode harness has no publisher server');
      return server;
    },
    clock,
    app: t.app,
    config: t.deps.config,
    openAnother: () => opened.openAnother(),
    capture,
    async captured(o) {
      const result = await capture(o);
      if (!result.ran) throw new Error('the capture did not run: another capture holds the lease');
      return result.attempt;
    },
    get: options.overSocket ? await socketGet(t.app) : (url, headers = {}) => t.app.inject({ method: 'GET', url, headers }),
    async close() {
      await t.app.close();
      await server?.close();
      await opened.cleanup();
    },
  };
}

/** GET over a fresh connection to the app, listening from now on, answered in the shape inject() gives. */
async function socketGet(app: FastifyInstance): Promise<FundingHarness['get']> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  return (url, headers = {}) => new Promise((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port, path: url, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const rawPayload = Buffer.concat(chunks);
        const body = rawPayload.toString();
        resolve({ statusCode: res.statusCode, headers: res.headers, rawPayload, body, payload: body, json: () => JSON.parse(body) } as unknown as LightMyRequestResponse);
      });
    });
    request.on('error', reject);
    request.end();
  });
}

/**
 * A fresh harness for every test of the enclosing describe block. The returned object
 * always names the current test's harness.
 */
export function useFundingHarness(options: HarnessOptions = {}): FundingHarness {
  let current: FundingHarness | undefined;
  beforeEach(async () => {
    current = await openFundingHarness(options);
  });
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  const now = (): FundingHarness => {
    if (!current) throw new Error('the funding harness exists only while a test runs');
    return current;
  };
  return {
    get storage() {
      return now().storage;
    },
    get server() {
      return now().server;
    },
    get clock() {
      return now().clock;
    },
    get app() {
      return now().app;
    },
    get config() {
      return now().config;
    },
    openAnother: () => now().openAnother(),
    capture: (o) => now().capture(o),
    captured: (o) => now().captured(o),
    get: (url, headers) => now().get(url, headers),
    close: () => now().close(),
  };
}
