// Keeps the 180-day key expiry and the 90-date usage retention true on an instance nobody
// calls: purging otherwise happens on use, on enrollment and in reports, so a quiet service
// would hold expired keys (refused, but still stored) until its next request. The sweep
// asks every hour and does the work once per UTC date (purgeOncePerDay), so instances
// sharing a store repeat at most one cheap delete each per date.

import { startPeriodic, type BackgroundService, type RunningService, type ServiceContext } from '../platform/services.js';
import { utcDate } from './days.js';
import { purgeOncePerDay } from './retention.js';

const SWEEP_EVERY_MS = 3_600_000;

export function startRetentionSweeper(deps: ServiceContext, everyMs = SWEEP_EVERY_MS): RunningService {
  return startPeriodic(deps.logger, everyMs, 'retention sweep failed; will retry', () => purgeOncePerDay(deps.storage, utcDate(deps.clock())));
}

export const retentionSweeper: BackgroundService = { name: 'retention-sweeper', start: (context) => startRetentionSweeper(context) };
