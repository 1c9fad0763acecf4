// Background services `serve` starts after the HTTP server listens (e.g. the funding
// capture scheduler). Each returns a handle that stops it on shutdown, or null when
// the configuration turns it off.
import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from './deps.js';
import { startCaptureScheduler } from '../funding/scheduler.js';
import { startRetentionSweeper } from '../funding/applications/retention-sweeper.js';

export type ServiceStarter = (deps: AppDeps & { logger: FastifyBaseLogger }) => Promise<{ stop(): Promise<void> } | null>;

export const SERVICES: ServiceStarter[] = [async (deps) => startCaptureScheduler(deps), async (deps) => startRetentionSweeper(deps)];
