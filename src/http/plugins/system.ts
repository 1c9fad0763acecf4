// Liveness and readiness. `/healthz` answers while the process serves requests;
// `/readyz` also proves the store answers, so orchestrators can route around a
// replica whose database is gone.
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
    { schema: { tags: ['system'], operationId: 'readiness', summary: 'Readiness: the store is reachable', response: { 200: ReadyResponse } } },
    async () => {
      try {
        await deps.storage.ping();
      } catch (error) {
        throw new AppError(CoreErrors.storage_unavailable, 'the store is not reachable', { headers: { 'retry-after': '5' }, cause: error });
      }
      return { status: 'ready' as const, storage: deps.storage.dialect, mode: deps.config.mode };
    },
  );
};
