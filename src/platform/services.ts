// Background services: work a running service does on its own clock (the funding capture
// scheduler, the retention sweeper, later a group C cache refresher). A service sees only
// this narrow context — configuration, the store, "now" and a logger — never the HTTP
// layer, so domain modules can define services without importing src/http.
import type { BaseLogger } from 'pino';
import type { Config } from '../core/config.js';
import type { Instant } from '../core/time.js';
import type { Storage } from '../storage/storage.js';

export type ServiceLogger = Pick<BaseLogger, 'info' | 'warn' | 'error'>;

export interface ServiceContext {
  config: Config;
  storage: Storage;
  /** Current time; tests pass a movable clock. */
  clock: () => Instant;
  logger: ServiceLogger;
}

export interface RunningService {
  /** Stops scheduling and waits for the run in flight. */
  stop(): Promise<void>;
  /** Resolves when the run in flight (if any) has finished. */
  idle(): Promise<void>;
}

export interface BackgroundService {
  readonly name: string;
  /** Starts the service, or returns null when the configuration turns it off. */
  start(context: ServiceContext): RunningService | null;
}

/** Starts each service in order; the ones the configuration turns off are skipped. */
export function startServices(services: readonly BackgroundService[], context: ServiceContext): RunningService[] {
  const running: RunningService[] = [];
  for (const service of services) {
    const handle = service.start(context);
    if (handle) running.push(handle);
  }
  return running;
}

/**
 * Runs `task` at once and then every `everyMs`, never two runs at a time (a tick that finds
 * one in flight is skipped). A failed run is logged with `failureMessage` and the next tick
 * tries again; the timer never holds the process open.
 */
export function startPeriodic(logger: ServiceLogger, everyMs: number, failureMessage: string, task: () => Promise<void>): RunningService {
  let running: Promise<void> | undefined;
  let stopped = false;
  const run = () => {
    if (stopped || running) return;
    running = task()
      .catch((error: unknown) => logger.warn({ error: error instanceof Error ? error.message : String(error) }, failureMessage))
      .finally(() => {
        running = undefined;
      });
  };
  run();
  const timer = setInterval(run, everyMs);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
    async idle() {
      await running;
    },
  };
}
