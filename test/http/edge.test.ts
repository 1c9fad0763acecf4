// What the edge answers to requests that never reach a route: raw bytes over a real
// socket to a listening app with short, configured timeouts. Every refusal is a coded
// error body with the security headers; where the framing can no longer be trusted the
// connection is closed; nothing waits past the configured deadlines.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import http from 'node:http';
import net from 'node:net';
import { parseStrictJson } from '../../src/core/json.js';
import { lookupError } from '../../src/core/errors.js';
import { MAX_HEADER_BYTES } from '../../src/http/edge.js';
import { MAX_PIPELINED, OVERFLOW_GRACE_MS } from '../../src/http/pipelining.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { exchange, parseResponses, portOf, type RawResponse } from '../helpers/raw-http.js';

const TIMEOUTS = { headersTimeout: 400, requestTimeout: 900, keepAliveTimeout: 300 };
// Node looks for overdue connections a quarter of the shortest deadline apart, and keeps an
// idle connection one second past the advertised keep-alive: generous upper bounds for
// "was cut", never a speed assertion.
const CUT_WITHIN_MS = 5_000;

let t: TestApp;
let port: number;
/** Requests /test/hit has answered: a request that ran. */
let hits = 0;
/** Runs of /test/big, whose answer is larger than what socket buffers hold. */
let bigRuns = 0;
const BIG_BYTES = 8 * 1024 * 1024;
beforeAll(async () => {
  t = await makeTestApp({ ...TIMEOUTS, bodyLimit: 4096 }, {
    beforeReady(app) {
      app.post('/test/echo', async (request) => ({ received: request.body }));
      app.get('/test/hit', async () => ({ hits: ++hits }));
      // Answered at the headers, before its body is read (as a full analysis queue answers).
      app.post('/test/early', { onRequest: (_request, reply) => void reply.code(403).send({ early: true }) }, async () => ({ late: true }));
      app.get('/test/big', async (_request, reply) => {
        bigRuns++;
        return reply.type('application/octet-stream').send(Buffer.alloc(BIG_BYTES, 0x61));
      });
      app.get('/test/slow', async () => {
        await new Promise((r) => setTimeout(r, 400));
        return { ok: true };
      });
    },
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = portOf(t.app);
});
afterAll(async () => t.close());

function expectRefusal(res: RawResponse, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(lookupError(code)?.status).toBe(status);
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  const body = parseStrictJson(res.body) as Record<string, unknown>;
  expect(body.code).toBe(code);
  return body;
}

const host = 'Host: edge.test\r\n';

describe('requests the HTTP parser refuses', () => {
  it.each([
    ['two different Content-Length headers', `POST /test/echo HTTP/1.1\r\n${host}Content-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}`, 400, 'bad_framing'],
    ['Content-Length with Transfer-Encoding', `POST /test/echo HTTP/1.1\r\n${host}Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`, 400, 'bad_framing'],
    ['a Content-Length that is not a number', `POST /test/echo HTTP/1.1\r\n${host}Content-Length: 1x\r\n\r\n{}`, 400, 'bad_framing'],
    ['a chunk size that is not hexadecimal', `POST /test/echo HTTP/1.1\r\n${host}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`, 400, 'bad_framing'],
    ['chunk data not followed by CRLF', `POST /test/echo HTTP/1.1\r\n${host}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}XX0\r\n\r\n`, 400, 'bad_framing'],
    ['a chunk size line ended by LF alone', `POST /test/echo HTTP/1.1\r\n${host}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n2\n{}\r\n0\r\n\r\n`, 400, 'bad_framing'],
    ['a control byte in a chunk extension', `POST /test/echo HTTP/1.1\r\n${host}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n2;a\x01b\r\n{}\r\n0\r\n\r\n`, 400, 'bad_framing'],
    ['a transfer coding that does not end in chunked', `POST /test/echo HTTP/1.1\r\n${host}Transfer-Encoding: gzip\r\n\r\n{}`, 400, 'bad_framing'],
    ['a control byte in a header name', `GET /healthz HTTP/1.1\r\n${host}X-A\x01b: 1\r\n\r\n`, 400, 'malformed_request'],
    ['a NUL in a header value', `GET /healthz HTTP/1.1\r\n${host}X-A: a\x00b\r\n\r\n`, 400, 'malformed_request'],
    ['a header line folded onto the next (obs-fold)', `GET /healthz HTTP/1.1\r\n${host}X-A: a\r\n  b\r\n\r\n`, 400, 'malformed_request'],
    ['a header line without a colon', `GET /healthz HTTP/1.1\r\n${host}nonsense\r\n\r\n`, 400, 'malformed_request'],
    ['an HTTP version that does not exist', `GET /healthz HTTP/1.2\r\n${host}\r\n`, 400, 'malformed_request'],
    ['a version that is not one', `GET /healthz HTTP/x.y\r\n${host}\r\n`, 400, 'malformed_request'],
    ['a method HTTP does not define', `BREW /healthz HTTP/1.1\r\n${host}\r\n`, 405, 'unsupported_method'],
    ['a method in lower case (another token)', `get /healthz HTTP/1.1\r\n${host}\r\n`, 405, 'unsupported_method'],
    ['a known method with token characters after it', `GETX /healthz HTTP/1.1\r\n${host}\r\n`, 405, 'unsupported_method'],
    ['a TLS handshake (no method at all)', '\x16\x03\x01\x00\x05hello', 400, 'malformed_request'],
    ['a JSON body where the request line belongs', `{"a":1} / HTTP/1.1\r\n${host}\r\n`, 400, 'malformed_request'],
    ['markup where the method belongs', `<html> / HTTP/1.1\r\n${host}\r\n`, 400, 'malformed_request'],
    ['a method with a byte no token has', `G@T /healthz HTTP/1.1\r\n${host}\r\n`, 400, 'malformed_request'],
    ['a method whose first bytes are token characters and a later one is not', `ZQ<x /healthz HTTP/1.1\r\n${host}\r\n`, 400, 'malformed_request'],
    ['a known method followed by markup', `GET<script> /healthz HTTP/1.1\r\n${host}\r\n`, 400, 'malformed_request'],
    ['raw non-ASCII bytes in the path', `GET /caf\xe9 HTTP/1.1\r\n${host}\r\n`, 400, 'malformed_url'],
    ['a space inside the path', `GET /a b/c HTTP/1.1\r\n${host}\r\n`, 400, 'malformed_request'],
  ])('%s: a coded refusal, then the connection is closed', async (_name, request, status, code) => {
    const got = await exchange(port, request);
    expect(got.closed).toBe(true);
    const responses = parseResponses(got.bytes);
    expect(responses).toHaveLength(1);
    expectRefusal(responses[0], status, code);
    expect(responses[0].headers.connection).toBe('close');
  });

  it('calls a method unknown (405) exactly when all of its bytes are token characters, and malformed (400) otherwise', async () => {
    const tchars = "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    const others = '<>@()[]{}"/\\,;:=?\x7f\x01\xe9';
    const known = new Set(http.METHODS);
    await fc.assert(fc.asyncProperty(
      fc.array(fc.oneof({ arbitrary: fc.constantFrom(...tchars), weight: 6 }, fc.constantFrom(...others)), { minLength: 1, maxLength: 8 }).map((c) => c.join('')),
      async (method) => {
        fc.pre(!known.has(method));
        const [res] = parseResponses((await exchange(port, `${method} /healthz HTTP/1.1\r\n${host}\r\n`)).bytes);
        const token = [...method].every((c) => tchars.includes(c));
        expectRefusal(res, token ? 405 : 400, token ? 'unsupported_method' : 'malformed_request');
      },
    ), { numRuns: 60 });
  });

  it('lists the methods the service accepts when it refuses an unknown one', async () => {
    const [res] = parseResponses((await exchange(port, `BREW / HTTP/1.1\r\n${host}\r\n`)).bytes);
    expect(res.headers.allow).toBe('DELETE, GET, HEAD, OPTIONS, POST');
  });

  it('answers headers over the limit with 431 and a code, read by a client still writing them', async () => {
    const big = `GET /healthz HTTP/1.1\r\n${host}X-Big: ${'a'.repeat(MAX_HEADER_BYTES + 4096)}\r\n\r\n`;
    const got = await exchange(port, big);
    expect(got.closed).toBe(true);
    const [res] = parseResponses(got.bytes);
    expectRefusal(res, 431, 'header_too_large');
    expect(res.headers.connection).toBe('close');
  });

  it('answers a request cut off by the end of the stream with a framing refusal', async () => {
    const got = await exchange(port, `POST /test/echo HTTP/1.1\r\n${host}Content-Type: application/json\r\nContent-Length: 10\r\n\r\n{"a"`, { end: true });
    expect(got.closed).toBe(true);
    const responses = parseResponses(got.bytes);
    // The body never completed: whichever layer notices first, the answer is coded or the close is clean.
    for (const res of responses) expect(typeof (parseStrictJson(res.body) as { code?: unknown }).code).toBe('string');
  });

  it('answers an undecodable path alike for methods with and without routes, with the edge headers', async () => {
    for (const method of ['GET', 'PUT', 'PATCH', 'TRACE']) {
      for (const [path, extra] of [['/%%ff%zz/', ''], ['/noisefloor/%zz', ''], ['/%ff', 'Upgrade: websocket\r\nConnection: Upgrade\r\n']]) {
        const got = await exchange(port, `${method} ${path} HTTP/1.1\r\n${host}${extra}\r\n`);
        const [res] = parseResponses(got.bytes);
        expectRefusal(res, 400, 'malformed_url');
        if (extra !== '') expect(res.headers.connection, `${method} ${path}`).toBe('close');
      }
    }
  });

  it('answers a refused HEAD request with the headers alone', async () => {
    for (const request of [`HEAD /healthz HTTP/1.1\r\n${host}X-A: a\r\n b\r\n\r\n`, `HEAD /healthz HTTP/1.1\r\n${host}Content-Length: 1\r\nContent-Length: 2\r\n\r\n`]) {
      const got = await exchange(port, request);
      expect(got.closed).toBe(true);
      const text = got.bytes.toString('latin1');
      const head = text.slice(0, text.indexOf('\r\n\r\n') + 4);
      expect(text).toBe(head);
      expect(head).toMatch(/^HTTP\/1\.1 400 /);
      expect(head.toLowerCase()).toContain('x-content-type-options: nosniff');
      expect(Number(/content-length: (\d+)/i.exec(head)?.[1])).toBeGreaterThan(0);
    }
  });

  /**
   * Splits what came back into answers, reading each with the method of its request (a HEAD
   * answer has no body, whatever its Content-Length says); what is left after the last is returned too.
   */
  function answersFor(bytes: Buffer, methods: string[]): { heads: string[]; rest: string } {
    let text = bytes.toString('latin1');
    const heads: string[] = [];
    for (const method of methods) {
      const end = text.indexOf('\r\n\r\n');
      if (end === -1) break;
      const head = text.slice(0, end + 4);
      heads.push(head);
      const length = method === 'HEAD' ? 0 : Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
      text = text.slice(end + 4 + length);
    }
    return { heads, rest: text };
  }

  it('sends a refusal without its body only when the refused request is certainly a HEAD', async () => {
    const broken = [
      (method: string) => `${method} /healthz HTTP/1.1\r\n${host}X-A: a\r\n b\r\n\r\n`,
      (method: string) => `${method} /healthz HTTP/1.1\r\n${host}Content-Length: 1\r\nContent-Length: 2\r\n\r\n`,
      (method: string) => `${method} /healthz HTTP/1.1\r\n${host}X-\u0001: 1\r\n\r\n`,
    ];
    // [what is sent, the method each answer is read with, whether the refusal must come without a body]
    const cases: Array<[Array<string>, string[], boolean]> = [];
    for (const make of broken) {
      // The first request of a connection, in its first packet: its method is certain.
      cases.push([[make('HEAD')], ['HEAD'], true], [[make('GET')], ['GET'], false]);
      // Behind another request, or split over packets: not certain, so answered with a body.
      for (const first of ['HEAD', 'GET']) {
        for (const refused of ['HEAD', 'GET']) cases.push([[`${first} /healthz HTTP/1.1\r\n${host}\r\n${make(refused)}`], [first, 'GET'], false]);
      }
      cases.push([['HEAD /healthz HTTP/1.1\r\n', make('HEAD').slice('HEAD /healthz HTTP/1.1\r\n'.length)], ['GET'], false]);
    }
    // Text that only looks like a HEAD: a body, or a header value starting a packet.
    cases.push(
      [[`POST /test/echo HTTP/1.1\r\n${host}Content-Type: text/plain\r\nContent-Length: 9\r\n\r\n\r\n\r\nHEAD GET /healthz HTTP/1.1\r\n${host}Content-Length: abc\r\n\r\n`], ['POST', 'GET'], false],
      [[`GET /healthz HTTP/1.1\r\n${host}X-Note: `, 'HEAD \r\nContent-Length: abc\r\n\r\n'], ['GET'], false],
      // A HEAD whose head was read and whose chunked body broke: its method is known.
      [[`HEAD /healthz HTTP/1.1\r\n${host}Transfer-Encoding: chunked\r\n\r\nzz\r\n`], ['HEAD'], true],
    );
    for (const [pieces, methods, headersOnly] of cases) {
      const got = await exchange(port, pieces, { pauseMs: 30 });
      const label = JSON.stringify(pieces);
      expect(got.closed, label).toBe(true);
      const { heads, rest } = answersFor(got.bytes, methods);
      const refusal = heads[heads.length - 1];
      expect(refusal, label).toMatch(/^HTTP\/1\.1 400 /);
      const length = Number(/content-length: (\d+)/i.exec(refusal)?.[1]);
      expect(length, label).toBeGreaterThan(0);
      // Read with its request's method, the refusal is the last thing sent: nothing short, nothing after.
      expect(rest, label).toBe('');
      const after = got.bytes.toString('latin1');
      const bodyBytes = after.length - (after.lastIndexOf(refusal) + refusal.length);
      expect(bodyBytes, label).toBe(headersOnly ? 0 : length);
    }
  });

  it('never reflects the request bytes it refused', async () => {
    const marker = '"</x>\\u0000';
    for (const request of [
      `GET /${marker} HTTP/1.1\r\n${host}\r\n`,
      `GET /healthz HTTP/1.1\r\n${host}X-${marker}: 1\r\n\r\n`,
      `GET /%%ff%zz/${encodeURIComponent(marker)} HTTP/1.1\r\n${host}\r\n`,
    ]) {
      const got = await exchange(port, request);
      const [res] = parseResponses(got.bytes);
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(() => parseStrictJson(res.body)).not.toThrow();
      expect(res.body.toString('latin1')).not.toContain('</x>');
    }
  });
});

describe('requests Node answered or dropped by itself', () => {
  it('answers a Host that holds no host (user information, spaces, a path) with 400 invalid_host', async () => {
    for (const value of ['user@127.0.0.1', 'a b', 'x/y?z', '<x>', 'edge.test:80:81']) {
      for (const version of ['1.1', '1.0']) {
        const [res] = parseResponses((await exchange(port, `GET /healthz HTTP/${version}\r\nHost: ${value}\r\n\r\n`)).bytes);
        expectRefusal(res, 400, 'invalid_host');
        expect(res.body.toString()).not.toContain(value);
      }
    }
    for (const target of ['http://u@edge.test/healthz', 'http://a%zz/healthz', 'http://[fe80::1%25eth0]/healthz']) {
      const [res] = parseResponses((await exchange(port, `GET ${target} HTTP/1.1\r\n${host}\r\n`)).bytes);
      expectRefusal(res, 400, 'invalid_host');
    }
    for (const value of ['edge.test:8080', '[::1]:8080', '127.0.0.1', 'a,b', 'edge.test:']) {
      const [res] = parseResponses((await exchange(port, `GET /healthz HTTP/1.1\r\nHost: ${value}\r\nConnection: close\r\n\r\n`)).bytes);
      expect(res.status, value).toBe(200);
    }
  });

  it('answers HTTP/1.1 without Host with 400 invalid_host', async () => {
    const got = await exchange(port, 'GET /healthz HTTP/1.1\r\n\r\n');
    const [res] = parseResponses(got.bytes);
    expectRefusal(res, 400, 'invalid_host');
    expect(res.headers.connection).toBe('close');
    expect(got.closed).toBe(true);
  });

  it('answers two Host headers with 400 invalid_host, and HTTP/1.0 without Host normally', async () => {
    const [two] = parseResponses((await exchange(port, `GET /healthz HTTP/1.1\r\n${host}Host: other.test\r\n\r\n`)).bytes);
    expectRefusal(two, 400, 'invalid_host');
    const [old] = parseResponses((await exchange(port, 'GET /healthz HTTP/1.0\r\n\r\n')).bytes);
    expect(old.status).toBe(200);
  });

  it('answers an Expect other than 100-continue with 417 expectation_failed', async () => {
    const got = await exchange(port, `GET /healthz HTTP/1.1\r\n${host}Expect: teapot\r\n\r\n`);
    const [res] = parseResponses(got.bytes);
    expectRefusal(res, 417, 'expectation_failed');
    expect(got.closed).toBe(true);
  });

  it('still meets Expect: 100-continue', async () => {
    const got = await exchange(port, [`POST /test/echo HTTP/1.1\r\n${host}Content-Type: application/json\r\nContent-Length: 8\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`, '{"a": 1}'], { pauseMs: 50 });
    const responses = parseResponses(got.bytes);
    expect(responses.map((r) => r.status)).toEqual([100, 200]);
    expect(JSON.parse(responses[1].body.toString())).toEqual({ received: { a: 1 } });
  });

  it('answers an Expect that only holds 100-continue among other text with 417, sending no 100', async () => {
    for (const value of ['foo-100-continue', '100-continue, foo', '100-continue;q=1', 'x 100-continue y']) {
      const got = await exchange(port, `POST /test/echo HTTP/1.1\r\n${host}Content-Type: application/json\r\nContent-Length: 8\r\nExpect: ${value}\r\n\r\n{"a": 1}`);
      const responses = parseResponses(got.bytes);
      expect(responses.map((r) => r.status), value).toEqual([417]);
      expectRefusal(responses[0], 417, 'expectation_failed');
    }
    const cased = parseResponses((await exchange(port, [`POST /test/echo HTTP/1.1\r\n${host}Content-Type: application/json\r\nContent-Length: 8\r\nExpect: 100-Continue\r\nConnection: close\r\n\r\n`, '{"a": 1}'], { pauseMs: 50 })).bytes);
    expect(cased.map((r) => r.status)).toEqual([100, 200]);
  });

  it('keeps the connection of a request without a body that expects 100-continue, answering what is pipelined behind it', async () => {
    for (const first of ['GET /healthz', 'HEAD /healthz', 'GET /nowhere', 'DELETE /test/hit']) {
      const got = await exchange(port, `${first} HTTP/1.1\r\n${host}Expect: 100-continue\r\n\r\nGET /healthz HTTP/1.1\r\n${host}Expect: 100-continue\r\nContent-Length: 0\r\n\r\nGET /healthz HTTP/1.1\r\n${host}Connection: close\r\n\r\n`);
      const responses = parseResponses(got.bytes, new Set(first.startsWith('HEAD') ? [0] : []));
      expect(responses.map((r) => r.status).slice(1), first).toEqual([200, 200]);
      expect(responses[0].headers.connection, first).not.toBe('close');
      expect(responses.some((r) => r.status === 100), first).toBe(false);
    }
  });

  it('sends no 100 Continue to a request refused at its headers (a body over the limit)', async () => {
    const got = await exchange(port, `POST /test/echo HTTP/1.1\r\n${host}Content-Type: application/json\r\nContent-Length: 999999999\r\nExpect: 100-continue\r\n\r\n`, { limitMs: CUT_WITHIN_MS });
    const responses = parseResponses(got.bytes);
    expect(responses.map((r) => r.status)).toEqual([413]);
    expect(got.closed).toBe(true);
  });

  it.each([
    ['a path nothing serves', 'POST /test/nowhere', 'application/json', 404, 'route_not_found'],
    ['a method the path does not take', 'PUT /test/echo', 'application/json', 405, 'method_not_allowed'],
    ['a media type no parser takes', 'POST /test/echo', 'text/plain', 415, 'unsupported_media_type'],
    ['an analysis tool that does not exist', 'POST /v1/tools/no_such_tool', 'application/json', 404, 'unknown_tool'],
  ])('sends no 100 Continue to %s, and answers without waiting for the body', async (_name, line, type, status, code) => {
    // The body is never sent: an answer that waited for it would not come within the limit.
    const got = await exchange(port, `${line} HTTP/1.1\r\n${host}Content-Type: ${type}\r\nContent-Length: 8\r\nExpect: 100-continue\r\n\r\n`, { limitMs: CUT_WITHIN_MS });
    const responses = parseResponses(got.bytes);
    expect(responses.map((r) => r.status)).toEqual([status]);
    expectRefusal(responses[0], status, code);
    expect(got.closed).toBe(true);
  });

  it('answers a request to a path nothing serves at once, and keeps the connection usable after its body', async () => {
    const got = await exchange(port, `POST /test/nowhere HTTP/1.1\r\n${host}Content-Type: application/json\r\nContent-Length: 8\r\n\r\n{"a": 1}GET /healthz HTTP/1.1\r\n${host}Connection: close\r\n\r\n`);
    const responses = parseResponses(got.bytes);
    expect(responses.map((r) => r.status)).toEqual([404, 200]);
  });

  const UPGRADE_BODIES = [
    ['chunked', 'Transfer-Encoding: chunked', '8\r\n{"a": 1}\r\n0\r\n\r\n'],
    ['a Content-Length', 'Content-Length: 8', '{"a": 1}'],
  ] as const;
  const UPGRADE_HEADERS = ['Upgrade: x\r\n', 'Upgrade: h2c\r\nConnection: Upgrade, HTTP2-Settings\r\nHTTP2-Settings: AAMAAABkAAQCAAAAAAIAAAAA\r\n'];

  it.each(UPGRADE_BODIES)('reads the body of an upgrade request (%s), answers it, then closes without running what follows', async (_name, framing, body) => {
    for (const upgrade of UPGRADE_HEADERS) {
      const before = hits;
      const got = await exchange(port, `POST /test/echo HTTP/1.1\r\n${host}${upgrade}Content-Type: application/json\r\n${framing}\r\n\r\n${body}GET /test/hit HTTP/1.1\r\n${host}\r\n`, { end: false, limitMs: CUT_WITHIN_MS });
      expect(got.closed, upgrade).toBe(true);
      const responses = parseResponses(got.bytes);
      expect(responses.map((r) => r.status), upgrade).toEqual([200]);
      expect(responses[0].headers.connection).toBe('close');
      expect(parseStrictJson(responses[0].body)).toEqual({ received: { a: 1 } });
      expect(hits, upgrade).toBe(before);
    }
  });

  it.each(UPGRADE_BODIES)('answers 408 to an upgrade request whose announced body (%s) never arrives, then closes', async (_name, framing) => {
    for (const upgrade of UPGRADE_HEADERS) {
      const got = await exchange(port, `POST /test/echo HTTP/1.1\r\n${host}${upgrade}Content-Type: application/json\r\n${framing}\r\n\r\n`, { end: false, limitMs: CUT_WITHIN_MS });
      expect(got.closed, upgrade).toBe(true);
      const responses = parseResponses(got.bytes);
      expect(responses, upgrade).toHaveLength(1);
      expectRefusal(responses[0], 408, 'request_timeout');
    }
  });

  it('answers CONNECT with 405 unsupported_method instead of dropping it', async () => {
    const got = await exchange(port, 'CONNECT example.org:443 HTTP/1.1\r\nHost: example.org:443\r\n\r\n');
    expect(got.closed).toBe(true);
    const [res] = parseResponses(got.bytes);
    expectRefusal(res, 405, 'unsupported_method');
    expect(res.headers.allow).toBe('DELETE, GET, HEAD, OPTIONS, POST');
  });

  it('answers an upgrade request, then closes, so what follows it cannot hang', async () => {
    const got = await exchange(port, `GET /healthz HTTP/1.1\r\n${host}Connection: Upgrade\r\nUpgrade: websocket\r\n\r\nNOT HTTP AT ALL\r\n\r\n`);
    expect(got.closed).toBe(true);
    expect(got.elapsedMs).toBeLessThan(CUT_WITHIN_MS);
    const responses = parseResponses(got.bytes);
    expect(responses.map((r) => r.status)).toEqual([200]);
    expect(responses[0].headers.connection).toBe('close');
  });

  it('refuses request lines of another HTTP version that the parser reads anyway (none, 0.9, 2.0), and closes', async () => {
    for (const line of ['GET /healthz', 'GET /healthz HTTP/0.9', 'GET /healthz HTTP/2.0', 'POST /test/echo HTTP/2.0']) {
      // Two Host lines: served as HTTP/1.x, they used to escape the one-Host rule too.
      const got = await exchange(port, `${line}\r\n${host}Host: other.test\r\n\r\n`);
      expect(got.closed, line).toBe(true);
      const responses = parseResponses(got.bytes);
      expect(responses, line).toHaveLength(1);
      expectRefusal(responses[0], 400, 'malformed_request');
      expect(responses[0].headers.connection).toBe('close');
    }
  });

  it('refuses a target that starts with * (the asterisk form is OPTIONS * alone), since the router reads the * as /', async () => {
    for (const target of ['*healthz', '*test/hit', '*', '**healthz', '*/healthz', '*?x=1']) {
      for (const method of ['GET', 'HEAD', 'POST']) {
        const got = await exchange(port, `${method} ${target} HTTP/1.1\r\n${host}Content-Length: 0\r\nConnection: close\r\n\r\n`);
        const [res] = parseResponses(got.bytes, method === 'HEAD' ? new Set([0]) : new Set());
        expect(res.status, `${method} ${target}`).toBe(400);
        if (method !== 'HEAD') expectRefusal(res, 400, 'malformed_url');
      }
    }
    expect(hits).toBe(0);
  });

  it('refuses a target holding a raw # (no fragment is ever sent), wherever it stands, without running the route', async () => {
    for (const target of ['/test/hit#x', '/api/v1/query#dataset=money_markets&limit=1', '/healthz?a=1#b', '/v1/funding/changes#since=x', `/healthz#${'a'.repeat(6000)}`]) {
      const before = hits;
      const [res] = parseResponses((await exchange(port, `GET ${target} HTTP/1.1\r\n${host}Connection: close\r\n\r\n`)).bytes);
      expectRefusal(res, 400, 'malformed_url');
      expect(res.body.toString()).not.toContain('money_markets');
      expect(hits).toBe(before);
    }
    const [encoded] = parseResponses((await exchange(port, `GET /healthz?a=%23 HTTP/1.1\r\n${host}Connection: close\r\n\r\n`)).bytes);
    expect(encoded.status).toBe(200);
  });

  it('answers OPTIONS * with 204 and the methods the service accepts', async () => {
    const got = await exchange(port, `OPTIONS * HTTP/1.1\r\n${host}Connection: close\r\n\r\n`);
    const [res] = parseResponses(got.bytes);
    expect(res.status).toBe(204);
    expect(res.headers.allow).toBe('DELETE, GET, HEAD, OPTIONS, POST');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.body.length).toBe(0);
  });

  it('answers a client that closes its sending side right after the request', async () => {
    for (const trailing of ['', 'NOT HTTP\r\n']) {
      const got = await exchange(port, `GET /test/slow HTTP/1.1\r\n${host}\r\n${trailing}`, { end: true });
      expect(got.closed).toBe(true);
      const responses = parseResponses(got.bytes);
      expect(responses[0].status).toBe(200);
      expect(JSON.parse(responses[0].body.toString())).toEqual({ ok: true });
      // What followed it is refused after the answer, or (Node ends a half-closed connection
      // after its last answer) the connection simply closes; never an answer out of order.
      expect(responses.length).toBeLessThanOrEqual(trailing === '' ? 1 : 2);
      if (responses[1]) expectRefusal(responses[1], 405, 'unsupported_method');
    }
  });

  it('still answers pipelined requests on one connection', async () => {
    const got = await exchange(port, `GET /healthz HTTP/1.1\r\n${host}\r\nGET /nowhere HTTP/1.1\r\n${host}\r\nGET /healthz HTTP/1.1\r\n${host}Connection: close\r\n\r\n`);
    expect(parseResponses(got.bytes).map((r) => r.status)).toEqual([200, 404, 200]);
  });

  it('answers every request pipelined ahead of a malformed one, including those behind an answer written at once', async () => {
    // A 404 or 405 is written before the next request is read; the answer to the request
    // after it is queued behind, and must still come before the refusal.
    for (const [first, firstStatus] of [['GET /nowhere', 404], ['POST /healthz', 405], ['DELETE /healthz', 405]] as const) {
      const got = await exchange(port, `${first} HTTP/1.1\r\n${host}\r\nGET /healthz HTTP/1.1\r\n${host}\r\nGET /x HTTP/1.1\r\n${host}X: a\x00b\r\n\r\n`);
      expect(got.closed).toBe(true);
      const responses = parseResponses(got.bytes);
      expect(responses.map((r) => r.status), first).toEqual([firstStatus, 200, 400]);
      expectRefusal(responses[2], 400, 'malformed_request');
    }
  });

  it('answers a request pipelined ahead of CONNECT before refusing the CONNECT', async () => {
    const got = await exchange(port, `GET /healthz HTTP/1.1\r\n${host}\r\nCONNECT example.org:443 HTTP/1.1\r\nHost: example.org:443\r\n\r\n`);
    expect(got.closed).toBe(true);
    const responses = parseResponses(got.bytes);
    expect(responses.map((r) => r.status)).toEqual([200, 405]);
    expectRefusal(responses[1], 405, 'unsupported_method');
  });

  it('refuses a transfer coding other than chunked, even one Node would read as chunked, and closes', async () => {
    for (const coding of ['gzip, chunked', 'foo, chunked', 'chunked, chunked', 'gzip']) {
      const got = await exchange(port, `POST /test/echo HTTP/1.1\r\n${host}Content-Type: application/json\r\nTransfer-Encoding: ${coding}\r\n\r\n2\r\n{}\r\n0\r\n\r\n`);
      expect(got.closed, coding).toBe(true);
      const responses = parseResponses(got.bytes);
      expect(responses.length, coding).toBe(1);
      expectRefusal(responses[0], 400, 'bad_framing');
    }
    // Plain chunked, in any letter case, is read as before.
    const got = await exchange(port, `POST /test/echo HTTP/1.1\r\n${host}Content-Type: application/json\r\nTransfer-Encoding: Chunked\r\nConnection: close\r\n\r\n2\r\n{}\r\n0\r\n\r\n`);
    expect(parseResponses(got.bytes).map((r) => r.status)).toEqual([200]);
  });

  it('answers a pipelined malformed request after a good one, and closes', async () => {
    const got = await exchange(port, `GET /healthz HTTP/1.1\r\n${host}\r\nGET /x HTTP/1.1\r\n${host}X: a\r\n b\r\n\r\n`);
    expect(got.closed).toBe(true);
    const responses = parseResponses(got.bytes);
    expect(responses.map((r) => r.status)).toEqual([200, 400]);
    expectRefusal(responses[1], 400, 'malformed_request');
  });
});

describe('pipelined requests', () => {
  it('runs each only once the answer before it is handed to the socket, so a client that never reads holds one answer', async () => {
    bigRuns = 0;
    // The server's side of the connection: a client that does not read never sees the close.
    const serverSide = new Promise<net.Socket>((resolve) => t.app.server.once('connection', resolve));
    const socket = net.connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.pause(); // never reads
    socket.on('error', () => undefined);
    socket.write(`GET /test/big HTTP/1.1\r\n${host}\r\n`.repeat(20));
    const ours = await serverSide;
    const closed = new Promise<number>((resolve) => (ours.destroyed ? resolve(Date.now()) : ours.once('close', () => resolve(Date.now()))));
    const started = Date.now();
    await new Promise((r) => setTimeout(r, 600));
    // The first answer (8 MiB) cannot leave the socket buffers while the client does not read.
    expect(bigRuns).toBe(1);
    // And the client that stopped reading is cut at the inactivity limit.
    const cutAfter = (await Promise.race([closed, new Promise<number>((r) => setTimeout(() => r(NaN), CUT_WITHIN_MS))])) - started;
    socket.destroy();
    expect(cutAfter).toBeLessThan(CUT_WITHIN_MS);
    expect(bigRuns).toBe(1);
  });

  it('answers pipelined requests in order when the client reads', async () => {
    hits = 0;
    const got = await exchange(port, `GET /test/hit HTTP/1.1\r\n${host}\r\n`.repeat(10) + `GET /test/hit HTTP/1.1\r\n${host}Connection: close\r\n\r\n`);
    const responses = parseResponses(got.bytes);
    expect(responses.map((r) => JSON.parse(r.body.toString()).hits)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
  });

  it('past the limit, answers the requests admitted so far, closes, and never runs the rest', async () => {
    hits = 0;
    const got = await exchange(port, `GET /test/hit HTTP/1.1\r\n${host}\r\n`.repeat(MAX_PIPELINED + 40));
    expect(got.closed).toBe(true);
    const responses = parseResponses(got.bytes);
    // One read normally holds all of them (then exactly MAX_PIPELINED are admitted); a read
    // split by the network admits a few more while the first answers go out.
    expect(responses.length).toBeGreaterThanOrEqual(MAX_PIPELINED);
    expect(responses.length).toBeLessThan(MAX_PIPELINED + 40);
    expect(responses.map((r) => r.status)).toEqual(new Array(responses.length).fill(200));
    expect(responses.at(-1)!.headers.connection).toBe('close');
    expect(hits).toBe(responses.length);
  });
});

describe('pipelining past the limit without reading', () => {
  it('cuts the connection after a short grace, not at the idle limit, and routes none of the requests past the limit', async () => {
    let runs = 0;
    const patient = await makeTestApp({ requestTimeout: 30_000, headersTimeout: 20_000 }, {
      beforeReady(app) {
        app.get('/test/big', async (_request, reply) => {
          runs++;
          return reply.type('application/octet-stream').send(Buffer.alloc(BIG_BYTES, 0x62));
        });
      },
    });
    try {
      await patient.app.listen({ port: 0, host: '127.0.0.1' });
      const serverSide = new Promise<net.Socket>((resolve) => patient.app.server.once('connection', resolve));
      const socket = net.connect(portOf(patient.app), '127.0.0.1');
      socket.on('error', () => undefined);
      await new Promise((resolve) => socket.once('connect', resolve));
      socket.pause();
      const started = Date.now();
      socket.write(`GET /test/big HTTP/1.1\r\n${host}\r\n`.repeat(MAX_PIPELINED * 20));
      const ours = await serverSide;
      await new Promise((resolve) => (ours.destroyed ? resolve(undefined) : ours.once('close', resolve)));
      socket.destroy();
      expect(Date.now() - started).toBeLessThan(OVERFLOW_GRACE_MS + 3_000);
      expect(runs).toBe(1);
    } finally {
      await patient.close();
    }
  });
});

describe('header sections Node reads only in part', () => {
  // Node kept the first 1000 header lines and measured only names and values: checks that
  // read the headers did not see a line past the thousandth, and 8000 short lines passed.
  const filler = (lines: number) => 'a0: b\r\n'.repeat(lines);

  it('sees a second Host, a transfer coding or an expectation after a thousand other lines', async () => {
    const cases: [string, number, string][] = [
      [`GET /healthz HTTP/1.1\r\n${host}${filler(1100)}Host: other.test\r\n\r\n`, 400, 'invalid_host'],
      [`POST /test/echo HTTP/1.1\r\n${host}Content-Type: application/json\r\n${filler(1100)}Transfer-Encoding: gzip, chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n`, 400, 'bad_framing'],
      [`GET /healthz HTTP/1.1\r\n${host}${filler(1100)}Expect: bogus\r\n\r\n`, 417, 'expectation_failed'],
    ];
    for (const [request, status, code] of cases) {
      const got = await exchange(port, request);
      expect(got.closed, code).toBe(true);
      const responses = parseResponses(got.bytes);
      expect(responses, code).toHaveLength(1);
      expectRefusal(responses[0], status, code);
    }
  });

  it('refuses a header section over the limit as written, however short its lines, with 431 and close', async () => {
    for (const lines of [4000, 8000]) {
      const got = await exchange(port, `GET /healthz HTTP/1.1\r\n${host}${'a:b\r\n'.repeat(lines)}\r\n`);
      expect(got.closed).toBe(true);
      const [res] = parseResponses(got.bytes);
      expectRefusal(res, 431, 'header_too_large');
    }
    // Just under the limit as written is served.
    const line = 'a:b\r\n';
    const room = MAX_HEADER_BYTES - `GET /healthz HTTP/1.1\r\n${host}\r\n`.length;
    const fits = await exchange(port, `GET /healthz HTTP/1.1\r\n${host}${line.repeat(Math.floor(room / line.length))}\r\n`, { limitMs: 2000 });
    expect(parseResponses(fits.bytes)[0].status).toBe(200);
  });
});

/**
 * Writes `first`, then each of `later` `pauseMs` apart whatever the server does meanwhile
 * (a half-open client keeps writing after the server's FIN); collects what comes back until
 * the connection closes, and the first socket error (a reset) if any.
 */
function keepWriting(port: number, first: string, later: readonly string[], pauseMs: number): Promise<{ bytes: Buffer; error?: string }> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1', allowHalfOpen: true });
    const chunks: Buffer[] = [];
    let error: string | undefined;
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (e: NodeJS.ErrnoException) => { error ??= e.code ?? e.message; });
    socket.on('close', () => resolve({ bytes: Buffer.concat(chunks), error }));
    socket.on('connect', () => {
      socket.write(first);
      let i = 0;
      const timer = setInterval(() => {
        if (i < later.length && !socket.destroyed) socket.write(later[i++]);
        else {
          clearInterval(timer);
          socket.end();
        }
      }, pauseMs);
    });
  });
}

