import { describe, expect, it } from 'vitest';
import pino from 'pino';
import { defaultConfig } from '../../src/core/config.js';
import { nowInstant } from '../../src/core/time.js';
import { startServices, type BackgroundService, type ServiceContext } from '../../src/platform/services.js';
import type { Storage } from '../../src/storage/storage.js';

describe('background services', () => {
  it('starts each service in order with the shared context and leaves out the ones turned off', async () => {
    const context: ServiceContext = { config: defaultConfig(), storage: {} as Storage, clock: nowInstant, logger: pino({ level: 'silent' }) };
    const started: string[] = [];
    const stopped: string[] = [];
    const service = (name: string, on: boolean): BackgroundService => ({
      name,
      start(ctx) {
        expect(ctx).toBe(context);
        if (!on) return null;
        started.push(name);
        return { stop: async () => void stopped.push(name), idle: async () => undefined };
      },
    });
    const running = startServices([service('a', true), service('off', false), service('b', true)], context);
    expect(started).toEqual(['a', 'b']);
    expect(running).toHaveLength(2);
    for (const r of running) await r.stop();
    expect(stopped).toEqual(['a', 'b']);
  });
});
