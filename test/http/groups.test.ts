// The shell serves exactly what the groups' contracts describe: every contract once per
// mount, nothing visible without one, and unknown or undecodable paths answer with a
// registry body in the shape of the group that owns the path.
import type { FastifyPluginAsync } from 'fastify';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/core/config.js';
import { nowInstant } from '../../src/core/time.js';
import { buildApp } from '../../src/http/app.js';
import { defineRoute } from '../../src/http/contract.js';
import { GROUPS, type GroupDefinition } from '../../src/http/groups.js';
import { serveRoute, type GroupPluginOptions } from '../../src/http/route.js';
import { makeTestApp } from '../helpers/app.js';
import { sqliteBackend } from '../helpers/storage.js';

const Ping = defineRoute({
  method: 'GET',
  url: '/v9/ping/now',
  operationId: 'ping',
  summary: 'test',
  tags: ['test'],
  querystring: Type.Object({ n: Type.Optional(Type.Integer({ minimum: 1 })) }),
  success: { 200: { description: 'pong', content: { 'application/json': Type.Object({ n: Type.Integer() }, { additionalProperties: false }) } } },
  errors: [],
});

async function build(plugin: FastifyPluginAsync<GroupPluginOptions>, routes = [Ping]) {
  const group: GroupDefinition = { name: 'test', prefix: '/testing', shape: 'evidence', routes, plugin };
  const opened = await sqliteBackend.open();
  try {
    const app = await buildApp({ config: { ...defaultConfig(), logLevel: 'silent', maxEventLoopDelay: 0 }, storage: opened.storage, clock: nowInstant }, { groups: [group] });
    return { app, close: async () => { await app.close(); await opened.cleanup(); } };
  } catch (error) {
    await opened.cleanup();
    throw error;
  }
}

describe('groups and their contracts', () => {
  it('serves a contract at the root and under the prefix, typed and validated from its schemas', async () => {
    const { app, close } = await build(async (scope, options) => {
      serveRoute(scope, options, Ping, async (request) => ({ n: request.query.n ?? 0 }));
    });
    try {
      expect((await app.inject({ url: '/v9/ping/now?n=3' })).json()).toEqual({ n: 3 });
      expect((await app.inject({ url: '/testing/v9/ping/now' })).json()).toEqual({ n: 0 });
      const invalid = await app.inject({ url: '/v9/ping/now?n=0' });
      expect(invalid.statusCode).toBe(422);
      expect(invalid.json()).toMatchObject({ code: 'invalid_request', path: '/n' });
      // Paths under the operation's namespace and the prefix answer in the group's shape.
      for (const url of ['/v9/ping/other', '/testing/elsewhere']) expect(Object.keys((await app.inject({ url })).json())).toEqual(['detail', 'code']);
      expect(Object.keys((await app.inject({ url: '/v9/elsewhere' })).json())).toEqual(['error', 'detail', 'code']);
      const paths = Object.keys((await app.inject({ url: '/openapi.json' })).json().paths);
      expect(paths).toContain('/v9/ping/now');
      expect(paths).not.toContain('/testing/v9/ping/now');
    } finally {
      await close();
    }
  });

  it('refuses to build when a contract is not served', async () => {
    await expect(build(async () => undefined)).rejects.toThrow(/does not serve ping/);
  });

  it('refuses to build when a visible route has no contract', async () => {
    await expect(build(async (scope, options) => {
      serveRoute(scope, options, Ping, async () => ({ n: 1 }));
      scope.get('/v9/ping/extra', async () => ({}));
    })).rejects.toThrow(/without a route contract/);
  });

  it('refuses to build when a contract is served at another path', async () => {
    await expect(build(async (scope, options) => {
      serveRoute(scope, options, { ...Ping, url: '/v9/ping/later' }, async () => ({ n: 1 }));
    })).rejects.toThrow(/not as its contract says/);
  });

  it('gives every operation of every group a unique operationId', () => {
    const ids = GROUPS.flatMap((g) => g.routes.map((r) => r.operationId));
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('undecodable paths', () => {
  it.each([
    ['/%ff', ['error', 'detail', 'code']],
    ['/v1/funding/%ff', ['detail', 'code']],
    ['/packets/%ff/review.json', ['detail', 'code']],
    ['/noisefloor/%c0', ['error', 'code']],
  ])('%s answers 400 malformed_url in its group\'s shape, without echoing the path, whatever the method', async (url, keys) => {
    const t = await makeTestApp();
    try {
      // Methods with routes and methods without any (PUT, PATCH, TRACE): Fastify decodes the
      // path in different routers for the two, and both must give the same answer.
      for (const method of ['GET', 'POST', 'DELETE', 'PUT', 'PATCH', 'TRACE'] as const) {
        // TRACE is outside light-my-request's method type, not outside what it sends.
        const res = await t.app.inject({ method: method as 'GET', url });
        expect(res.statusCode, method).toBe(400);
        expect(Object.keys(res.json()), method).toEqual(keys);
        expect(res.json().code, method).toBe('malformed_url');
        expect(res.body, method).not.toContain('%');
        expect(res.headers['x-content-type-options'], method).toBe('nosniff');
      }
    } finally {
      await t.close();
    }
  });
});
