// Shared pieces for the application-key tests: a movable clock and enrollment calls.
import type { FastifyInstance } from 'fastify';
import { parseUtcTimestamp, type Instant } from '../../../src/core/time.js';

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
  const body = res.json() as { application_id: string; token: string };
  return { id: body.application_id, token: body.token };
}
