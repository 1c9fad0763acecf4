// Opens every storage backend a test should run against: a fresh SQLite file always,
// and a fresh PostgreSQL schema when DATABASE_URL names a server (CI starts one).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openSqliteStorage } from '../../src/storage/sqlite.js';
import { openPostgresStorage } from '../../src/storage/postgres.js';
import type { Storage } from '../../src/storage/storage.js';

export interface BackendFactory {
  name: 'sqlite' | 'postgres';
  /** Opens a new, empty, migrated store; `shared` opens another handle on the same data. */
  open(): Promise<{ storage: Storage; openAnother(): Promise<Storage>; cleanup(): Promise<void> }>;
}

export const postgresUrl = process.env.DATABASE_URL && /^postgres(ql)?:\/\//.test(process.env.DATABASE_URL)
  ? process.env.DATABASE_URL
  : undefined;

export function tempDir(prefix = 'evidence-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export const sqliteBackend: BackendFactory = {
  name: 'sqlite',
  async open() {
    const dir = tempDir();
    const file = path.join(dir, 'evidence.db');
    const handles: Storage[] = [];
    const storage = await openSqliteStorage({ file });
    handles.push(storage);
    return {
      storage,
      async openAnother() {
        const s = await openSqliteStorage({ file });
        handles.push(s);
        return s;
      },
      async cleanup() {
        for (const h of handles) await h.close().catch(() => undefined);
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  },
};

export const postgresBackend: BackendFactory = {
  name: 'postgres',
  async open() {
    if (!postgresUrl) throw new Error('DATABASE_URL is not set');
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const handles: Storage[] = [];
    const storage = await openPostgresStorage({ connectionString: postgresUrl, schema });
    handles.push(storage);
    return {
      storage,
      async openAnother() {
        const s = await openPostgresStorage({ connectionString: postgresUrl, schema });
        handles.push(s);
        return s;
      },
      async cleanup() {
        for (const h of handles) await h.close().catch(() => undefined);
        const client = new pg.Client({ connectionString: postgresUrl });
        await client.connect();
        try {
          await client.query(`drop schema if exists ${schema} cascade`);
        } finally {
          await client.end();
        }
      },
    };
  },
};

/** The backends to run a storage-dependent test against. */
export const backends: BackendFactory[] = postgresUrl ? [sqliteBackend, postgresBackend] : [sqliteBackend];
