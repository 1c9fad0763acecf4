// Liveness and readiness. `/healthz` answers while the process serves requests;
// `/readyz` also proves the store can serve the storage routes (it answers, its schema is
// complete, an SQLite file is intact), so orchestrators can route around a replica whose
// database is gone or damaged.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { CoreErrors, AppError } from '../../core/errors.js';
import { serviceHealthBytes } from '../health.js';
import { releaseIdentity } from '../../data/release.js';
import { setAnalysisHeaders } from './analysis.js';
import { serveRoute, type GroupPluginOptions } from '../route.js';
import { Health, Readiness, type ReadyBody } from '../routes/system.js';

export const systemPlugin: FastifyPluginAsync<GroupPluginOptions> = async (app, options) => {
  const { deps } = options;
  const releaseId = releaseIdentity(deps.config).release_id;
  // The analysis upstream's health body, with its headers (a browser on another origin may
  // read it, as the preflight these paths answer promises) and its encoding: Python's
  // separators and the bare `application/json`, the same bytes as /noisefloor/healthz.
  const healthBytes = serviceHealthBytes(releaseId);
  const health = async (_request: FastifyRequest, reply: FastifyReply) => {
    setAnalysisHeaders(reply);
    return reply.type('application/json').send(healthBytes);
  };
  serveRoute(app, options, Health, health);
  // The analysis upstream's alias; one operation in the OpenAPI document.
  app.get('/health', { schema: { hide: true } }, health);

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
