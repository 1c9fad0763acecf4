// The data group's settings: defaults, bounds and the start-up refusal of a bad release commit.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_SOURCE_URLS, loadConfig } from '../../src/core/config.js';
import { bin, cleanEnv } from '../helpers/serve.js';

describe('data group settings', () => {
  it('default to the public source URLs, the upstream TTLs, 90 days of retention and a 24 h pin window', () => {
    const config = loadConfig({});
    expect(config.sourceUrls).toEqual(DEFAULT_SOURCE_URLS);
    expect(config).toMatchObject({ sourceCacheTtl: 60, sourceErrorTtl: 5, snapshotRetentionDays: 90, snapshotPinHours: 24, releaseCommit: null });
  });

  it('read every source URL from its own variable', () => {
    const env = {
      EVIDENCE_SOURCE_URL_MONEY_MARKET: 'https://a.test/mm',
      EVIDENCE_SOURCE_URL_CAPITAL_MARKET: 'https://a.test/cm',
      EVIDENCE_SOURCE_URL_CHINA_ECONOMY_PALIMPSEST: 'https://a.test/p',
      EVIDENCE_SOURCE_URL_CHINA_ECONOMY_SEICHE: 'https://a.test/s',
      EVIDENCE_SOURCE_URL_BANK_RISK: 'https://a.test/b',
      EVIDENCE_SOURCE_URL_MARKET_LIQUIDITY: 'http://127.0.0.1:7000/l',
    };
    expect(Object.values(loadConfig(env).sourceUrls)).toEqual(Object.values(env));
  });

  it.each([
    [{ EVIDENCE_SOURCE_CACHE_TTL: '301' }, /EVIDENCE_SOURCE_CACHE_TTL/],
    [{ EVIDENCE_SOURCE_ERROR_TTL: '31' }, /EVIDENCE_SOURCE_ERROR_TTL/],
    [{ EVIDENCE_SNAPSHOT_RETENTION_DAYS: '0' }, /EVIDENCE_SNAPSHOT_RETENTION_DAYS/],
    [{ EVIDENCE_SNAPSHOT_PIN_HOURS: '23' }, /EVIDENCE_SNAPSHOT_PIN_HOURS/],
    [{ EVIDENCE_SNAPSHOT_RETENTION_DAYS: '1', EVIDENCE_SNAPSHOT_PIN_HOURS: '25' }, /must not exceed/],
    [{ EVIDENCE_SOURCE_URL_MARKETS: 'https://a.test/' }, /unknown setting EVIDENCE_SOURCE_URL_MARKETS/],
  ])('refuse %o', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('stop `serve` with exit code 2 on a release commit that is not 40 lowercase hex', () => {
    const result = spawnSync(process.execPath, [bin, 'serve', '--port', '0'], {
      env: { ...cleanEnv(), EVIDENCE_RELEASE_COMMIT: 'main' },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/configuration error: EVIDENCE_RELEASE_COMMIT must be exactly 40 lowercase hexadecimal characters/);
  });
});
