// A plugin-wide caching default for groups whose errors must never be cached.
import type { FastifyInstance } from 'fastify';

/**
 * Gives every answer of the plugin it is called in that sets no caching policy of its own
 * `Cache-Control: no-store, no-transform` (group B's rule, funding upstream §5.2: errors and
 * everything without a policy must not be stored). A callback hook: an async one costs a
 * promise on every read.
 */
export function noStoreByDefault(app: FastifyInstance): void {
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store, no-transform');
    done(null, payload);
  });
}
