// One data-group context per app: every plugin copy of the group (root and /openbb mounts,
// and each of the group's plugins) shares its source cache, single flights and snapshot
// rows, so a source is fetched once however the routes are reached.
import { createDataContext, type DataContext } from '../data/service.js';
import type { AppDeps } from './deps.js';

const contexts = new WeakMap<AppDeps, DataContext>();

export function dataContextOf(deps: AppDeps): DataContext {
  let ctx = contexts.get(deps);
  if (!ctx) {
    ctx = createDataContext({ storage: deps.storage, config: deps.config, clock: deps.clock });
    contexts.set(deps, ctx);
  }
  return ctx;
}
