// Storage lock benchmark: what another process holding evidence.db's write lock (a second
// instance mid-transaction, a backup tool) costs the rest of the service. A child process
// takes BEGIN IMMEDIATE and commits after `--hold` ms; meanwhile one enrollment waits for the
// lock and GET /healthz is timed back to back on a real listening server.
// Usage: npm run bench -- storage-lock [--hold 3000]
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { defaultConfig } from '../src/core/config.js';
import { nowInstant } from '../src/core/time.js';
import { buildApp } from '../src/http/app.js';
import { openSqliteStorage } from '../src/storage/sqlite.js';

const HOLDER = `
const Database = require(process.argv[1]);
const db = new Database(process.argv[2], { timeout: 0 });
db.exec('BEGIN IMMEDIATE');
process.stdout.write('locked\\n');
setTimeout(() => { db.exec('COMMIT'); db.close(); }, Number(process.argv[3]));
`;

function option(args: string[], name: string, fallback: number): number {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] !== undefined ? Number(args[i + 1]) : fallback;
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

async function timeHealth(base: string, until: () => boolean, limit: number): Promise<number[]> {
  const samples: number[] = [];
  while (samples.length < limit && until()) {
    const t = performance.now();
    const res = await fetch(`${base}/healthz`);
    await res.arrayBuffer();
    samples.push(performance.now() - t);
  }
  return samples.sort((a, b) => a - b);
}

const describeSamples = (s: number[]) =>
  `${String(s.length).padStart(5)} requests   p50 ${quantile(s, 0.5).toFixed(2)} ms   p99 ${quantile(s, 0.99).toFixed(2)} ms   max ${s[s.length - 1].toFixed(2)} ms`;

export default async function run(args: string[]): Promise<void> {
  const holdMs = option(args, 'hold', 3000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-lock-'));
  const file = path.join(dir, 'evidence.db');
  const storage = await openSqliteStorage({ file });
  const config = { ...defaultConfig(), logLevel: 'silent' as const, captureInterval: 0, maxEventLoopDelay: 0 };
  const app = await buildApp({ config, storage, clock: nowInstant });
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    console.log(`storage lock benchmark: another process holds the SQLite write lock for ${holdMs} ms while one enrollment waits; Node ${process.version}`);

    const idle = await timeHealth(base, () => true, 200);

    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    const holder = spawn(process.execPath, ['-e', HOLDER, driver, file, String(holdMs)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let holding = true;
    const released = new Promise<void>((resolve) => holder.once('exit', () => {
      holding = false;
      resolve();
    }));
    await new Promise<void>((resolve) => holder.stdout.once('data', () => resolve()));

    const enrollStarted = performance.now();
    const enrollment = fetch(`${base}/v1/applications`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"measurement_consent": true}',
    }).then(async (res) => ({ status: res.status, body: (await res.json()) as { code?: string }, ms: performance.now() - enrollStarted }));
    const locked = await timeHealth(base, () => holding, 100_000);
    const enrolled = await enrollment;
    await released;

    console.log(`/healthz, no lock            ${describeSamples(idle)}`);
    console.log(`/healthz, lock held          ${describeSamples(locked)}`);
    console.log(`enrollment waiting on it     ${enrolled.status}${enrolled.body.code ? ` ${enrolled.body.code}` : ''} after ${enrolled.ms.toFixed(0)} ms`);
  } finally {
    await app.close();
    await storage.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
