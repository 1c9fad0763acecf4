// Liveness and readiness. `/healthz` answers while the process serves requests;
// `/readyz` also proves the store can serve the storage routes (it answers, its schema is
// complete, an SQLite file is intact), so orchestrators can route around a replica whose
// database is gone or damaged.
import type { FastifyPluginAsync } from 'fastify';
import { Type } from 'typebox';
import { CoreErrors, AppError } from '../../core/errors.js';
import type { AppDeps } from '../deps.js';
import { healthBody } from '../health.js';

const HealthResponse = Type.Object({
  name: Type.String(),
  version: Type.String(),
  transport: Type.String(),
  implementation_sha256: Type.String(),
  status: Type.Literal('ok'),
  service: Type.String(),
  service_version: Type.String(),
});

const ReadyResponse = Type.Object({
  status: Type.Literal('ready'),
  storage: Type.Union([Type.Literal('sqlite'), Type.Literal('postgres')]),
  mode: Type.Union([Type.Literal('live'), Type.Literal('sample')]),
});

export const systemPlugin: FastifyPluginAsync<{ deps: AppDeps }> = async (app, { deps }) => {
  const health = { schema: { tags: ['system'], summary: 'Liveness: the process is serving requests', response: { 200: HealthResponse } } };
  app.get('/healthz', { ...health, schema: { ...health.schema, operationId: 'health' } }, async () => healthBody());
  app.get('/health', { schema: { ...health.schema, hide: true } }, async () => healthBody());

  app.get(
    '/readyz',
    { schema: { tags: ['system'], operationId: 'readiness', summary: 'Readiness: the store can serve the storage routes', response: { 200: ReadyResponse } } },
    async (request) => {
      try {
        await deps.storage.ping();
      } catch (error) {
        // The body stays generic (it is public); the operator finds the reason in the log.
        request.log.warn({ err: error }, 'not ready: the store cannot serve the storage routes');
        throw new AppError(CoreErrors.storage_unavailable, 'the store is not usable', { headers: { 'retry-after': '5' }, cause: error });
      }
      return { status: 'ready' as const, storage: deps.storage.dialect, mode: deps.config.mode };
    },
  );
};
