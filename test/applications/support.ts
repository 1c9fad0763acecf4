// Shared pieces for the application-key tests: a movable clock and enrollment calls.
import type { FastifyInstance } from 'fastify';
import { afterEach } from 'vitest';
import type { Storage } from '../../src/storage/storage.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import type { BackendFactory } from '../helpers/storage.js';
import { parseUtcTimestamp, type Instant } from '../../src/core/time.js';

export interface MovableClock {
  (): Instant;
  set(text: string): void;
}

/** A clock fixed at `start` (strict UTC text) until moved with `set`. */
export function movableClock(start: string): MovableClock {
  let now = parse(start);
  const clock = (() => now) as MovableClock;
  clock.set = (text: string) => {
    now = parse(text);
  };
  return clock;
}

function parse(text: string): Instant {
  const value = parseUtcTimestamp(text);
  if (value === null) throw new Error(`bad test timestamp ${text}`);
  return value;
}

export const CONSENT = '{"measurement_consent": true}';

export async function enrollVia(app: FastifyInstance, headers: Record<string, string> = {}) {
  return app.inject({
    method: 'POST',
    url: '/v1/applications',
    payload: CONSENT,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

/** Enrolls and returns the id and token, failing the test on anything but 201. */
export async function enrolled(app: FastifyInstance, headers: Record<string, string> = {}): Promise<{ id: string; token: string }> {
  const res = await enrollVia(app, headers);
  if (res.statusCode !== 201) throw new Error(`enrollment failed: ${res.statusCode} ${res.body}`);
  const body = res.json<{ application_id: string; token: string }>();
  return { id: body.application_id, token: body.token };
}

/**
 * For one backend's describe block: `setup(start)` opens a fresh store and an app on it
 * with a movable clock; both are closed after each test.
 */
export function appOnBackend(backend: BackendFactory) {
  let t: TestApp | undefined;
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await t?.close();
    await cleanup?.();
    t = undefined;
    cleanup = undefined;
  });
  return async function setup(start: string) {
    const opened = await backend.open();
    cleanup = opened.cleanup;
    const clock = movableClock(start);
    t = await makeTestApp({}, { storage: opened.storage, clock });
    const ctx: { storage: Storage; clock: MovableClock } = { storage: opened.storage, clock };
    return { ctx, clock, app: t.app };
  };
}
