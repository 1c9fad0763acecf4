// Service configuration: every setting is an environment variable and a `serve` flag.
// Values are checked once at start; an unknown EVIDENCE_* variable or a malformed value
// stops the process with a message naming the setting, instead of running misconfigured.

import { availableParallelism } from 'node:os';
import path from 'node:path';
import { splitHost } from './hosts.js';

export type EvidenceMode = 'live' | 'sample';
/** Mirrors IORB_SOURCES of src/funding/publishers/catalogue.ts (a test keeps them equal). */
export const IORB_SOURCE_SETTINGS = ['prates_ddp', 'board_iorb_page'] as const;
export type IorbSourceSetting = (typeof IORB_SOURCE_SETTINGS)[number];
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | null;
  mode: EvidenceMode;
  bodyLimit: number;
  logLevel: LogLevel;
  /** Seconds between scheduled captures; 0 disables the scheduler. */
  captureInterval: number;
  /** Seconds after which the newest successful attempt no longer makes `latest` ready. */
  freshnessLimit: number;
  publisherBases: { nyfed: string; frb: string; treasury: string };
  /** Where the funding capture reads IORB (the Board's PRATES download, or its IORB page). */
  iorbSource: IorbSourceSetting;
  /** Event-loop delay (ms) above which requests are shed with 503. */
  maxEventLoopDelay: number;
  /** Milliseconds a client has to send the request line and headers (src/http/edge.ts). */
  headersTimeout: number;
  /** Milliseconds a client has to send the whole request, body included; also the socket idle limit. */
  requestTimeout: number;
  /** Milliseconds an idle persistent connection is kept open between requests. */
  keepAliveTimeout: number;
  /** Most PostgreSQL connections this process opens (its pool size). */
  databasePoolSize: number;
  /** Worker threads running group A analyses; 0 runs them on the event loop. */
  analysisWorkers: number;
  /** Analyses that may wait for a worker; more are answered 503 + Retry-After. */
  analysisQueue: number;
  /** Data group (C): the URL of each source document (live mode). */
  sourceUrls: Record<SourceKey, string>;
  /** Seconds a successful source retrieval is reused before it is fetched again. */
  sourceCacheTtl: number;
  /** Seconds a failed source retrieval is reused before it is tried again. */
  sourceErrorTtl: number;
  /** Days a data snapshot (and the retrievals and documents it needs) is kept at most. */
  snapshotRetentionDays: number;
  /** Hours every data snapshot is kept at least, repeated ones included (paging by snapshot id). */
  snapshotPinHours: number;
  /** The build's 40-hex source commit, operator supplied; null when not configured. */
  releaseCommit: string | null;
  /** Browser origins, besides this service's own, whose pages may send consented download events. */
  eventOrigins: string[];
  /** Host names (optionally with a port) this instance answers for; empty answers any Host. */
  allowedHosts: string[];
}

/** The data group's source documents, one per (topic, source); see src/data/registry.ts. */
export const SOURCE_KEYS = [
  'money-market',
  'capital-market',
  'china-economy-palimpsest',
  'china-economy-seiche',
  'bank-risk',
  'market-liquidity',
] as const;
export type SourceKey = (typeof SOURCE_KEYS)[number];

export const DEFAULT_SOURCE_URLS: Readonly<Record<SourceKey, string>> = Object.freeze({
  'money-market': 'https://api.seiche.info/api/v2/money-markets',
  'capital-market': 'https://api.seiche.info/api/v2/world-markets?section=capital_markets',
  'china-economy-palimpsest': 'https://www.palimpsest.info/readings/china-index-latest.json',
  'china-economy-seiche': 'https://api.seiche.info/api/v2/world-markets?section=china_macro',
  'bank-risk': 'https://api.liquilens.in/api/failure-radar/board',
  'market-liquidity': 'https://api.seiche.info/undertow/x402/summary',
});

export interface SettingSpec {
  key: keyof Config | `publisherBases.${'nyfed' | 'frb' | 'treasury'}` | `sourceUrls.${SourceKey}`;
  env: string;
  flag: string;
  description: string;
  defaultText: string;
  parse(value: string): unknown;
}

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/**
 * The shortest pin window a configuration may set. The data group relies on it: a snapshot
 * younger than this cannot have been swept on any instance (src/data/snapshots.ts).
 */
