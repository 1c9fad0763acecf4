import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';
import type { Config } from '../core/config.js';
import type { Instant } from '../core/time.js';
import type { Storage } from '../storage/storage.js';

/** What the HTTP layer is built from; tests pass their own clock and store. */
export interface AppDeps {
  config: Config;
  storage: Storage;
  /** Current time; injectable so tests can move the clock. */
  clock: () => Instant;
  /** Logger settings or instance; defaults to JSON logs at `config.logLevel`. */
  logger?: FastifyServerOptions['logger'] | FastifyBaseLogger;
}

/** Options every group plugin receives. */
export interface GroupPluginOptions {
  deps: AppDeps;
  /** '' at the root, or the upstream prefix ('/noisefloor', …) this copy is mounted under. */
  mountedAt: string;
  /** Prefixed copies stay out of the OpenAPI document (same operations, other path). */
  hideFromDocs: boolean;
}
