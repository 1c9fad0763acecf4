import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchBytes, mediaTypeAccepted, refusal, type FetchOptions } from '../../src/platform/fetch.js';

// A local server whose answer each test sets by path.
type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;
const handlers = new Map<string, Handler>();
const seen: { path: string; headers: http.IncomingHttpHeaders }[] = [];
let server: http.Server;
let base: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.push({ path: req.url ?? '', headers: req.headers });
    const handler = handlers.get(req.url ?? '');
    if (handler) handler(req, res);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const options = (overrides: Partial<FetchOptions> = {}): FetchOptions => ({
  policy: { allowedOrigins: [base], allowHttp: true },
  maxBytes: 1000,
  connectTimeoutMs: 2000,
  readTimeoutMs: 300,
  deadlineMs: 2000,
  ...overrides,
});

function serve(path: string, handler: Handler): string {
  handlers.set(path, handler);
  return `${base}${path}`;
}

const requestsTo = (path: string) => seen.filter((s) => s.path === path).length;

describe('platform fetcher', () => {
  it('returns the exact bytes and media type, and says who is asking', async () => {
    const url = serve('/ok', (_req, res) => res.writeHead(200, { 'content-type': 'Application/JSON; charset=utf-8' }).end('{"a": 1}'));
    const outcome = await fetchBytes(url, options({ accept: ['application/json'], userAgent: 'evidence-desk/test' }));
    expect(outcome).toMatchObject({ ok: true, url, mediaType: 'application/json' });
    if (outcome.ok) expect(Buffer.from(outcome.body).toString()).toBe('{"a": 1}');
    const request = seen.find((s) => s.path === '/ok')!;
    expect(request.headers['user-agent']).toBe('evidence-desk/test');
    expect(request.headers['accept-encoding']).toBe('identity');
    expect(request.headers.accept).toBe('application/json');
  });

  it('refuses, without sending anything, a URL outside the allowlist, plain http unless allowed, and credentials', async () => {
    const url = serve('/never', (_req, res) => res.writeHead(200).end('x'));
    const cases: [string, FetchOptions][] = [
      [url, options({ policy: { allowedOrigins: ['https://example.org'], allowHttp: true } })],
      [url, options({ policy: { allowedOrigins: [base] } })],
      [url.replace('http://', 'http://user:secret@'), options()],
      ['not a url', options()],
      [url.replace('http:', 'ftp:'), options()],
    ];
    for (const [target, opts] of cases) {
      const outcome = await fetchBytes(target, opts);
      expect(outcome).toMatchObject({ ok: false, reason: 'url_refused' });
      if (!outcome.ok) expect(outcome.detail).not.toContain('secret');
    }
    expect(requestsTo('/never')).toBe(0);
  });

  it('does not follow a redirect', async () => {
    const target = serve('/target', (_req, res) => res.writeHead(200).end('moved here'));
    const url = serve('/moved', (_req, res) => res.writeHead(302, { location: target }).end());
    expect(await fetchBytes(url, options())).toMatchObject({ ok: false, reason: 'redirect', status: 302 });
    expect(requestsTo('/target')).toBe(0);
  });

  it('fails on any status but 200', async () => {
    const url = serve('/gone', (_req, res) => res.writeHead(503).end('busy'));
    expect(await fetchBytes(url, options())).toMatchObject({ ok: false, reason: 'http_status', status: 503, detail: 'answered HTTP 503' });
  });

  it('refuses an encoded body although identity was asked for', async () => {
    const url = serve('/gzip', (_req, res) => res.writeHead(200, { 'content-encoding': 'gzip' }).end('not really gzip'));
    expect(await fetchBytes(url, options())).toMatchObject({ ok: false, reason: 'content_encoding' });
  });

  it('checks the media type only when the caller lists accepted ones', async () => {
    const html = serve('/html', (_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<p>'));
    const none = serve('/untyped', (_req, res) => {
      res.removeHeader('content-type');
      res.writeHead(200).end('x');
    });
    const ld = serve('/ld', (_req, res) => res.writeHead(200, { 'content-type': 'application/ld+json' }).end('{}'));
    const json = ['application/json', '*+json'];
    expect(await fetchBytes(html, options({ accept: json }))).toMatchObject({ ok: false, reason: 'content_type' });
    expect(await fetchBytes(none, options({ accept: json }))).toMatchObject({ ok: false, reason: 'content_type' });
    expect(await fetchBytes(ld, options({ accept: json }))).toMatchObject({ ok: true, mediaType: 'application/ld+json' });
    expect(await fetchBytes(html, options())).toMatchObject({ ok: true, mediaType: 'text/html' });
  });

  it('enforces the byte cap on the announced length and while the body streams', async () => {
    const announced = serve('/announced', (_req, res) => res.writeHead(200, { 'content-length': '5000' }).end('x'.repeat(5000)));
    const streamed = serve('/streamed', (_req, res) => {
      res.writeHead(200);
      for (let i = 0; i < 10; i++) res.write('y'.repeat(200));
      res.end();
    });
    const exact = serve('/exact', (_req, res) => res.writeHead(200).end('z'.repeat(1000)));
    expect(await fetchBytes(announced, options())).toMatchObject({ ok: false, reason: 'too_large', detail: 'announced 5000 bytes, more than the 1000 accepted' });
    expect(await fetchBytes(streamed, options())).toMatchObject({ ok: false, reason: 'too_large', detail: 'sent more than the 1000 bytes accepted' });
    expect(await fetchBytes(exact, options())).toMatchObject({ ok: true });
  });

  it('times out waiting for headers, between body chunks, and at the deadline', async () => {
    const silent = serve('/silent', () => undefined);
    const stalls = serve('/stalls', (_req, res) => {
      res.writeHead(200);
      res.write('first part');
    });
    const trickle = serve('/trickle', (_req, res) => {
      res.writeHead(200);
      const timer = setInterval(() => res.write('.'), 100);
      res.on('close', () => clearInterval(timer));
    });
    expect(await fetchBytes(silent, options())).toMatchObject({ ok: false, reason: 'timeout' });
    expect(await fetchBytes(stalls, options())).toMatchObject({ ok: false, reason: 'timeout' });
    // Never silent for 300 ms and never over the cap: only the deadline can end it.
    expect(await fetchBytes(trickle, options({ deadlineMs: 600, maxBytes: 1_000_000 }))).toMatchObject({ ok: false, reason: 'timeout' });
  });

  it('reports a refused connection as a transport failure', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const url = `http://127.0.0.1:${port}/`;
    expect(await fetchBytes(url, options({ policy: { allowedOrigins: [url], allowHttp: true } }))).toMatchObject({ ok: false, reason: 'transport' });
  });
});

describe('URL policy and media types', () => {
  it('names why a URL is refused', () => {
    const policy = { allowedOrigins: ['https://api.example.org'] };
    expect(refusal('https://api.example.org/v1/x?y=1', policy)).toBeNull();
    expect(refusal('https://API.example.org:443/v1', policy)).toBeNull();
    expect(refusal('https://api.example.org:8443/v1', policy)).toMatch(/outside the allowed origins/);
    expect(refusal('http://api.example.org/v1', policy)).toMatch(/only https/);
    expect(refusal('https://evil.example/api.example.org', policy)).toMatch(/outside/);
  });

  it('matches exact, structured-suffix and wildcard media types', () => {
    expect(mediaTypeAccepted('application/json', ['application/json'])).toBe(true);
    expect(mediaTypeAccepted('application/vnd.api+json', ['*+json'])).toBe(true);
    expect(mediaTypeAccepted('application/jsonx', ['*+json', 'application/json'])).toBe(false);
    expect(mediaTypeAccepted('text/csv', ['text/*'])).toBe(true);
    expect(mediaTypeAccepted('application/csv', ['text/*'])).toBe(false);
    expect(mediaTypeAccepted(null, ['text/*'])).toBe(false);
  });
});
