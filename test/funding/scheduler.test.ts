import { afterEach, describe, expect, it } from 'vitest';
import pino from 'pino';
import { startCaptureScheduler } from '../../src/funding/scheduler.js';
import { defaultConfig } from '../../src/core/config.js';
import { nowInstant } from '../../src/core/time.js';
import { sqliteBackend } from '../helpers/storage.js';

const logger = pino({ level: 'silent' });
let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

describe('capture scheduler', () => {
  it('is off when the interval is 0', async () => {
    const opened = await sqliteBackend.open();
    cleanup = opened.cleanup;
    const config = { ...defaultConfig(), captureInterval: 0 };
    expect(startCaptureScheduler({ config, storage: opened.storage, clock: nowInstant, logger })).toBeNull();
  });

  it('captures at start and then every interval, and stops cleanly', async () => {
    const opened = await sqliteBackend.open();
    cleanup = opened.cleanup;
    const config = { ...defaultConfig(), mode: 'sample' as const, captureInterval: 1 };
    const scheduler = startCaptureScheduler({ config, storage: opened.storage, clock: nowInstant, logger })!;
    await scheduler.idle();
    const count = async () => (await opened.storage.db.selectFrom('funding_attempts').selectAll().execute()).length;
    expect(await count()).toBe(1);
    await new Promise((r) => setTimeout(r, 1300));
    await scheduler.idle();
    expect(await count()).toBe(2);
    await scheduler.stop();
    await new Promise((r) => setTimeout(r, 1200));
    expect(await count()).toBe(2);
  });
});
