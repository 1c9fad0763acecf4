// Liveness and readiness. `/healthz` answers while the process serves requests;
// `/readyz` also proves the store can serve the storage routes (it answers, its schema is
// complete, an SQLite file is intact), so orchestrators can route around a replica whose
// database is gone or damaged.
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

  serveRoute(app, options, Readiness, async (request): Promise<ReadyBody> => {
    try {
      await deps.storage.ping();
    } catch (error) {
      // The body stays generic (it is public); the operator finds the reason in the log.
      request.log.warn({ err: error }, 'not ready: the store cannot serve the storage routes');
      throw new AppError(CoreErrors.storage_unavailable, 'the store is not usable', { headers: { 'retry-after': '5' }, cause: error });
    }
    return { status: 'ready', storage: deps.storage.dialect, mode: deps.config.mode };
  });
};
