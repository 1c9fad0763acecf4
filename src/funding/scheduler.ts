// The capture scheduler `serve` runs: one capture right after start, then one every
// `captureInterval` seconds (measured start to start). A tick that finds a capture still
// running in this process, or the capture lease held by another instance, is skipped —
// the lease makes "one capture at a time" hold across every instance sharing the store.

import type { BackgroundService, RunningService, ServiceContext } from '../platform/services.js';
import { captureOnce, describeFailure, type CaptureResult } from './capture.js';

export function startCaptureScheduler(deps: ServiceContext): RunningService | null {
  const { config, logger } = deps;
  if (config.captureInterval <= 0) return null;
  const intervalMs = config.captureInterval * 1000;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;

  const report = (result: CaptureResult) => {
    if (!result.ran) {
      logger.info({ reason: result.reason }, 'funding capture skipped: another capture holds the lease');
      return;
    }
    const a = result.attempt;
    const fields = { attempt_id: a.attempt_id, outcome: a.outcome, packet_id: a.packet_id, review_asof: a.review_asof, error_code: a.error_code };
    if (a.outcome === 'failed') logger.warn({ ...fields, error: a.error }, 'funding capture attempt failed');
    else logger.info(fields, 'funding capture attempt succeeded');
  };

  const tick = () => {
    if (stopped) return;
    const startedAt = Date.now();
    if (running) {
      logger.info('funding capture skipped: the previous one is still running');
    } else {
      running = captureOnce({ storage: deps.storage, config, clock: deps.clock })
        .then(report, (error) => logger.error({ error: describeFailure(error).text }, 'funding capture could not run'))
        .finally(() => {
          running = undefined;
        });
    }
    if (!stopped) timer = setTimeout(tick, Math.max(0, startedAt + intervalMs - Date.now()));
  };
  tick();

  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
    async idle() {
      await running;
    },
  };
}

export const captureScheduler: BackgroundService = { name: 'funding-capture', start: startCaptureScheduler };
