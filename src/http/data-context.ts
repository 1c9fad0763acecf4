// One data context per app: the root mount and the /openbb mount (and any other plugin
// that reads data, e.g. the review routes) share its in-process single flight and
// document cache. Keyed by the app's deps, so two apps in one process stay two instances.
import { createDataContext, type DataContext } from '../data/service.js';
import type { AppDeps } from './deps.js';

const contexts = new WeakMap<AppDeps, DataContext>();

export function dataContextFor(deps: AppDeps): DataContext {
  let ctx = contexts.get(deps);
  if (!ctx) {
    ctx = createDataContext({ storage: deps.storage, config: deps.config, clock: deps.clock });
    contexts.set(deps, ctx);
  }
  return ctx;
}
