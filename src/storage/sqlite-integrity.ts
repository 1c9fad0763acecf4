// A structural check of an SQLite file (`PRAGMA quick_check`) on its own read-only
// connection in a worker thread: the check reads every page, which can take long on a
// large archive, and the event loop must keep serving meanwhile. Reading from disk on a
// fresh connection also sees the file as it is now, not as this process's cache remembers it.

import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** Longest a check may take before it counts as failed (a stuck disk, a huge file). */
const CHECK_LIMIT_MS = 120_000;

const driverPath = createRequire(import.meta.url).resolve('better-sqlite3');

// Plain CommonJS: an eval'd worker cannot load TypeScript, whatever runs the parent.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driverPath);
let answer;
try {
  const db = new Database(workerData.file, { readonly: true, fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    const rows = db.pragma('quick_check(5)', { simple: false });
    const problems = rows.map((r) => String(Object.values(r)[0])).filter((t) => t !== 'ok');
    answer = problems.length === 0 ? { ok: true } : { ok: false, detail: problems.join('; ') };
  } finally {
    db.close();
  }
} catch (error) {
  answer = { ok: false, detail: String(error && error.code ? error.code + ': ' + error.message : error) };
}
parentPort.postMessage(answer);
`;

export interface IntegrityVerdict {
  ok: boolean;
  /** Why the file failed (SQLite's own words, bounded), when it did. */
  detail?: string;
}

export function checkSqliteFile(file: string): Promise<IntegrityVerdict> {
  return new Promise((resolve) => {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { driverPath, file } });
    let settled = false;
    const finish = (verdict: IntegrityVerdict) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      resolve({ ...verdict, detail: verdict.detail?.slice(0, 300) });
    };
    const timer = setTimeout(() => finish({ ok: false, detail: `the check did not finish within ${CHECK_LIMIT_MS} ms` }), CHECK_LIMIT_MS);
    timer.unref();
    worker.once('message', (message: IntegrityVerdict) => finish(message));
    worker.once('error', (error) => finish({ ok: false, detail: `the check could not run: ${error.message}` }));
    worker.once('exit', (code) => finish({ ok: false, detail: `the check stopped with exit code ${code}` }));
  });
}