export const MIN_SNAPSHOT_PIN_HOURS = 24;

function integer(name: string, min: number, max: number) {
  return (value: string): number => {
    if (!/^[0-9]+$/.test(value.trim())) throw new ConfigError(`${name} must be a whole number, got ${JSON.stringify(value)}`);
    const n = Number(value.trim());
    if (n < min || n > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${n}`);
    return n;
  };
}

function oneOf<T extends string>(name: string, allowed: readonly T[]) {
  return (value: string): T => {
    if (!(allowed as readonly string[]).includes(value)) {
      throw new ConfigError(`${name} must be one of ${allowed.join(', ')}, got ${JSON.stringify(value)}`);
    }
    return value as T;
  };
}

function httpBase(name: string) {
  return (value: string): string => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      throw new ConfigError(`${name} must be an absolute http(s) URL, got ${JSON.stringify(value)}`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new ConfigError(`${name} must use http or https, got ${url.protocol}`);
    }
    if (url.search || url.hash || url.username || url.password) {
      throw new ConfigError(`${name} must not carry a query, fragment or credentials`);
    }
    return value.replace(/\/+$/, '');
  };
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

// Sources are fetched over HTTPS; plain http is accepted only for a loopback host, which an
// operator (or a test) must name explicitly: recorded documents served on this machine.
function sourceUrl(name: string) {
  return (value: string): string => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      throw new ConfigError(`${name} must be an absolute https URL, got ${JSON.stringify(value)}`);
    }
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname))) {
      throw new ConfigError(`${name} must use https (plain http only for localhost, 127.0.0.1 or [::1]), got ${JSON.stringify(value)}`);
    }
    if (url.hash || url.username || url.password) {
      throw new ConfigError(`${name} must not carry a fragment or credentials`);
    }
    return url.toString();
  };
}

/** The entries of a comma-separated setting, trimmed, empty ones dropped. */
function commaList(value: string): string[] {
  return value.split(',').map((entry) => entry.trim()).filter((entry) => entry !== '');
}

// A comma-separated list of host names (name or name:port), as Host headers carry them.
function hostList(value: string): string[] {
  const hosts = commaList(value);
  // Set but naming nothing would silently mean "any host": the opposite of what was asked.
  if (hosts.length === 0) throw new ConfigError('EVIDENCE_ALLOWED_HOSTS is set but names no host; leave it unset to answer any Host');
  for (const host of hosts) {
    if (!splitHost(host)) throw new ConfigError(`EVIDENCE_ALLOWED_HOSTS must list host names such as evidence.example.org or localhost:8080 (ports 1–65535), got ${JSON.stringify(host)}`);
  }
  return hosts;
}

// A comma-separated list of exact origins (scheme://host[:port]), as browsers send them.
function originList(value: string): string[] {
  const origins = commaList(value);
  for (const origin of origins) {
    let url: URL | undefined;
    try {
      url = new URL(origin);
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || `${url.protocol}//${url.host}` !== origin) {
      throw new ConfigError(`EVIDENCE_EVENT_ORIGINS must list origins such as https://example.org (scheme and host only), got ${JSON.stringify(origin)}`);
    }
  }
  return origins;
}

function releaseCommit(value: string): string {
  if (!/^[0-9a-f]{40}$/.test(value)) {
    throw new ConfigError('EVIDENCE_RELEASE_COMMIT must be exactly 40 lowercase hexadecimal characters (a full git commit id), or unset');
  }
  return value;
}

const BYTE_SIZE = /^([0-9]+)\s*(b|kib|mib|gib|kb|mb|gb)?$/i;
const UNITS: Record<string, number> = { b: 1, kib: 1024, mib: 1024 ** 2, gib: 1024 ** 3, kb: 1000, mb: 1000 ** 2, gb: 1000 ** 3 };

function byteSize(name: string, min: number, max: number) {
  return (value: string): number => {
    const m = BYTE_SIZE.exec(value.trim());
    if (!m) throw new ConfigError(`${name} must be a byte count such as 16777216 or 16MiB, got ${JSON.stringify(value)}`);
    const n = Number(m[1]) * UNITS[(m[2] ?? 'b').toLowerCase()];
    if (n < min || n > max) throw new ConfigError(`${name} must be between ${min} and ${max} bytes, got ${n}`);
    return n;
  };
}