describe('answers that end the connection', () => {
  it('end it without a reset: a client still writing afterwards reads the whole answer', async () => {
    const refused = [
      `GET /healthz HTTP/1.1\r\n${host}Host: other.test\r\n\r\n`,
      'GET /healthz HTTP/1.1\r\n\r\n',
      `GET /healthz HTTP/1.1\r\n${host}Expect: foo\r\n\r\n`,
      `POST /test/echo HTTP/1.1\r\n${host}Transfer-Encoding: gzip, chunked\r\n\r\n`,
      `GET /healthz HTTP/1.1\r\n${host}Connection: Upgrade\r\nUpgrade: h2c\r\n\r\n`,
      // Answered before its body is in (the route reads none): what follows is that body.
      `GET /healthz HTTP/1.1\r\n${host}Connection: Upgrade\r\nUpgrade: h2c\r\nContent-Length: 600\r\n\r\n`,
      `GET /healthz HTTP/2.0\r\n${host}\r\n`,
      // A body declared over the limit: refused (413) before it is read, while the client sends it.
      `POST /test/echo HTTP/1.1\r\n${host}Content-Type: application/json\r\nContent-Length: 300000\r\n\r\n`,
    ];
    for (const first of refused) {
      // The client goes on writing pipelined requests after the answer is on its way, and
      // after our side has ended (a client that does not read before it writes).
      const later = Array.from({ length: 6 }, () => `GET /test/hit HTTP/1.1\r\n${host}\r\n`);
      const before = hits;
      const got = await keepWriting(port, first, later, 60);
      expect(got.error, first).toBeUndefined();
      const responses = parseResponses(got.bytes);
      expect(responses, first).toHaveLength(1);
      expect(responses[0].headers.connection).toBe('close');
      // What followed the closing answer got no answer, so it did not run either.
      expect(hits, first).toBe(before);
    }
  });
});

