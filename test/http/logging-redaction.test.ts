// Log lines never carry a credential a client put in the path or query, nor the raw bytes
// of a request the parser refused (they hold its headers). Checked on captured log lines
// from a listening app at trace level.
import { describe, expect, it } from 'vitest';
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
  ])('redacts %s', (url, logged) => {
    expect(loggablePath(url)).toBe(logged);
  });

  it.each([
    [`/packets/${PACKET}/manifest.json`],
    ['/v1/funding/history'],
    [`/sha/${'0123456789abcdef'.repeat(4)}`],
    ['/docs/static/swagger-ui-standalone-preset.js'],
    ['/coffee_machine/fe_short'],
    ['/x/0a4f2f66-95ba-4db1-b452-39230a4ed45e'],
  ])('keeps %s readable', (url) => {
    expect(loggablePath(url)).toBe(url);
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
