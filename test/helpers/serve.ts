// Runs the real `evidence-desk serve` in a child process on a free port.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';

export const bin = path.resolve('bin/evidence-desk.js');

/** The environment without any setting that would leak from the developer's shell. */
export function cleanEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('EVIDENCE_') && k !== 'DATABASE_URL' && k !== 'PORT'));
}

export interface ServedProcess {
  address: string;
  child: ChildProcessWithoutNullStreams;
  /** Everything the process wrote to stdout so far (its JSON log lines). */
  output(): string;
  /** Those log lines, parsed. */
  logLines(): Record<string, unknown>[];
  /** Sends SIGTERM and resolves to the exit code. */
  stop(): Promise<number | null>;
  /** Last resort for `finally` blocks. */
  kill(): void;
}

/**
 * Starts `serve --port 0 <args>` and resolves once it logs its listening address; `env`
 * adds settings to the clean environment.
 */
export async function startServe(args: string[], env: NodeJS.ProcessEnv = {}): Promise<ServedProcess> {
  const child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--log-level', 'info', ...args], { env: { ...cleanEnv(), ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let written = '';
  child.stdout.on('data', (chunk: Buffer) => {
    written += chunk.toString();
  });
  try {
    const address = await new Promise<string>((resolve, reject) => {
      let buffer = '';
      child.stdout.on('data', (chunk: Buffer) => {
        buffer += chunk.toString();
        const m = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(buffer);
        if (m) resolve(m[1]);
      });
      child.on('exit', (code) => reject(new Error(`serve exited early with ${code}`)));
      setTimeout(() => reject(new Error('serve did not start in time')), 20_000);
    });
    return {
      address,
      child,
      output: () => written,
      logLines: () => written.split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Record<string, unknown>),
      stop: async () => {
        child.kill('SIGTERM');
        return exited;
      },
      kill: () => {
        if (child.exitCode === null) child.kill('SIGKILL');
      },
    };
  } catch (error) {
    if (child.exitCode === null) child.kill('SIGKILL');
    throw error;
  }
}
