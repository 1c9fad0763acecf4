// Log lines never carry a credential a client put in the path or query, nor the raw bytes
// of a request the parser refused (they hold its headers). Checked on captured log lines
// from a listening app at trace level.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Writable } from 'node:stream';
import { defaultConfig } from '../../src/core/config.js';
import { nowInstant } from '../../src/core/time.js';
import { buildApp } from '../../src/http/app.js';
import { loggablePath, loggerOptions, REDACTED_SEGMENT } from '../../src/http/logging.js';
import { sqliteBackend } from '../helpers/storage.js';
import { exchange, portOf } from '../helpers/raw-http.js';

const KEY = 'fe_Zk9xQ2VzdFRva2VuLW5vdC1hLXJlYWwta2V5LTEyMzQ1';
const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c';
const PACKET = '20261120T153000.123456Z-0a4f2f66695badb1f45239230a4ed45e';

describe('loggablePath', () => {
  it.each([
    [`/v1/funding/latest/${KEY}`, `/v1/funding/latest/${REDACTED_SEGMENT}`],
    [`/v1/funding/latest/${KEY}?token=${KEY}`, `/v1/funding/latest/${REDACTED_SEGMENT}`],
    [`/x/fe%5F${KEY.slice(3)}/y`, `/x/${REDACTED_SEGMENT}/y`],
    [`/x/Bearer%20${KEY}`, `/x/${REDACTED_SEGMENT}`],
    [`/x/${JWT}`, `/x/${REDACTED_SEGMENT}`],
    [`/x/${'Q1w2E3r4'.repeat(5)}`, `/x/${REDACTED_SEGMENT}`],
    // Found from outside: hex-bearing secrets the old rule set aside as this service's own ids.
    [`/v1/funding/packets/sk_live_d449c286c4d5a18c26182860526c5427/manifest.json`, `/v1/funding/packets/${REDACTED_SEGMENT}/manifest.json`],
    [`/x/tok_${'0123456789abcdef'.repeat(3)}`, `/x/${REDACTED_SEGMENT}`],
    ['/x/0123456789abcdef-0123456789abcdefx0123', `/x/${REDACTED_SEGMENT}`],
    [`/x/${'0123456789ABCDEF'.repeat(2)}01234567`, `/x/${REDACTED_SEGMENT}`],
    ['/x/0123456789abcdefZ0123456789abcdef', `/x/${REDACTED_SEGMENT}`],
    ['/x/0a4f2f66-95ba-4db1-b452-39230a4ed45e', `/x/${REDACTED_SEGMENT}`],
    [`/x/${'AbCdEfGhIjKlMnOpQrStUvWx'}`, `/x/${REDACTED_SEGMENT}`],
  ])('redacts %s', (url, logged) => {
    expect(loggablePath(url)).toBe(logged);
  });

  it.each([
    [`/packets/${PACKET}/manifest.json`],
    ['/v1/funding/history'],
    [`/sha/${'0123456789abcdef'.repeat(4)}`],
    ['/docs/static/swagger-ui-standalone-preset.js'],
    ['/coffee_machine/fe_short'],
    ['/api/v1/funding-review.csv'],
    ['/funding-evidence/widgets.json'],
  ])('keeps %s readable', (url) => {
    expect(loggablePath(url)).toBe(url);
  });
});

describe('loggablePath on random secrets', () => {
  const base64url = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-';
  const chars = (alphabet: string, min: number, max: number) => fc.array(fc.constantFrom(...alphabet), { minLength: min, maxLength: max }).map((a) => a.join(''));
  // A random secret of 16 or more characters: with a digit somewhere, or mixed case from 24 on.
  const secret = fc.oneof(
    fc.tuple(chars(base64url, 15, 60), fc.constantFrom(...'0123456789'), fc.nat()).map(([s, d, at]) => { const i = at % (s.length + 1); return s.slice(0, i) + d + s.slice(i); }),
    fc.tuple(chars('abcdefghijklmnopqrstuvwxyz', 12, 40), chars('ABCDEFGHIJKLMNOPQRSTUVWXYZ', 12, 40)).map(([a, b]) => a + b),
  );
  const prefix = fc.constantFrom('', 'sk_live_', 'tok_', 'key-', 'Bearer ', 'x.');

  it('redacts a segment holding one, raw or percent-encoded, wherever it sits in the path', () => {
    fc.assert(fc.property(prefix, secret, fc.constantFrom('', '.json', '/manifest.json'), fc.boolean(), (p, s, suffix, encode) => {
      const segment = encode ? encodeURIComponent(p + s) : p + s;
      const logged = loggablePath(`/v1/funding/packets/${segment}${suffix}?token=${s}`);
      expect(logged).not.toContain(s);
      expect(logged).toContain(REDACTED_SEGMENT);
    }), { numRuns: 500 });
  });

  it('keeps this service\'s own ids readable: lowercase hex and packet ids', () => {
    const hex = chars('0123456789abcdef', 1, 64);
    const packet = fc.tuple(fc.date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true }), fc.integer({ min: 0, max: 999999 }), chars('0123456789abcdef', 32, 32))
      .map(([d, us, h]) => `${d.toISOString().slice(0, 19).replace(/[-:]/g, '')}.${String(us).padStart(6, '0')}Z-${h}`);
    fc.assert(fc.property(fc.oneof(hex, packet), (id) => {
      expect(loggablePath(`/packets/${id}/review.json`)).toBe(`/packets/${id}/review.json`);
    }), { numRuns: 300 });
  });
});

describe('request logs', () => {
  it('redact key-shaped path segments and never hold a refused request\'s bytes', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const { storage, cleanup } = await sqliteBackend.open();
    const config = { ...defaultConfig(), logLevel: 'trace' as const, captureInterval: 0, maxEventLoopDelay: 0 };
    const app = await buildApp({ config, storage, clock: nowInstant, logger: { ...(loggerOptions('trace') as object), stream } });
    try {
      await app.listen({ port: 0, host: '127.0.0.1' });
      const port = portOf(app);
      const host = 'Host: log.test\r\n';
      await exchange(port, `GET /v1/funding/latest/${KEY} HTTP/1.1\r\n${host}Connection: close\r\n\r\n`);
      await exchange(port, `GET /packets/${PACKET}/${JWT}?key=${KEY} HTTP/1.1\r\n${host}Connection: close\r\n\r\n`);
      // Refused by the parser (obs-fold) after an Authorization header: nothing of it may be logged.
      await exchange(port, `GET /${KEY} HTTP/1.1\r\n${host}Authorization: Bearer ${KEY}\r\nX-A: 1\r\n folded\r\n\r\n`);
      await exchange(port, `CONNECT ${KEY}.example:443 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${KEY}\r\n\r\n`);
    } finally {
      await app.close();
      await cleanup();
    }
    const all = lines.join('');
    expect(all).toContain(`"url":"/v1/funding/latest/${REDACTED_SEGMENT}"`);
    expect(all).toContain(`"url":"/packets/${PACKET}/${REDACTED_SEGMENT}"`);
    expect(all).toContain('request refused before routing');
    expect(all).toContain('"statusCode":404');
    for (const secret of [KEY.slice(3), JWT.slice(0, 20), 'rawPacket', 'Bearer', 'folded']) expect(all).not.toContain(secret);
  });
});
