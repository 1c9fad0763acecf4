// The capture scheduler `serve` runs: one capture right after start, then one every
// `captureInterval` seconds (measured start to start). A tick that finds a capture still
// running in this process is skipped. A tick that finds the capture lease held elsewhere
// does not wait for the next interval: it looks again every `leaseRetryMs` until an attempt
// has been recorded since the tick (whoever held the lease captured) or it can capture
// itself (the holder died and its lease was taken over or expired). So a crashed holder
// costs one short lease, never a whole interval. A tick the store refused outright
// (busy, faulty, unreachable) is retried the same way.

import type { Instant } from '../core/time.js';
import type { BackgroundService, RunningService, ServiceContext } from '../platform/services.js';
import { newestAttempt } from './archive.js';
import { CAPTURE_LEASE_MS, captureOnce, describeFailure, type CaptureResult } from './capture.js';

/** How often a tick that found the lease taken looks again. */
export const LEASE_RETRY_MS = CAPTURE_LEASE_MS / 4;

export interface SchedulerOptions {
  leaseRetryMs?: number;
}

export function startCaptureScheduler(deps: ServiceContext, options: SchedulerOptions = {}): RunningService | null {
  const { config, logger, storage } = deps;
  if (config.captureInterval <= 0) return null;
  const intervalMs = config.captureInterval * 1000;
  const leaseRetryMs = options.leaseRetryMs ?? LEASE_RETRY_MS;
  let timer: NodeJS.Timeout | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;

  const report = (result: CaptureResult) => {
    if (!result.ran) {
      const why = result.reason === 'capture_lease_lost'
        ? 'funding capture discarded: its lease expired while it ran and was taken over, so it wrote nothing'
        : 'funding capture skipped: another capture holds the lease';
      logger.info({ reason: result.reason, retry_in_ms: leaseRetryMs }, why);
      return;
    }
    const a = result.attempt;
    const fields = { attempt_id: a.attempt_id, outcome: a.outcome, packet_id: a.packet_id, review_asof: a.review_asof, error_code: a.error_code };
    if (a.outcome === 'failed') logger.warn({ ...fields, document: a.document, reason: a.reason, error: a.error }, 'funding capture attempt failed');
    else logger.info(fields, 'funding capture attempt succeeded');
  };

  /** True when an attempt of this mode was recorded at or after `since`. */
  const capturedSince = async (since: Instant) => {
    const newest = await newestAttempt(storage.db, config.mode);
    return newest !== undefined && BigInt(newest.recorded_at_us) >= since;
  };

  /** One capture; `due` is when the tick it serves came due (a retry keeps its tick's time). */
  const capture = (due: Instant, isRetry: boolean) => {
    running = (async () => {
      let done = false;
      try {
        if (isRetry && (await capturedSince(due))) {
          logger.info('funding capture not needed: the lease holder recorded an attempt');
          return;
        }
        const result = await captureOnce({ storage, config, clock: deps.clock });
        report(result);
        done = result.ran;
      } catch (error) {
        // The store refused even the lease (busy, faulty, unreachable): as good as not run.
        logger.error({ error: describeFailure(error, [], 'capture_not_recorded').text, retry_in_ms: leaseRetryMs }, 'funding capture could not run');
      }
      if (!done && !stopped) {
        clearTimeout(retryTimer);
        retryTimer = setTimeout(() => {
          retryTimer = undefined;
          if (!stopped && !running) capture(due, true);
        }, leaseRetryMs);
      }
    })().finally(() => {
      running = undefined;
    });
  };

  const tick = () => {
    if (stopped) return;
    const startedAt = Date.now();
    // A regular tick supersedes a pending retry of the previous one.
    clearTimeout(retryTimer);
    retryTimer = undefined;
    if (running) logger.info('funding capture skipped: the previous one is still running');
    else capture(deps.clock(), false);
    if (!stopped) timer = setTimeout(tick, Math.max(0, startedAt + intervalMs - Date.now()));
  };
  tick();

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      clearTimeout(retryTimer);
      await running;
    },
    async idle() {
      await running;
    },
  };
}

export const captureScheduler: BackgroundService = { name: 'funding-capture', start: (context) => startCaptureScheduler(context) };
