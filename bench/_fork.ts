// How the measuring process starts a benchmark child (bench/_<name>.ts) with an IPC channel:
// through _launch.mjs, so the service modules it loads (_service.ts) run as `npm start`
// runs them.
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

/** Forks bench/<file> with `args`; `execArgv` holds V8 settings (for example the ones `npm start` uses). */
export function forkChild(file: string, args: readonly string[], execArgv: readonly string[] = []): ChildProcess {
  return fork(path.join(here, '_launch.mjs'), [path.join(here, file), ...args], { execArgv: [...execArgv], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
}

/** Sends `message` to a benchmark child and resolves with the `key` member of the first reply that has one. */
export function askChild<T>(child: ChildProcess, message: string, key: string): Promise<T> {
  return new Promise((resolve) => {
    const on = (m: unknown) => {
      if (typeof m !== 'object' || m === null || !(key in m)) return;
      child.off('message', on);
      resolve((m as Record<string, T>)[key]);
    };
    child.on('message', on);
    child.send(message);
  });
}