describe('deadlines a slow client cannot stretch', () => {
  it('cuts headers trickled past the headers deadline with 408 request_timeout', async () => {
    const pieces = `GET /healthz HTTP/1.1\r\n${host}X-Slow: ${'a'.repeat(40)}\r\n\r\n`.split('');
    const got = await exchange(port, pieces, { pauseMs: 50, limitMs: CUT_WITHIN_MS + TIMEOUTS.requestTimeout });
    expect(got.closed).toBe(true);
    expect(got.elapsedMs).toBeGreaterThanOrEqual(TIMEOUTS.headersTimeout);
    const [res] = parseResponses(got.bytes);
    expectRefusal(res, 408, 'request_timeout');
    expect(res.headers.connection).toBe('close');
  });

  it('cuts a body trickled past the request deadline with 408 request_timeout', async () => {
    const head = `POST /test/echo HTTP/1.1\r\n${host}Content-Type: application/json\r\nContent-Length: 200\r\n\r\n`;
    const got = await exchange(port, [head, ...'{"a": "'.split(''), ...'x'.repeat(190).split('')], { pauseMs: 50, limitMs: CUT_WITHIN_MS + TIMEOUTS.requestTimeout });
    expect(got.closed).toBe(true);
    expect(got.elapsedMs).toBeGreaterThanOrEqual(TIMEOUTS.requestTimeout);
    const [res] = parseResponses(got.bytes);
    expectRefusal(res, 408, 'request_timeout');
  });

  it('ends a request answered before its body arrived, once the body stalls, without a second answer', async () => {
    const head = `POST /test/early HTTP/1.1\r\n${host}Content-Type: application/json\r\nContent-Length: 200\r\n\r\n`;
    const got = await exchange(port, [head, '{"a": "', 'xx', 'xx'], { pauseMs: 50, limitMs: CUT_WITHIN_MS + TIMEOUTS.requestTimeout });
    expect(got.closed).toBe(true);
    const responses = parseResponses(got.bytes);
    expect(responses.map((r) => r.status)).toEqual([403]);
  });

  it('closes an idle persistent connection after the keep-alive timeout', async () => {
    const got = await exchange(port, `GET /healthz HTTP/1.1\r\n${host}\r\n`, { limitMs: CUT_WITHIN_MS });
    expect(got.closed).toBe(true);
    expect(parseResponses(got.bytes).map((r) => r.status)).toEqual([200]);
  });

  it('keeps a persistent connection usable between requests within the keep-alive timeout', async () => {
    const got = await exchange(port, [`GET /healthz HTTP/1.1\r\n${host}\r\n`, `GET /healthz HTTP/1.1\r\n${host}Connection: close\r\n\r\n`], { pauseMs: 100 });
    expect(parseResponses(got.bytes).map((r) => r.status)).toEqual([200, 200]);
  });
});

