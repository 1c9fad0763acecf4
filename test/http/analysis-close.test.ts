// The analysis group ends the connection after each refusal but 422, as its upstream does
// ("+ close", analysis upstream §2.1–2.2): body bytes it did not read are never taken for a
// next request, and what was pipelined behind the refusal is neither run nor answered.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { exchange, parseResponses, portOf } from '../helpers/raw-http.js';

let t: TestApp;
let port: number;
beforeAll(async () => {
  t = await makeTestApp({ mode: 'sample' });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  port = portOf(t.app);
});
afterAll(async () => t.close());

const NEXT = 'GET /v1/capabilities HTTP/1.1\r\nHost: x\r\n\r\n';
const post = (path: string, body: string, type = 'application/json') =>
  `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: ${type}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;

describe('refusals of the analysis group', () => {
  it.each([
    ['invalid JSON', post('/v1/research/dyson', '{x}'), 400],
    ['invalid JSON at /noisefloor', post('/noisefloor/v1/research/dyson', '{x}'), 400],
    ['a media type other than JSON', post('/v1/market/assess', '{"series": []}', 'text/plain'), 415],
    ['GET on a tool path', 'GET /v1/spectral/assess HTTP/1.1\r\nHost: x\r\n\r\n', 405],
    ['an unknown tool path', post('/noisefloor/v1/nothing', '{}'), 404],
    ['invalid JSON at /mcp', post('/mcp', '{x}'), 400],
    ['GET /mcp', 'GET /mcp HTTP/1.1\r\nHost: x\r\n\r\n', 405],
    ['a path that is no percent-encoded UTF-8', 'POST /v1/market/assess/%ff HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n', 400],
    ['such a path under /noisefloor', 'GET /noisefloor/v1/spectral/%c0%af HTTP/1.1\r\nHost: x\r\n\r\n', 400],
    ['such a path in absolute form', 'GET http://x/v1/market/%ff HTTP/1.1\r\nHost: x\r\n\r\n', 400],
  ])('end the connection after %s, answering nothing pipelined behind', async (_name, request, status) => {
    const got = await exchange(port, request + NEXT, { limitMs: 5000 });
    const responses = parseResponses(got.bytes);
    expect(responses.map((r) => r.status)).toEqual([status]);
    expect(responses[0].headers.connection).toBe('close');
    expect(got.closed).toBe(true);
  });

  it('keep the connection after a 422 and a 200, as the upstream does', async () => {
    const got = await exchange(port, post('/v1/research/dyson', '{"dimension": 0}') + post('/v1/research/dyson', '{"dimension": 3, "steps": 5, "seed": 1}') + NEXT, { limitMs: 5000 });
    const responses = parseResponses(got.bytes);
    expect(responses.map((r) => r.status)).toEqual([422, 200, 200]);
    expect(responses.map((r) => r.headers.connection)).not.toContain('close');
  });

  it('leave other groups\' refusals on a kept connection', async () => {
    const got = await exchange(port, 'GET /v1/funding/nothing HTTP/1.1\r\nHost: x\r\n\r\n' + NEXT, { limitMs: 5000 });
    expect(parseResponses(got.bytes).map((r) => r.status)).toEqual([404, 200]);
  });
});
