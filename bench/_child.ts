// What every benchmark server process does around its server: report readiness to the
// measuring parent over IPC, and stop cleanly when the parent disconnects.
import type { AddressInfo } from 'node:net';

/** The port of a listening server's address. */
export function portOf(address: AddressInfo | string | null): number {
  return typeof address === 'object' && address ? address.port : 0;
}

/** Sends `ready` (its port and any figures) to the parent; runs `stop` and exits when the parent goes away. */
export function serveUntilDisconnect(ready: { port: number } & Record<string, unknown>, stop: () => Promise<void>): void {
  process.send?.(ready);
  process.on('disconnect', () => {
    stop().then(() => process.exit(0), (error: unknown) => {
      console.error(error);
      process.exit(1);
    });
  });
}

/**
 * Answers the parent's `cpu` message with the process's CPU time so far (user and system,
 * every thread, µs): the parent divides a run's difference by its requests, a cost per
 * request that other load on a shared machine disturbs far less than requests per second.
 */
export function answerCpuQueries(): void {
  process.on('message', (m) => {
    if (m !== 'cpu') return;
    const { user, system } = process.cpuUsage();
    process.send?.({ cpuUs: user + system });
  });
}
