// Liveness and readiness. `/healthz` answers while the process serves requests;
// `/readyz` also proves the store answers, so orchestrators can route around a
// replica whose database is gone.
import type { FastifyPluginAsync } from 'fastify';
import { CoreErrors, AppError } from '../../core/errors.js';
import { healthBody } from '../health.js';
import { serveRoute, type GroupPluginOptions } from '../route.js';
import { Health, Readiness, type ReadyBody } from '../routes/system.js';

export const systemPlugin: FastifyPluginAsync<GroupPluginOptions> = async (app, options) => {
  const { deps } = options;
  serveRoute(app, options, Health, async () => healthBody());
  // The analysis upstream's alias; one operation in the OpenAPI document.
  app.get('/health', { schema: { hide: true } }, async () => healthBody());

  serveRoute(app, options, Readiness, async (): Promise<ReadyBody> => {
    try {
      await deps.storage.ping();
    } catch (error) {
      throw new AppError(CoreErrors.storage_unavailable, 'the store is not reachable', { headers: { 'retry-after': '5' }, cause: error });
    }
    return { status: 'ready', storage: deps.storage.dialect, mode: deps.config.mode };
  });
};
