// EVIDENCE_ALLOWED_HOSTS: with a list, a request naming another host in Host is refused
// 400 host_not_allowed in its group's error shape, by every route (health, analysis,
// funding, data, MCP) and by the revalidation answered ahead of the router; listed hosts
// are served as before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openFundingHarness, type FundingHarness } from '../funding/harness.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';

const ALLOWED = ['evidence.example', 'localhost:8080'];

describe('a configured list of host names', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp({ mode: 'sample', allowedHosts: ALLOWED });
  });
  afterAll(async () => {
    await t.close();
  });

  const routes = [
    { method: 'GET' as const, url: '/healthz', shape: 'any' },
    { method: 'GET' as const, url: '/v1/capabilities', shape: 'analysis' },
    { method: 'POST' as const, url: '/v1/research/dyson', shape: 'analysis', payload: { dimension: 3, steps: 5, seed: 1 } },
    { method: 'GET' as const, url: '/v1/funding/history', shape: 'evidence' },
    { method: 'GET' as const, url: '/openbb/api/v1/datasets', shape: 'evidence' },
    { method: 'POST' as const, url: '/mcp', shape: 'any', payload: { jsonrpc: '2.0', id: 1, method: 'ping' } },
  ];

  it('serves listed names, on any port for a bare name and on its own port for name:port', async () => {
    for (const host of ['evidence.example', 'EVIDENCE.example:443', 'evidence.example.', 'localhost:8080']) {
      for (const r of routes) {
        const res = await t.app.inject({ method: r.method, url: r.url, headers: { host, accept: 'application/json, text/event-stream' }, ...(r.payload ? { payload: r.payload } : {}) });
        expect(res.statusCode, `${host} ${r.url}: ${res.body}`).toBeLessThan(400);
      }
    }
  });

  it('refuses any other Host with 400 host_not_allowed in the group shape, with the security headers, and runs nothing', async () => {
    for (const host of ['attacker.example', 'localhost', 'localhost:9090', 'evidence.example.attacker.example', '127.0.0.1:8080']) {
      for (const r of routes) {
        const res = await t.app.inject({ method: r.method, url: r.url, headers: { host, accept: 'application/json, text/event-stream' }, ...(r.payload ? { payload: r.payload } : {}) });
        expect(res.statusCode, `${host} ${r.url}`).toBe(400);
        expect(res.headers['x-content-type-options']).toBe('nosniff');
        const body = res.json<Record<string, unknown>>();
        expect(body.code).toBe('host_not_allowed');
        if (r.shape === 'analysis') expect(typeof body.error).toBe('string');
        if (r.shape === 'evidence') expect(typeof body.detail).toBe('string');
        expect(res.body).not.toContain(host.split(':')[0]);
      }
    }
  });
});

describe('a configured list of host names, over a socket', () => {
  let h: FundingHarness;
  beforeAll(async () => {
    h = await openFundingHarness({ mode: 'sample', overSocket: true, config: { allowedHosts: ['127.0.0.1'] } });
    await h.captured();
  });
  afterAll(async () => {
    await h.close();
  });

  it('never revalidates ahead of the router for a Host it does not answer for', async () => {
    const first = await h.get('/v1/funding/latest');
    expect(first.statusCode, first.body).toBe(200);
    const etag = String(first.headers.etag);
    const again = await h.get('/v1/funding/latest', { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    const foreign = await h.get('/v1/funding/latest', { 'if-none-match': etag, host: 'attacker.example' });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json<{ code: string }>().code).toBe('host_not_allowed');
  });
});
