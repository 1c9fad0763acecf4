import type { FastifyInstance } from 'fastify';
import { defaultConfig, type Config } from '../../src/core/config.js';
import type { Instant } from '../../src/core/time.js';
import { nowInstant } from '../../src/core/time.js';
import { buildApp } from '../../src/http/app.js';
import type { AppDeps } from '../../src/http/deps.js';
import type { Storage } from '../../src/storage/storage.js';
import { sqliteBackend } from './storage.js';

export interface TestApp {
  app: FastifyInstance;
  storage: Storage;
  deps: AppDeps;
  close(): Promise<void>;
}

/**
 * A fully built app on a fresh SQLite store, with optional config overrides and clock.
 * Load shedding is off unless a test sets maxEventLoopDelay: a busy CI machine must not
 * turn the answers under test into 503 overloaded.
 */
export async function makeTestApp(
  overrides: Partial<Config> = {},
  options: { clock?: () => Instant; storage?: Storage; beforeReady?: (app: FastifyInstance) => void } = {},
): Promise<TestApp> {
  const opened = options.storage ? null : await sqliteBackend.open();
  const storage = options.storage ?? opened!.storage;
  const config: Config = { ...defaultConfig(), logLevel: 'silent', captureInterval: 0, maxEventLoopDelay: 0, ...overrides };
  const deps: AppDeps = { config, storage, clock: options.clock ?? nowInstant };
  const app = await buildApp(deps);
  options.beforeReady?.(app);
  await app.ready();
  return {
    app,
    storage,
    deps,
    async close() {
      await app.close();
      await opened?.cleanup();
    },
  };
}
