// A POST with neither a Content-Type nor a body never reaches a body parser (Fastify
// parses only when a Content-Type is sent), so a handler that reads the raw body must
// refuse it itself. Every POST route, over a socket: never a 500, and where the route
// reads raw bytes (group A, MCP) exactly the answer a body sent without a Content-Type gets.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseStrictJson } from '../../src/core/json.js';
import { lookupError } from '../../src/core/errors.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { exchange, parseResponses, portOf, type RawResponse } from '../helpers/raw-http.js';

let t: TestApp;
let port: number;
beforeAll(async () => {
  // A short keep-alive: each exchange ends when the server closes the idle connection.
  t = await makeTestApp({ keepAliveTimeout: 200 });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  port = portOf(t.app);
});
afterAll(async () => t.close());

async function post(path: string, rest: string): Promise<RawResponse> {
  const got = await exchange(port, `POST ${path} HTTP/1.1\r\nHost: p.test\r\n${rest}`, { end: true, limitMs: 5000 });
  const [first] = parseResponses(got.bytes);
  expect(first, `no answer from ${path}`).toBeDefined();
  return first;
}

function postPaths(): string[] {
  const spec = t.app.swagger() as { paths: Record<string, Record<string, unknown>> };
  return Object.entries(spec.paths).filter(([, ops]) => 'post' in ops).map(([p]) => p.replace(/\{[^}]+\}/g, 'x')).concat('/mcp');
}

describe('a POST without Content-Type and without a body', () => {
  it('gets a coded 4xx from every POST route, never a 500', async () => {
    const paths = postPaths();
    expect(paths.length).toBeGreaterThan(15);
    for (const path of paths) {
      const res = await post(path, 'Connection: close\r\n\r\n');
      expect(res.status, path).toBeGreaterThanOrEqual(400);
      expect(res.status, path).toBeLessThan(500);
      const code = (parseStrictJson(res.body) as { code?: string }).code;
      expect(lookupError(code!)?.status, `${path} answered ${res.status} ${res.body.toString()}`).toBe(res.status);
    }
  });

  it('is refused on the raw-body routes exactly as a body sent without a Content-Type is', async () => {
    for (const path of ['/v1/market/assess', '/noisefloor/v1/spectral/assess', '/v1/narrative/triage', '/v1/tools/ab_test', '/mcp']) {
      const bodyless = await post(path, '\r\n');
      const untyped = await post(path, 'Content-Length: 2\r\n\r\n{}');
      expect(bodyless.status, path).toBe(415);
      expect({ ...bodyless.headers, date: '' }, path).toEqual({ ...untyped.headers, date: '' });
      expect(bodyless.body.toString(), path).toBe(untyped.body.toString());
    }
  });
});
