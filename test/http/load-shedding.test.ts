import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { pressureText } from '../../src/http/app.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp({ maxEventLoopDelay: 40 }, {
    beforeReady(app) {
      app.get('/test/block', async () => {
        const until = Date.now() + 400;
        while (Date.now() < until) { /* saturate the event loop on purpose */ }
        return { ok: true };
      });
    },
  });
});
afterAll(async () => t.close());

describe('load shedding', () => {
  it('says what it measured in words, and never writes a delay that no sample measured as a number', () => {
    expect(pressureText('eventLoopDelay', 123.4)).toBe('event loop delay 123 ms');
    for (const none of [Infinity, NaN, undefined]) expect(pressureText('eventLoopDelay', none)).toBe('event loop busy for a whole sampling interval');
    expect(pressureText('heapUsedBytes', 1e9)).toBe('heapUsedBytes 1000000000');
    expect(pressureText('eventLoopUtilization', NaN)).toBe('eventLoopUtilization');
  });

  it('answers 503 with Retry-After and a code while the event loop is saturated, then recovers', async () => {
    const healthyAgain = async () => {
      let status = 0;
      for (let i = 0; i < 60 && status !== 200; i++) {
        await new Promise((r) => setTimeout(r, 50));
        status = (await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode;
      }
      return status;
    };
    expect(await healthyAgain()).toBe(200); // start-up work may itself have delayed the loop
    expect((await t.app.inject({ method: 'GET', url: '/test/block' })).statusCode).toBe(200);
    // The sampler (every 20 ms here) reads a delay histogram that a timer of its own fills;
    // after the block either timer may run first, so the delay shows at the first or the
    // second sample. Ask until it does, for a few sample periods, never longer.
    const shedAt = async (options: InjectOptions) => {
      let shed = await t.app.inject(options);
      for (let i = 0; i < 40 && shed.statusCode !== 503; i++) {
        await new Promise((r) => setTimeout(r, 5));
        shed = await t.app.inject(options);
      }
      return shed;
    };
    const shed = await shedAt({ method: 'GET', url: '/healthz' });
    expect(shed.statusCode).toBe(503);
    expect(shed.headers['retry-after']).toBe('1');
    expect(shed.json().code).toBe('overloaded');
    // Shed before the groups' hooks, with the headers of the group the path belongs to:
    // the analysis reference's CORS and no-store on its paths and its /mcp.
    for (const url of ['/v1/capabilities', '/noisefloor/mcp', '/mcp']) {
      // The shedding lasts a sample or two after each block: on a busy machine the asks may
      // miss it, so the block is repeated (a few times at most) until one is shed.
      let answer = await t.app.inject({ method: 'GET', url });
      for (let attempt = 0; attempt < 5 && answer.statusCode !== 503; attempt++) {
        expect(await healthyAgain()).toBe(200);
        expect((await t.app.inject({ method: 'GET', url: '/test/block' })).statusCode).toBe(200);
        answer = await shedAt({ method: 'GET', url });
      }
      expect(answer.statusCode, url).toBe(503);
      expect(answer.headers['access-control-allow-origin'], url).toBe('*');
      expect(answer.headers['cache-control'], url).toBe('no-store');
    }
    expect(await healthyAgain()).toBe(200);
  });
});