describe('shutting down', () => {
  it('answers a request that arrives during shutdown with 503 shutting_down and closes', async () => {
    const closing = await makeTestApp({}, {
      beforeReady(app) {
        app.get('/test/slow', async () => {
          await new Promise((r) => setTimeout(r, 400));
          return { ok: true };
        });
      },
    });
    await closing.app.listen({ port: 0, host: '127.0.0.1' });
    const pending = exchange(portOf(closing.app), [`GET /test/slow HTTP/1.1\r\n${host}\r\n`, `GET /healthz HTTP/1.1\r\n${host}\r\n`], { pauseMs: 200 });
    // The first request is in flight when the shutdown starts; the second one comes after.
    await new Promise((r) => setTimeout(r, 100));
    const closed = closing.close();
    const got = await pending;
    await closed;
    expect(got.closed).toBe(true);
    const responses = parseResponses(got.bytes);
    expect(responses.map((r) => r.status)).toEqual([200, 503]);
    expectRefusal(responses[1], 503, 'shutting_down');
    expect(responses[1].headers['retry-after']).toBe('1');
    expect(responses[1].headers.connection).toBe('close');
  });

  it('cuts connections holding half a request, or nothing, once the requests being answered are answered', async () => {
    const closing = await makeTestApp({ requestTimeout: 20_000, headersTimeout: 15_000, keepAliveTimeout: 20_000 });
    await closing.app.listen({ port: 0, host: '127.0.0.1' });
    const port = portOf(closing.app);
    const open = (first: string) => new Promise<net.Socket>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        if (first !== '') socket.write(first);
        resolve(socket);
      });
      socket.on('error', () => undefined);
    });
    const sockets = await Promise.all([
      open(''),
      open(`GET /healthz HTTP/1.1\r\n${host}`),
      open(`POST /v1/research/dyson HTTP/1.1\r\n${host}Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"dim`),
    ]);
    await new Promise((r) => setTimeout(r, 100));
    const ended = sockets.map((socket) => new Promise<void>((resolve) => (socket.destroyed ? resolve() : socket.once('close', () => resolve()))));
    const started = Date.now();
    await closing.close();
    await Promise.all(ended);
    // The request timeout (20 s) and keep-alive (20 s) would have held them far longer.
    expect(Date.now() - started).toBeLessThan(9_000);
  });

  it('ends the connections of requests in flight when the shutdown starts once they are answered, not a keep-alive later', async () => {
    const closing = await makeTestApp({ keepAliveTimeout: 20_000 }, {
      beforeReady(app) {
        app.get('/test/slow', async () => {
          await new Promise((r) => setTimeout(r, 400));
          return { ok: true };
        });
      },
    });
    await closing.app.listen({ port: 0, host: '127.0.0.1' });
    const pending = exchange(portOf(closing.app), `GET /test/slow HTTP/1.1\r\n${host}\r\n`, { limitMs: 15_000 });
    await new Promise((r) => setTimeout(r, 100));
    const started = Date.now();
    await closing.close();
    const got = await pending;
    expect(got.closed).toBe(true);
    const [res] = parseResponses(got.bytes);
    expect(res.status).toBe(200);
    expect(res.headers.connection).toBe('close');
    // Well within the 20 s keep-alive the connection would otherwise have been held for.
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