export const SETTINGS: readonly SettingSpec[] = [
  { key: 'port', env: 'PORT', flag: '--port <n>', description: 'TCP port to listen on', defaultText: '8080', parse: integer('PORT', 0, 65535) },
  { key: 'host', env: 'HOST', flag: '--host <addr>', description: 'interface address to bind', defaultText: '127.0.0.1',
    parse: (v) => { if (!v.trim()) throw new ConfigError('HOST must not be empty'); return v.trim(); } },
  { key: 'dataDir', env: 'EVIDENCE_DATA_DIR', flag: '--data-dir <dir>', description: 'directory of the embedded SQLite store (evidence.db)', defaultText: './data',
    parse: (v) => { if (!v.trim()) throw new ConfigError('EVIDENCE_DATA_DIR must not be empty'); return path.resolve(v); } },
  { key: 'databaseUrl', env: 'DATABASE_URL', flag: '--database-url <url>', description: 'postgres://… switches storage to PostgreSQL', defaultText: '(unset: SQLite)',
    parse: (v) => {
      if (!/^postgres(ql)?:\/\//.test(v)) throw new ConfigError('DATABASE_URL must start with postgres:// or postgresql://');
      return v;
    } },
  { key: 'mode', env: 'EVIDENCE_MODE', flag: '--mode <mode>', description: 'live (real publishers) or sample (bundled, labelled documents)', defaultText: 'live',
    parse: oneOf('EVIDENCE_MODE', ['live', 'sample'] as const) },
  { key: 'bodyLimit', env: 'EVIDENCE_BODY_LIMIT', flag: '--body-limit <bytes>', description: 'largest accepted request body (bytes, or e.g. 16MiB)', defaultText: '16MiB',
    parse: byteSize('EVIDENCE_BODY_LIMIT', 1024, 1024 ** 3) },
  { key: 'logLevel', env: 'LOG_LEVEL', flag: '--log-level <level>', description: 'fatal, error, warn, info, debug, trace or silent', defaultText: 'info',
    parse: oneOf('LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const) },
  { key: 'captureInterval', env: 'EVIDENCE_CAPTURE_INTERVAL', flag: '--capture-interval <seconds>', description: 'seconds between scheduled funding captures (0 turns the scheduler off)', defaultText: '900',
    parse: integer('EVIDENCE_CAPTURE_INTERVAL', 0, 86400) },
  { key: 'freshnessLimit', env: 'EVIDENCE_FRESHNESS_LIMIT', flag: '--freshness-limit <seconds>', description: 'age after which the newest capture no longer counts as current', defaultText: '1200',
    parse: integer('EVIDENCE_FRESHNESS_LIMIT', 1, 7 * 86400) },
  { key: 'publisherBases.nyfed', env: 'EVIDENCE_PUBLISHER_BASE_NYFED', flag: '--publisher-base-nyfed <url>', description: 'base URL of the New York Fed Markets API', defaultText: 'https://markets.newyorkfed.org',
    parse: httpBase('EVIDENCE_PUBLISHER_BASE_NYFED') },
  { key: 'publisherBases.frb', env: 'EVIDENCE_PUBLISHER_BASE_FRB', flag: '--publisher-base-frb <url>', description: 'base URL of the Federal Reserve Board site', defaultText: 'https://www.federalreserve.gov',
    parse: httpBase('EVIDENCE_PUBLISHER_BASE_FRB') },
  { key: 'publisherBases.treasury', env: 'EVIDENCE_PUBLISHER_BASE_TREASURY', flag: '--publisher-base-treasury <url>', description: 'base URL of the Treasury Fiscal Data API', defaultText: 'https://api.fiscaldata.treasury.gov',
    parse: httpBase('EVIDENCE_PUBLISHER_BASE_TREASURY') },
  { key: 'iorbSource', env: 'EVIDENCE_IORB_SOURCE', flag: '--iorb-source <source>',
    description: 'where live captures read IORB: prates_ddp (Board Data Download Program, PRATES zip) or board_iorb_page (Board interest on reserve balances page)',
    defaultText: 'prates_ddp', parse: oneOf('EVIDENCE_IORB_SOURCE', IORB_SOURCE_SETTINGS) },
  { key: 'maxEventLoopDelay', env: 'EVIDENCE_MAX_EVENT_LOOP_DELAY', flag: '--max-event-loop-delay <ms>', description: 'event-loop delay that triggers load shedding (503 + Retry-After); 0 turns it off', defaultText: '1000',
    parse: integer('EVIDENCE_MAX_EVENT_LOOP_DELAY', 0, 60000) },
  { key: 'headersTimeout', env: 'EVIDENCE_HEADERS_TIMEOUT', flag: '--headers-timeout <ms>', description: 'milliseconds a client has to send the request line and headers (then 408 and close)', defaultText: '10000',
    parse: integer('EVIDENCE_HEADERS_TIMEOUT', 100, 600_000) },
  { key: 'requestTimeout', env: 'EVIDENCE_REQUEST_TIMEOUT', flag: '--request-timeout <ms>', description: 'milliseconds a client has to send the whole request, body included (then 408 and close); also how long a connection may sit with nothing moving', defaultText: '30000',
    parse: integer('EVIDENCE_REQUEST_TIMEOUT', 100, 3_600_000) },
  { key: 'keepAliveTimeout', env: 'EVIDENCE_KEEP_ALIVE_TIMEOUT', flag: '--keep-alive-timeout <ms>', description: 'milliseconds an idle persistent connection stays open between requests', defaultText: '5000',
    parse: integer('EVIDENCE_KEEP_ALIVE_TIMEOUT', 100, 600_000) },
  { key: 'databasePoolSize', env: 'EVIDENCE_DATABASE_POOL_SIZE', flag: '--database-pool-size <n>', description: 'most PostgreSQL connections one process opens', defaultText: '10',
    parse: integer('EVIDENCE_DATABASE_POOL_SIZE', 1, 1000) },
  { key: 'analysisWorkers', env: 'EVIDENCE_ANALYSIS_WORKERS', flag: '--analysis-workers <n>', description: 'worker threads for analysis requests (0 runs them on the event loop)', defaultText: '(cores − 1, at least 1)',
    parse: integer('EVIDENCE_ANALYSIS_WORKERS', 0, 64) },
  { key: 'analysisQueue', env: 'EVIDENCE_ANALYSIS_QUEUE', flag: '--analysis-queue <n>', description: 'analysis requests that may wait for a worker; beyond it 503 + Retry-After', defaultText: '64',
    parse: integer('EVIDENCE_ANALYSIS_QUEUE', 0, 10000) },
  ...SOURCE_KEYS.map((key): SettingSpec => {
    const env = `EVIDENCE_SOURCE_URL_${key.toUpperCase().replace(/-/g, '_')}`;
    return { key: `sourceUrls.${key}`, env, flag: `--source-url-${key} <url>`, description: `URL of the ${key} source document (data group)`, defaultText: DEFAULT_SOURCE_URLS[key],
      parse: sourceUrl(env) };
  }),
  { key: 'sourceCacheTtl', env: 'EVIDENCE_SOURCE_CACHE_TTL', flag: '--source-cache-ttl <seconds>', description: 'seconds a successful source retrieval is reused', defaultText: '60',
    parse: integer('EVIDENCE_SOURCE_CACHE_TTL', 0, 300) },
  { key: 'sourceErrorTtl', env: 'EVIDENCE_SOURCE_ERROR_TTL', flag: '--source-error-ttl <seconds>', description: 'seconds a failed source retrieval is reused', defaultText: '5',
    parse: integer('EVIDENCE_SOURCE_ERROR_TTL', 0, 30) },
  { key: 'snapshotRetentionDays', env: 'EVIDENCE_SNAPSHOT_RETENTION_DAYS', flag: '--snapshot-retention-days <days>', description: 'days data snapshots, retrievals and their documents are kept', defaultText: '90',
    parse: integer('EVIDENCE_SNAPSHOT_RETENTION_DAYS', 1, 3650) },
  { key: 'snapshotPinHours', env: 'EVIDENCE_SNAPSHOT_PIN_HOURS', flag: '--snapshot-pin-hours <hours>', description: 'hours every data snapshot stays answerable by id (older repeats are thinned)', defaultText: '24',
    parse: integer('EVIDENCE_SNAPSHOT_PIN_HOURS', MIN_SNAPSHOT_PIN_HOURS, 87600) },
  { key: 'releaseCommit', env: 'EVIDENCE_RELEASE_COMMIT', flag: '--release-commit <sha>', description: 'full 40-hex source commit of this build (release identity)', defaultText: '(unset: unversioned-local)',
    parse: releaseCommit },
  { key: 'eventOrigins', env: 'EVIDENCE_EVENT_ORIGINS', flag: '--event-origins <list>', description: 'comma-separated browser origins, besides this service, allowed to send consented download events', defaultText: '(none)',
    parse: originList },
  { key: 'allowedHosts', env: 'EVIDENCE_ALLOWED_HOSTS', flag: '--allowed-hosts <list>',
    description: 'comma-separated host names (name or name:port) this instance answers for; other Host headers get 400 host_not_allowed (protects against DNS rebinding)',
    defaultText: '(any)', parse: hostList },
];

export function defaultConfig(): Config {
  return {
    port: 8080,
    host: '127.0.0.1',
    dataDir: path.resolve('data'),
    databaseUrl: null,
    mode: 'live',
    bodyLimit: 16 * 1024 * 1024,
    logLevel: 'info',
    captureInterval: 900,
    freshnessLimit: 1200,
    publisherBases: {
      nyfed: 'https://markets.newyorkfed.org',
      frb: 'https://www.federalreserve.gov',
      treasury: 'https://api.fiscaldata.treasury.gov',
    },
    iorbSource: 'prates_ddp',
    maxEventLoopDelay: 1000,
    headersTimeout: 10_000,
    requestTimeout: 30_000,
    keepAliveTimeout: 5_000,
    databasePoolSize: 10,
    // One core stays with the event loop (HTTP, funding and data reads).
    analysisWorkers: Math.max(1, availableParallelism() - 1),
    analysisQueue: 64,
    sourceUrls: { ...DEFAULT_SOURCE_URLS },
    sourceCacheTtl: 60,
    sourceErrorTtl: 5,
    snapshotRetentionDays: 90,
    snapshotPinHours: 24,
    releaseCommit: null,
    eventOrigins: [],
    allowedHosts: [],
  };
}

function assign(config: Config, key: SettingSpec['key'], value: unknown): void {
  if (key.startsWith('publisherBases.')) {
    const sub = key.slice('publisherBases.'.length) as keyof Config['publisherBases'];
    config.publisherBases[sub] = value as string;
  } else if (key.startsWith('sourceUrls.')) {
    config.sourceUrls[key.slice('sourceUrls.'.length) as SourceKey] = value as string;
  } else {
    (config as unknown as Record<string, unknown>)[key] = value;
  }
}

/**
 * Read by the command's launcher (bin/build.js), not by the service: `EVIDENCE_FROM_SOURCE=1`
 * runs the TypeScript sources even when a current build exists.
 */
export const LAUNCHER_SETTINGS = ['EVIDENCE_FROM_SOURCE'] as const;

/**
 * Builds the configuration from the environment, then flags (flags win). `flags` maps a
 * setting key to the raw flag text as given on the command line.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, flags: Partial<Record<SettingSpec['key'], string>> = {}): Config {
  const known = new Set([...SETTINGS.map((s) => s.env), ...LAUNCHER_SETTINGS]);
  const unknown = Object.keys(env).filter((name) => name.startsWith('EVIDENCE_') && !known.has(name));
  if (unknown.length > 0) {
    throw new ConfigError(`unknown setting ${unknown.sort().join(', ')}; known EVIDENCE_* settings: ${[...known].filter((k) => k.startsWith('EVIDENCE_')).join(', ')}`);
  }
  const config = defaultConfig();
  for (const spec of SETTINGS) {
    const fromFlag = flags[spec.key];
    const raw = fromFlag ?? env[spec.env];
    if (raw === undefined || (fromFlag === undefined && raw === '')) continue;
    assign(config, spec.key, spec.parse(raw));
  }
  if (config.snapshotPinHours > config.snapshotRetentionDays * 24) {
    throw new ConfigError(`EVIDENCE_SNAPSHOT_PIN_HOURS (${config.snapshotPinHours}) must not exceed EVIDENCE_SNAPSHOT_RETENTION_DAYS (${config.snapshotRetentionDays}) in hours`);
  }
  if (config.headersTimeout > config.requestTimeout) {
    throw new ConfigError(`EVIDENCE_HEADERS_TIMEOUT (${config.headersTimeout}) must not exceed EVIDENCE_REQUEST_TIMEOUT (${config.requestTimeout}): the headers are part of the request`);
  }
  return config;
}
