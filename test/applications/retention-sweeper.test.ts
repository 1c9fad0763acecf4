import { afterEach, describe, expect, it } from 'vitest';
import pino from 'pino';
import { defaultConfig } from '../../src/core/config.js';
import { startRetentionSweeper } from '../../src/applications/retention-sweeper.js';
import type { RunningService } from '../../src/platform/services.js';
import { sqliteBackend } from '../helpers/storage.js';
import { movableClock } from './support.js';

const logger = pino({ level: 'silent' });
let cleanup: (() => Promise<void>) | undefined;
let sweeper: RunningService | undefined;
afterEach(async () => {
  await sweeper?.stop();
  await cleanup?.();
  sweeper = undefined;
  cleanup = undefined;
});

/** Polls `check` until it holds (the sweeper runs on its own timer), for at most 5 s. */
async function eventually(check: () => Promise<boolean> | boolean): Promise<void> {
  for (let waited = 0; !(await check()); waited += 10) {
    if (waited > 5000) throw new Error('condition not reached within 5 s');
    await new Promise((r) => setTimeout(r, 10));
  }
}

const key = (n: number, lastSeenDay: string) => ({
  id: n.toString(16).padStart(32, '0'),
  token_hash: 'b' + n.toString(16).padStart(63, '0'),
  created_day: '2026-01-01',
  last_seen_day: lastSeenDay,
  traffic_class: 'unverified' as const,
  evidence_sha256: null,
});

describe('retention sweeper', () => {
  it('purges idle keys and old usage with no request arriving, then again on the next UTC date', async () => {
    const opened = await sqliteBackend.open();
    cleanup = opened.cleanup;
    const db = opened.storage.db;
    // 2026-03-05 is 180 dates before 2026-09-01: expired on that date; 2026-03-06 a day later.
    await db.insertInto('applications').values([key(1, '2026-03-05'), key(2, '2026-03-06'), key(3, '2026-08-31')]).execute();
    const remaining = async () => (await db.selectFrom('applications').select('id').orderBy('id').execute()).map((r) => Number.parseInt(r.id, 16));

    const clock = movableClock('2026-09-01T08:00:00Z');
    sweeper = startRetentionSweeper({ config: defaultConfig(), storage: opened.storage, clock, logger }, 20);
    await sweeper.idle();
    expect(await remaining()).toEqual([2, 3]);

    clock.set('2026-09-02T00:10:00Z');
    await eventually(async () => (await remaining()).length === 1);
    expect(await remaining()).toEqual([3]);
  });

  it('logs a failing sweep and keeps running', async () => {
    const opened = await sqliteBackend.open();
    const warnings: string[] = [];
    const recording = pino({ level: 'warn' }, { write: (line: string) => warnings.push(line) });
    await opened.cleanup(); // the store is closed: every sweep fails
    sweeper = startRetentionSweeper({ config: defaultConfig(), storage: opened.storage, clock: movableClock('2026-09-01T08:00:00Z'), logger: recording }, 20);
    await eventually(() => warnings.length >= 2);
    expect(warnings[0]).toContain('retention sweep failed');
  });
});
