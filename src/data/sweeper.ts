// The data store's retention as a background service: every hour (and once at start) the
// sweep of ./sweep.ts removes expired and repeated snapshots, unreferenced retrievals and
// blobs. Instances sharing one store take turns through a lease, so one sweeps at a time;
// the sweep itself is safe to repeat (every delete re-checks what still refers to a row).
import { startPeriodic, type BackgroundService, type RunningService, type ServiceContext } from '../platform/services.js';
import { acquireLease } from '../storage/lease.js';
import { sweepDataStore, type SweepReport } from './sweep.js';

export const DATA_SWEEP_EVERY_MS = 3_600_000;
export const DATA_SWEEP_LEASE = 'data:snapshot-sweep';
const LEASE_TTL_MS = 600_000;

/** One sweep under the lease; null when another instance is sweeping. */
export async function sweepOnce(context: Pick<ServiceContext, 'storage' | 'config' | 'clock'>): Promise<SweepReport | null> {
  const lease = await acquireLease(context.storage, DATA_SWEEP_LEASE, { ttlMs: LEASE_TTL_MS });
  if (!lease) return null;
  try {
    return await sweepDataStore(context.storage, context.config, context.clock);
  } finally {
    await lease.release();
  }
}

export function startDataSweeper(context: ServiceContext, everyMs = DATA_SWEEP_EVERY_MS): RunningService {
  return startPeriodic(context.logger, everyMs, 'data snapshot sweep failed; will retry', async () => {
    const report = await sweepOnce(context);
    if (report && report.snapshots_removed + report.retrievals_removed + report.blobs_removed > 0) context.logger.info({ ...report }, 'data snapshot sweep');
  });
}

export const dataSnapshotSweeper: BackgroundService = { name: 'data-snapshot-sweeper', start: (context) => startDataSweeper(context) };
