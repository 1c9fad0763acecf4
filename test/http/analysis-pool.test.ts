// Group A runs on a worker pool with a bounded queue: the same bytes as on the event loop,
// a full queue answered at once with 503 `overloaded` + Retry-After, other routes answered
// while an analysis computes, and a dead worker costing only its own request.
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { closeAnalysisPools } from '../../src/http/analysis/offload.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { narrativeRequest, seriesRequest } from '../helpers/analysis-requests.js';

const JSON_HEADERS = { 'content-type': 'application/json' };
const apps: TestApp[] = [];

afterAll(async () => {
  for (const t of apps) await t.close();
  await closeAnalysisPools();
});

async function app(analysisWorkers: number, analysisQueue = 16): Promise<FastifyInstance> {
  const t = await makeTestApp({ analysisWorkers, analysisQueue });
  apps.push(t);
  return t.app;
}

const post = (a: FastifyInstance, url: string, payload: string) => a.inject({ method: 'POST', url, payload, headers: JSON_HEADERS });

describe('analysis on the worker pool', () => {
  it('answers with the same status, headers and bytes as on the event loop, for results and for every kind of refusal', async () => {
    const pooled = await app(2);
    const inline = await app(0);
    const cases: [string, string][] = [
      ['/v1/market/assess', JSON.stringify(seriesRequest({ series: 3, points: 64, allFields: true }))],
      ['/v1/spectral/assess', JSON.stringify(seriesRequest({ series: 4, points: 256, allFields: true }))],
      ['/v1/narrative/triage', JSON.stringify(narrativeRequest({ events: 40, titleLength: 80 }))],
      ['/v1/research/dyson', '{"dimension": 3, "steps": 5, "seed": 7}'],
      ['/v1/research/dyson', '{"dimension": 3, "dimension": 4}'],
      ['/v1/research/dyson', '{"dimension": NaN}'],
      ['/v1/research/dyson', '{"dimension": "three"}'],
      ['/v1/narrative/triage', '{"events": [{"id": "a", "title": "\\ud800"}], "as_of": "2026-10-08T09:00:00Z"}'],
      ['/v1/market/assess', ''],
      ['/noisefloor/v1/market/assess', '[1, 2'],
    ];
    for (const [url, body] of cases) {
      const [a, b] = [await post(pooled, url, body), await post(inline, url, body)];
      expect(a.statusCode, `${url} ${body.slice(0, 40)}`).toBe(b.statusCode);
      expect(a.rawPayload.equals(b.rawPayload), `${url} ${body.slice(0, 40)}`).toBe(true);
      const { date: _a, ...ha } = a.headers;
      const { date: _b, ...hb } = b.headers;
      expect(ha).toEqual(hb);
    }
  });

  it('lets as many ordinary requests wait as fit in the byte room by default: 48 clients at once on one worker are all answered', async () => {
    const t = await makeTestApp({ analysisWorkers: 1 });
    apps.push(t);
    const body = JSON.stringify(seriesRequest({ series: 2, points: 64, allFields: true }));
    const answers = await Promise.all(Array.from({ length: 48 }, () => post(t.app, '/v1/market/assess', body)));
    expect(answers.map((r) => r.statusCode)).toEqual(new Array(48).fill(200));
  });

  it('refuses at once with 503 overloaded and Retry-After when every worker is busy and the queue is full', async () => {
    const a = await app(1, 0);
    const body = JSON.stringify(seriesRequest({ series: 32, points: 2048, allFields: true }));
    const answers = await Promise.all([0, 1, 2].map(() => post(a, '/v1/spectral/assess', body)));
    const codes = answers.map((r) => r.statusCode).sort();
    expect(codes[0]).toBe(200);
    const refused = answers.filter((r) => r.statusCode === 503);
    expect(refused.length).toBeGreaterThan(0);
    for (const r of refused) {
      expect(r.json()).toEqual({ error: expect.any(String), code: 'overloaded' });
      expect(r.headers['retry-after']).toBe('1');
    }
    // Once the worker is free again, the next request is served.
    expect((await post(a, '/v1/spectral/assess', body)).statusCode).toBe(200);
  });

  it('answers other routes while a maximum-size analysis computes', async () => {
    const a = await app(1);
    // Hundreds of milliseconds of reading, computing and encoding: on the event loop it
    // would hold the timer below and the health check behind it.
    const body = JSON.stringify(seriesRequest({ series: 32, points: 2048, allFields: true }));
    const order: string[] = [];
    const analysis = post(a, '/v1/spectral/assess', body).then((r) => {
      order.push('analysis');
      return r;
    });
    // Let the analysis reach its worker first.
    await new Promise((resolve) => setTimeout(resolve, 30));
    const health = await a.inject({ method: 'GET', url: '/healthz' });
    order.push('healthz');
    expect(health.statusCode).toBe(200);
    expect((await analysis).statusCode).toBe(200);
    expect(order).toEqual(['healthz', 'analysis']);
  });

  it('answers maximum-size requests of every kind, queued behind each other, within the workers’ heap limits', async () => {
    const a = await app(1);
    const series = JSON.stringify(seriesRequest({ series: 32, points: 2048, allFields: true }));
    const narrative = JSON.stringify(narrativeRequest({ events: 500, titleLength: 2000 }));
    const inline = await app(0);
    // Each wave is sent at once and fits the queue's room (three maximum bodies wait beside
    // the running one): one runs, the others wait (their bodies moved to the worker only
    // when their turn comes), and none may run the worker out of heap.
    const waves: [string, string][][] = [
      [['/v1/market/assess', series], ['/v1/spectral/assess', series], ['/v1/spectral/assess', series], ['/v1/narrative/triage', narrative]],
      [['/v1/spectral/assess', series], ['/v1/market/assess', series], ['/v1/spectral/assess', series], ['/v1/market/assess', series]],
    ];
    for (const [w, cases] of waves.entries()) {
      const answers = await Promise.all(cases.map(([url, body]) => post(a, url, body)));
      for (const [i, [url, body]] of cases.entries()) {
        expect(answers[i].statusCode, url).toBe(200);
        if (w === 0 && i !== 2) expect(answers[i].rawPayload.equals((await post(inline, url, body)).rawPayload), url).toBe(true);
      }
    }
  });

  it('refuses a request whose body would not fit before reading a byte of it, and gives the room back when a sender goes away', async () => {
    const a = await app(1, 0);
    await a.listen({ host: '127.0.0.1', port: 0 });
    const { port } = a.server.address() as AddressInfo;
    const head = (length: number) => `POST /v1/spectral/assess HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;
    const connect = () => new Promise<net.Socket>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => resolve(socket));
    });
    const firstAnswer = (socket: net.Socket) => new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (chunk) => {
        text += chunk.toString('latin1');
        if (text.includes('\r\n\r\n')) resolve(text);
      });
    });
    // A sends its headers and a little of a 1 MB body: the one worker's room is its.
    const slow = await connect();
    slow.write(head(1_000_000) + '{"series": [');
    await new Promise((resolve) => setTimeout(resolve, 50));
    // B states a body that cannot be taken: answered now, with nothing of its body sent.
    const refused = await connect();
    const answer = firstAnswer(refused);
    refused.write(head(2_000_000));
    const text = await answer;
    expect(text.startsWith('HTTP/1.1 503')).toBe(true);
    expect(text.toLowerCase()).toContain('retry-after: 1');
    expect(text).toContain('"overloaded"');
    refused.destroy();
    // A gives up: its room comes back, and the next request is served.
    slow.destroy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const body = JSON.stringify(seriesRequest({ series: 2, points: 64 }));
    const served = await fetch(`http://127.0.0.1:${port}/v1/spectral/assess`, { method: 'POST', body, headers: JSON_HEADERS });
    expect(served.status).toBe(200);
  });
});
