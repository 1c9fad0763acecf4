import { afterEach, describe, expect, it } from 'vitest';
import pino from 'pino';
import { startCaptureScheduler } from '../../src/funding/scheduler.js';
import { defaultConfig } from '../../src/core/config.js';
import { nowInstant } from '../../src/core/time.js';
import { sqliteBackend } from '../helpers/storage.js';
import { CAPTURE_LEASE } from '../../src/funding/archive.js';
import { captureOnce, CAPTURE_LEASE_MS } from '../../src/funding/capture.js';
import { eventually } from '../helpers/sqlite-corrupt.js';

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

  it('looks again soon after finding the capture lease taken, and captures once the holder lets go', async () => {
    const opened = await sqliteBackend.open();
    cleanup = opened.cleanup;
    const { storage } = opened;
    // A holder this process cannot check (as on another host): only its release or expiry frees it.
    expect(await storage.tryLease(CAPTURE_LEASE, 'opaque-holder', CAPTURE_LEASE_MS)).toBe(true);
    const config = { ...defaultConfig(), mode: 'sample' as const, captureInterval: 3600 };
    const scheduler = startCaptureScheduler({ config, storage, clock: nowInstant, logger }, { leaseRetryMs: 50 })!;
    const count = async () => (await storage.db.selectFrom('funding_attempts').selectAll().execute()).length;
    try {
      await scheduler.idle();
      expect(await count()).toBe(0);
      await storage.releaseLease(CAPTURE_LEASE, 'opaque-holder');
      // The next regular tick is an hour away: only the retry can capture now.
      await eventually(async () => {
        if ((await count()) !== 1) throw new Error('no capture yet');
      });
    } finally {
      await scheduler.stop();
    }
  });

  it('does not capture again when the lease holder recorded an attempt meanwhile', async () => {
    const opened = await sqliteBackend.open();
    cleanup = opened.cleanup;
    const { storage } = opened;
    expect(await storage.tryLease(CAPTURE_LEASE, 'opaque-holder', CAPTURE_LEASE_MS)).toBe(true);
    const config = { ...defaultConfig(), mode: 'sample' as const, captureInterval: 3600 };
    const scheduler = startCaptureScheduler({ config, storage, clock: nowInstant, logger }, { leaseRetryMs: 50 })!;
    const count = async () => (await storage.db.selectFrom('funding_attempts').selectAll().execute()).length;
    try {
      await scheduler.idle();
      expect(await count()).toBe(0);
      // "Another instance" finishes its capture: it took the lease over as expired from its clock.
      const other = await captureOnce({ storage, config, clock: nowInstant, leaseNowMs: () => Date.now() + 2 * CAPTURE_LEASE_MS });
      expect(other.ran).toBe(true);
      await new Promise((r) => setTimeout(r, 500));
      await scheduler.idle();
      expect(await count()).toBe(1);
    } finally {
      await scheduler.stop();
    }
  });
});
