import pg from 'pg';
import { Kysely, sql } from 'kysely';
import { CurrentSchemaPostgresDialect } from './postgres-introspector.js';
import type { Database } from './schema.js';
import { migrate, probeWith, releaseLeaseWith, tryLeaseWith, type Storage } from './storage.js';

export interface PostgresOptions {
  connectionString: string;
  /** Schema to use instead of `public` (tests give each run its own). */
  schema?: string;
  migrate?: boolean;
  maxConnections?: number;
}

const INT8_OID = 20;
const NUMERIC_OID = 1700;

// 64-bit integers come back from pg as strings; every bigint we store (epoch ms, counts)
// is far below 2^53, so numbers are exact and simpler for callers.
const typeParsers = {
  getTypeParser(oid: number, format?: 'text' | 'binary'): (value: string) => unknown {
    if (oid === INT8_OID || oid === NUMERIC_OID) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format) as (value: string) => unknown;
  },
};

function redact(connectionString: string): string {
  try {
    const url = new URL(connectionString);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return 'postgres (unparsable URL)';
  }
}

/** 64-bit advisory lock key from a name (FNV-1a, stable across instances). */
function lockKey(name: string): bigint {
  let h = 0xcbf29ce484222325n;
  for (const byte of Buffer.from(name, 'utf8')) {
    h ^= BigInt(byte);
    h = (h * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return BigInt.asIntN(64, h);
}

/**
 * Every wait for PostgreSQL while serving is bounded, as SQLite's is (its 5 s busy wait): a
 * table an outside session locked, a server that stopped answering (frozen, a dead network)
 * or a pool lent out entirely used to hold requests for as long as the cause lasted, and
 * readiness with them. Past a bound the query fails and the route answers its 503.
 * - a free connection from the pool, or a new one: 5 s;
 * - a lock (rows, tables, the advisory locks of serialized sections): 5 s;
 * - one statement on the server: 30 s, and 35 s for its answer to arrive at all.
 */
export const PG_WAIT_BOUNDS = {
  connectionTimeoutMillis: 5_000,
  lock_timeout: 5_000,
  statement_timeout: 30_000,
  query_timeout: 35_000,
  keepAlive: true,
} as const satisfies pg.PoolConfig;

export async function openPostgresStorage(options: PostgresOptions): Promise<Storage> {
  const schema = options.schema;
  if (schema !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new Error(`invalid schema name ${schema}`);
  const base: pg.PoolConfig = {
    connectionString: options.connectionString,
    types: typeParsers,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  };
  // Setting up (schema, migrations) may wait as long as it takes: instances starting together
  // migrate one after another behind the migrator's lock.
  if (schema || options.migrate !== false) {
    const setup = new pg.Pool({ ...base, max: 1 });
    setup.on('error', () => undefined);
    try {
      if (schema) await setup.query(`create schema if not exists ${schema}`);
      if (options.migrate !== false) {
        const migrator = new Kysely<Database>({ dialect: new CurrentSchemaPostgresDialect({ pool: setup }) });
        await migrate(migrator, 'postgres');
      }
    } finally {
      await setup.end();
    }
  }
  const pool = new pg.Pool({ ...base, max: options.maxConnections ?? 10, ...PG_WAIT_BOUNDS });
  // A client whose server goes away emits 'error' — on the pool while idle, on itself while
  // lent out — and an unheard 'error' would end the process. The query in flight fails on
  // its own, the pool drops the dead client and the next query connects afresh, so an
  // outage costs failed queries (503s, readiness down) until the server is back.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  const db = new Kysely<Database>({ dialect: new CurrentSchemaPostgresDialect({ pool }) });
  const storage: Storage = {
    dialect: 'postgres',
    db,
    location: redact(options.connectionString),
    ping: () => probeWith(db, 'postgres'),
    distrust: () => undefined,
    serialized(lockName, fn) {
      return db.transaction().execute(async (trx) => {
        await sql`select pg_advisory_xact_lock(${lockKey(lockName).toString()}::bigint)`.execute(trx);
        return fn(trx);
      });
    },
    tryLease: (name, holder, ttlMs, nowMs = Date.now()) => tryLeaseWith(storage, name, holder, ttlMs, nowMs),
    releaseLease: (name, holder) => releaseLeaseWith(storage, name, holder),
    close: () => db.destroy(),
  };
  return storage;
}
