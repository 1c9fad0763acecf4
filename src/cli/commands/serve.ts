import type { Command } from 'commander';
import closeWithGrace from 'close-with-grace';
import { nowInstant } from '../../core/time.js';
import { buildApp } from '../../http/app.js';
import { openStorage } from '../../storage/open.js';
import { addConfigOptions, configFromOptions } from '../options.js';
import { startServices, type RunningService } from '../../platform/services.js';
import { SERVICES } from '../services.js';
import { RUNS_SOURCES } from '../../platform/runtime.js';
import { boundHeapGrowth, HEAP_GROWING_PERCENT } from '../../platform/heap-growth.js';

export function registerServe(program: Command): void {
  const command = program
    .command('serve')
    .description('serve every group over HTTP (live mode by default; --mode sample for the bundled documents)');
  addConfigOptions(command);
  command.action(async (options: Record<string, unknown>) => {
    // Before the process allocates much: bounded heap growth keeps a busy process's RSS near its live size.
    const heapGrowth = boundHeapGrowth() ? `${HEAP_GROWING_PERCENT}%` : 'as given to node';
    const config = configFromOptions(options);
    const storage = await openStorage(config);
    const deps = { config, storage, clock: nowInstant };
    const app = await buildApp(deps);
    let started: RunningService[] = [];
    // Installed before listening, so a SIGTERM that comes as soon as the port answers still
    // closes gracefully (exit 0).
    const closer = closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
      if (err) app.log.error({ err }, 'shutting down after an unexpected error');
      else app.log.info({ signal }, 'shutting down');
      for (const service of started) await service.stop().catch(() => undefined);
      await app.close();
      await storage.close();
    });
    try {
      await app.listen({ port: config.port, host: config.host });
    } catch (error) {
      // Nothing was served (a port in use, a host that does not resolve): fail the command
      // (exit 2). The graceful-close handler goes first, as its normal-exit path would end
      // the process with 0.
      closer.uninstall();
      await app.close().catch(() => undefined);
      await storage.close().catch(() => undefined);
      throw error;
    }
    app.log.info({ mode: config.mode, storage: storage.dialect, build: RUNS_SOURCES ? 'sources' : 'dist', heapGrowth }, 'evidence-desk is serving');
    // The sources run only when dist/ is missing or older than src/ (bin/build.js). That
    // works, but each process then carries the transpiler, in the event loop and in every
    // worker thread: an operator should hear of it.
    if (RUNS_SOURCES) {
      app.log.warn('running the TypeScript sources: dist/ is missing or older than src/. `npm run build` compiles it; the sources cost ~45 MiB more per process and some speed');
    }
    started = startServices(SERVICES, { ...deps, logger: app.log });
  });
}
