// Starts bench/_poster.ts: `clients` clients posting the maximum spectral request to the
// service on `port` from a process of their own. Resolves once the first analysis came
// back; `stop` ends the posting and resolves with the status counts.
import { forkChild } from './_fork.js';

export interface Posters {
  bodyBytes: number;
  stop(): Promise<Record<string, number>>;
}

export async function startPosters(port: number, clients: number): Promise<Posters> {
  const poster = forkChild('_poster.ts', [String(port), String(clients)]);
  const next = () => new Promise<Record<string, unknown>>((resolve) => poster.once('message', (m) => resolve(m as Record<string, unknown>)));
  const { bodyBytes } = (await next()) as { bodyBytes: number };
  return {
    bodyBytes,
    async stop() {
      const stopped = next();
      poster.send('stop');
      return ((await stopped) as { statuses: Record<string, number> }).statuses;
    },
  };
}
