import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { ConfigError, loadConfig } from '../../src/core/config.js';

describe('configuration', () => {
  it('has the documented defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ port: 8080, host: '127.0.0.1', mode: 'live', bodyLimit: 16 * 1024 * 1024, databaseUrl: null, logLevel: 'info' });
    expect(c.dataDir).toBe(path.resolve('data'));
  });

  it('reads environment variables and lets flags win', () => {
    const c = loadConfig({ PORT: '9000', EVIDENCE_MODE: 'sample', EVIDENCE_BODY_LIMIT: '2MiB' }, { port: '9100' });
    expect(c.port).toBe(9100);
    expect(c.mode).toBe('sample');
    expect(c.bodyLimit).toBe(2 * 1024 * 1024);
  });

  it('reads IORB from the PRATES package unless told to read the Board page', () => {
    expect(loadConfig({}).iorbSource).toBe('prates_ddp');
    expect(loadConfig({ EVIDENCE_IORB_SOURCE: 'board_iorb_page' }).iorbSource).toBe('board_iorb_page');
    expect(loadConfig({ EVIDENCE_IORB_SOURCE: 'board_iorb_page' }, { iorbSource: 'prates_ddp' }).iorbSource).toBe('prates_ddp');
  });

  it('answers any Host unless given the host names to answer for', () => {
    expect(loadConfig({}).allowedHosts).toEqual([]);
    expect(loadConfig({ EVIDENCE_ALLOWED_HOSTS: ' evidence.example ,localhost:8080,[::1]:8080,' }).allowedHosts).toEqual(['evidence.example', 'localhost:8080', '[::1]:8080']);
  });

  it.each([
    [{ EVIDENCE_IORB_SOURCE: 'fred' }, /EVIDENCE_IORB_SOURCE/],
    [{ PORT: 'eighty' }, /PORT/],
    [{ PORT: '70000' }, /PORT/],
    [{ EVIDENCE_MODE: 'demo' }, /EVIDENCE_MODE/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL/],
    [{ EVIDENCE_BODY_LIMIT: 'lots' }, /EVIDENCE_BODY_LIMIT/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL/],
    [{ EVIDENCE_PUBLISHER_BASE_NYFED: 'ftp://x' }, /NYFED/],
    [{ EVIDENCE_DATADIR: '/tmp' }, /unknown setting EVIDENCE_DATADIR/],
    [{ EVIDENCE_ALLOWED_HOSTS: 'https://evidence.example' }, /EVIDENCE_ALLOWED_HOSTS/],
    [{ EVIDENCE_ALLOWED_HOSTS: 'evidence.example, under_score.example' }, /EVIDENCE_ALLOWED_HOSTS/],
    [{ EVIDENCE_ALLOWED_HOSTS: 'evidence.example:port' }, /EVIDENCE_ALLOWED_HOSTS/],
    [{ EVIDENCE_ALLOWED_HOSTS: ',' }, /EVIDENCE_ALLOWED_HOSTS is set but names no host/],
    [{ EVIDENCE_ALLOWED_HOSTS: ' , ' }, /EVIDENCE_ALLOWED_HOSTS is set but names no host/],
    [{ EVIDENCE_ALLOWED_HOSTS: 'localhost:0' }, /EVIDENCE_ALLOWED_HOSTS/],
    [{ EVIDENCE_ALLOWED_HOSTS: 'localhost:99999' }, /EVIDENCE_ALLOWED_HOSTS/],
    [{ EVIDENCE_ALLOWED_HOSTS: '-bad-.example' }, /EVIDENCE_ALLOWED_HOSTS/],
    [{ EVIDENCE_ALLOWED_HOSTS: '[not:v6]' }, /EVIDENCE_ALLOWED_HOSTS/],
  ])('refuses %o with a message naming the setting', (env, pattern) => {
    expect(() => loadConfig(env as NodeJS.ProcessEnv)).toThrow(ConfigError);
    expect(() => loadConfig(env as NodeJS.ProcessEnv)).toThrow(pattern);
  });
});
