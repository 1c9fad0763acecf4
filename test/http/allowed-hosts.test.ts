// EVIDENCE_ALLOWED_HOSTS: with a list, a request naming another host in Host is refused
// 400 host_not_allowed in its group's error shape, by every route (health, analysis,
// funding, data, MCP) and by the revalidation answered ahead of the router; listed hosts
// are served as before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openFundingHarness, type FundingHarness } from '../funding/harness.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { exchange, parseResponses, portOf } from '../helpers/raw-http.js';

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

describe('a configured list of host names, for every way a request names its host', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await makeTestApp({ mode: 'sample', allowedHosts: ['localhost'] });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = portOf(t.app);
  });
  afterAll(async () => {
    await t.close();
  });

  const statusOf = async (head: string, body = '') => {
    const got = await exchange(port, `${head}\r\n${body ? `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n` : ''}Connection: close\r\n\r\n${body}`, { limitMs: 3000 });
    const [response] = parseResponses(got.bytes);
    return { status: response.status, code: (JSON.parse(response.body.toString() || '{}') as { code?: string }).code };
  };
  const keys = async () => Number((await t.storage.db.selectFrom('applications').select(({ fn }) => fn.countAll<number>().as('n')).executeTakeFirst())?.n ?? 0);
  const ENROL = '{"measurement_consent": true}';

  it('takes the host of an absolute-form target instead of Host, as HTTP/1.1 requires', async () => {
    const before = await keys();
    expect(await statusOf('GET http://attacker.example/healthz HTTP/1.1\r\nHost: localhost')).toEqual({ status: 400, code: 'host_not_allowed' });
    expect(await statusOf('POST http://attacker.example/v1/applications HTTP/1.1\r\nHost: localhost', ENROL)).toEqual({ status: 400, code: 'host_not_allowed' });
    expect(await keys()).toBe(before);
    expect((await statusOf('GET http://localhost:9/healthz HTTP/1.1\r\nHost: attacker.example')).status).toBe(200);
    expect((await statusOf('GET http://localhost/healthz HTTP/1.0')).status).toBe(200);
    expect(await statusOf('GET http://user@localhost/healthz HTTP/1.1\r\nHost: localhost')).toMatchObject({ status: 400 });
  });

  it('refuses a request any of whose Host lines names another host (HTTP/1.0 may send several)', async () => {
    const before = await keys();
    for (const hosts of [['localhost', 'attacker.example'], ['attacker.example', 'localhost']]) {
      const head = `POST /v1/applications HTTP/1.0\r\n${hosts.map((h) => `Host: ${h}`).join('\r\n')}`;
      expect(await statusOf(head, ENROL), hosts.join(',')).toEqual({ status: 400, code: 'host_not_allowed' });
    }
    expect(await keys()).toBe(before);
    expect((await statusOf('GET /healthz HTTP/1.0\r\nHost: localhost\r\nHost: LOCALHOST:8080')).status).toBe(200);
    expect(await statusOf('GET /healthz HTTP/1.0')).toEqual({ status: 400, code: 'host_not_allowed' });
  });

  it('refuses OPTIONS * for another host as it refuses every path, without the list of methods', async () => {
    const got = await exchange(port, 'OPTIONS * HTTP/1.1\r\nHost: attacker.example\r\nConnection: close\r\n\r\n', { limitMs: 3000 });
    const [response] = parseResponses(got.bytes);
    expect(response.status).toBe(400);
    expect(JSON.parse(response.body.toString())).toMatchObject({ code: 'host_not_allowed' });
    expect(response.headers.allow).toBeUndefined();
    expect((await statusOf('OPTIONS * HTTP/1.1\r\nHost: localhost')).status).toBe(204);
  });
});
