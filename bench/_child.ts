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
