// Damage to an SQLite file as a failing disk or a careless tool would do it: the pages of
// chosen tables are overwritten in place (same inode), everything else left intact, so the
// store still opens and migrates but reading those tables fails.
import fs from 'node:fs';
import BetterSqlite3 from 'better-sqlite3';

/** Overwrites the root pages of `tables` with garbage. The file must not be open anywhere. */
export function corruptTables(file: string, tables: string[]): void {
  const db = new BetterSqlite3(file, { readonly: true });
  let pageSize: number;
  let roots: number[];
  try {
    pageSize = db.pragma('page_size', { simple: true }) as number;
    roots = tables.map((name) => {
      const row = db.prepare("select rootpage from sqlite_master where type = 'table' and name = ?").get(name) as { rootpage: number } | undefined;
      if (!row) throw new Error(`no table ${name} in ${file}`);
      return row.rootpage;
    });
  } finally {
    db.close();
  }
  const fd = fs.openSync(file, 'r+');
  try {
    for (const root of roots) fs.writeSync(fd, Buffer.alloc(pageSize, 0xa5), 0, pageSize, (root - 1) * pageSize);
  } finally {
    fs.closeSync(fd);
  }
}

/** Writes `bytes` back over the file in place (as `cp backup evidence.db` does). */
export function restoreFile(file: string, bytes: Uint8Array): void {
  const fd = fs.openSync(file, 'r+');
  try {
    fs.ftruncateSync(fd, 0);
    fs.writeSync(fd, bytes, 0, bytes.length, 0);
  } finally {
    fs.closeSync(fd);
  }
}

/** Polls `probe` until it resolves (or the attempts run out, rethrowing the last failure). */
export async function eventually<T>(probe: () => Promise<T>, attempts = 100, pauseMs = 200): Promise<T> {
  let last: unknown;
  for (let i = 0; i < attempts; i++) {
    try {
      return await probe();
    } catch (error) {
      last = error;
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
  }
  throw last;
}
