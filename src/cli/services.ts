// The background services `serve` runs after the HTTP server listens, in start order.
// A new area adds its BackgroundService here (see docs/CONTRACTS.md).
import type { BackgroundService } from '../platform/services.js';
import { captureScheduler } from '../funding/scheduler.js';
import { retentionSweeper } from '../applications/retention-sweeper.js';
import { dataSnapshotSweeper } from '../data/sweeper.js';

export const SERVICES: readonly BackgroundService[] = [captureScheduler, retentionSweeper, dataSnapshotSweeper];
