import type { Command } from 'commander';
import { nowInstant } from '../../core/time.js';
import { addConfigOptions, configFromOptions } from '../options.js';

/**
 * `evidence-desk mcp`: the MCP tools over stdio for desktop agents, one process. Tools are
 * answered from the embedded store (the configured database), or with `--base URL` by a
 * running service; `--state DIR` adds funding_update over the job's verified local copy.
 * Standard output carries protocol messages only; diagnostics go to standard error.
 */
export function registerMcp(program: Command): void {
  const command = program
    .command('mcp')
    .description('serve the MCP tools over stdio (embedded store, or --base URL of a running service); --state DIR adds funding_update')
    .option('--base <url>', 'answer the tools by a running Evidence Desk service at this base URL instead of the embedded store')
    .option('--state <dir>', 'the state directory of `evidence-desk job`; adds the funding_update tool');
  addConfigOptions(command);
  command.action(async (options: Record<string, unknown>) => {
    // Loaded here so the other commands do not pay for the SDK at start-up.
    const { createMcpServer } = await import('../../mcp/server.js');
    const { StrictStdioTransport } = await import('../../mcp/stdio.js');
    const { fundingUpdateTool } = await import('../../mcp/tools.js');
    const { remoteTools } = await import('../../mcp/remote.js');
    const { createDataContext } = await import('../../data/service.js');
    const { openStorage } = await import('../../storage/open.js');

    const base = typeof options.base === 'string' ? options.base : undefined;
    const state = typeof options.state === 'string' ? options.state : undefined;
    const config = configFromOptions(options);
    const storage = base === undefined ? await openStorage(config) : undefined;
    const clock = nowInstant;
    let data: ReturnType<typeof createDataContext> | undefined;
    const ctx = {
      config,
      get storage() {
        if (storage === undefined) throw new Error('no embedded store when --base is given');
        return storage;
      },
      clock,
      data: () => (data ??= createDataContext({ storage: ctx.storage, config, clock })),
    };
    const transport = new StrictStdioTransport(process.stdin, process.stdout, config.bodyLimit, base !== undefined);
    const server = createMcpServer(ctx, transport.strictArguments, {
      extraTools: state === undefined ? [] : [fundingUpdateTool(state)],
      remote: base === undefined ? undefined : remoteTools(base, transport.callLine),
      onFault: (error, tool) => process.stderr.write(`mcp: unexpected failure in ${tool}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`),
    });
    server.onerror = (error) => process.stderr.write(`mcp: ${error.message}\n`);
    await new Promise<void>((resolve) => {
      server.onclose = () => resolve();
      void server.connect(transport);
    });
    await storage?.close();
  });
}
