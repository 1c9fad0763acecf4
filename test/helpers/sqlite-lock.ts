// Another process holding an SQLite file's write lock, as a second `evidence-desk` or a
// backup tool would: a real child process that runs BEGIN IMMEDIATE and keeps the
// transaction open until told to finish.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';

const driverPath = createRequire(import.meta.url).resolve('better-sqlite3');

const HOLDER = `
const Database = require(process.argv[1]);
const db = new Database(process.argv[2], { timeout: 0 });
db.exec('BEGIN IMMEDIATE');
process.stdout.write('locked\\n');
process.stdin.once('data', () => {
  db.exec('COMMIT');
  db.close();
  process.exit(0);
});
`;

export interface LockHolder {
  pid: number;
  /** True until the holder has committed and exited. */
  readonly holding: boolean;
  /** Commits, closes and waits for the process to exit. */
  release(): Promise<void>;
  /** Last resort for `finally` blocks. */
  kill(): void;
}

export async function holdWriteLock(file: string): Promise<LockHolder> {
  const child = spawn(process.execPath, ['-e', HOLDER, driverPath, file], { stdio: ['pipe', 'pipe', 'pipe'] });
  let holding = true;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      holding = false;
      resolve();
    }),
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    child.stdout.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`the lock holder exited with ${code} before locking: ${stderr}`)));
  });
  return {
    pid: child.pid!,
    get holding() {
      return holding;
    },
    async release() {
      if (!holding) return;
      child.stdin.write('go\n');
      await exited;
    },
    kill() {
      if (holding) child.kill('SIGKILL');
    },
  };
}
