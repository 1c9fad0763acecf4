import { describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import { defaultConfig } from '../../src/core/config.js';
import { nowInstant } from '../../src/core/time.js';
import { buildApp } from '../../src/http/app.js';
import { loggerOptions } from '../../src/http/logging.js';
import { sqliteBackend } from '../helpers/storage.js';

describe('request logs', () => {
  it('never contain the Authorization header, query strings or request bodies, even at trace level', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const { storage, cleanup } = await sqliteBackend.open();
    const config = { ...defaultConfig(), logLevel: 'trace' as const, captureInterval: 0 };
    const app = await buildApp({ config, storage, clock: nowInstant, logger: { ...(loggerOptions('trace') as object), stream } });
    app.post('/test/echo', async () => ({ ok: true }));
    await app.ready();
    try {
      await app.inject({ method: 'GET', url: '/healthz?marker=query-secret-1', headers: { authorization: 'Bearer fe_SECRETSECRETSECRETSECRETSECRETSECRETSECRET1' } });
      await app.inject({ method: 'GET', url: '/healthz?token=query-secret-2' });
      await app.inject({ method: 'POST', url: '/test/echo', payload: '{"title": "body-secret-3"}', headers: { 'content-type': 'application/json', cookie: 'session=cookie-secret-4' } });
      await app.inject({ method: 'POST', url: '/test/echo', payload: '{"title": "body-secret-5", "title": 1}', headers: { 'content-type': 'application/json' } });
    } finally {
      await app.close();
      await cleanup();
    }
    const all = lines.join('');
    expect(lines.length).toBeGreaterThan(3);
    for (const secret of ['SECRETSECRET', 'query-secret-1', 'query-secret-2', 'body-secret-3', 'cookie-secret-4', 'body-secret-5', 'authorization', 'Bearer']) {
      expect(all).not.toContain(secret);
    }
    expect(all).toContain('"url":"/healthz"');
  });
});
