// `evidence-desk capture --check`: one line per publisher document and one for the
// packet, against the local publisher server; nothing stored.

import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkPublishers, formatCheckLine, type CheckLine } from '../../src/funding/check.js';
import { PUBLISHER_KEYS } from '../../src/funding/publishers/types.js';
import { tempDir } from '../helpers/storage.js';
import { bin, cleanEnv } from '../helpers/serve.js';
import { fixtureBytes, liveConfig, startPublisherServer, testClock, type PublisherServer } from './support.js';

const limits = { maxBytes: 2_000_000, socketTimeoutMs: 2000, deadlineMs: 3000 };

describe('checkPublishers', () => {
  let server: PublisherServer;
  beforeEach(async () => {
    server = await startPublisherServer();
  });
  afterEach(async () => server.close());

  const check = (overrides = {}) => checkPublishers({ config: liveConfig(server, overrides), clock: testClock(), fetchLimits: limits });
  const line = (lines: CheckLine[], item: string) => lines.find((l) => l.item === item)!;

  it('reports every document with URL, status, size and what it read, then the packet they make', async () => {
    const lines = await check();
    expect(lines.map((l) => l.item)).toEqual([...PUBLISHER_KEYS, 'packet']);
    expect(lines.every((l) => l.ok)).toBe(true);
    expect(server.requests).toHaveLength(7);
    expect(line(lines, 'iorb')).toMatchObject({
      url: `${server.base}/datadownload/Output.aspx?rel=PRATES&filetype=zip`, http_status: 200, bytes: fixtureBytesLength('iorb'), reason: null,
      result: 'policy.iorb newest 2026-10-21 (38 dates)',
    });
    expect(line(lines, 'tga').url).toContain('record_date:gte:2026-10-12');
    expect(line(lines, 'packet').result).toMatch(/^review_asof 2026-10-20; 9 rows: policy\.sofr=3\.87@2026-10-20 .*liquidity\.srf=0\.001@2026-10-20$/);
    const text = formatCheckLine(line(lines, 'sofr'));
    expect(text).toMatch(/^ok {3}sofr {5}HTTP 200 +[0-9]+ bytes {2}http:\/\/127\.0\.0\.1:[0-9]+\/api\/rates\/secured\/sofr\/last\/10\.json {2}policy\.sofr newest 2026-10-20 \(10 dates\); /);
  });

  it('gives the exact reason of each failing document and does not try to build the packet', async () => {
    server.documents.iorb = { status: 404, body: 'gone' };
    server.documents.reserves = { body: fixtureBytes('reserves/label-missing.htm') };
    const lines = await check();
    expect(line(lines, 'iorb')).toMatchObject({ ok: false, http_status: 404, bytes: null, reason: 'fetch_http_status', result: 'fetch_http_status: answered HTTP 404' });
    expect(line(lines, 'reserves')).toMatchObject({ ok: false, http_status: 200, reason: 'document_row_missing' });
    expect(line(lines, 'reserves').bytes).toBeGreaterThan(0);
    expect(line(lines, 'sofr').ok).toBe(true);
    // Without IORB there is no review date: the TGA is still checked, over the widest window a capture accepts.
    expect(line(lines, 'tga')).toMatchObject({ ok: true });
    expect(line(lines, 'tga').url).toContain('record_date:gte:2026-10-05');
    expect(line(lines, 'packet')).toMatchObject({ ok: false, reason: null, result: 'not attempted: 2 documents failed (iorb, reserves)' });
    expect(formatCheckLine(line(lines, 'iorb'))).toMatch(/^FAIL iorb {5}HTTP 404 {13}- {2}http.*fetch_http_status: answered HTTP 404$/);
  });

  it('says why the newest date of a document that parses was rejected', async () => {
    server.documents.tga = { body: fixtureBytes('tga/amount-in-dollars.json') };
    const lines = await check();
    expect(line(lines, 'tga').ok).toBe(true);
    expect(line(lines, 'tga').result).toMatch(/^liquidity\.tga newest none accepted \(6 dates, 6 rejected; 2026-10-20 rejected: document_implausible_amount: open_today_bal for 2026-10-20 is the text "924627000000"/);
    expect(line(lines, 'packet')).toMatchObject({ ok: false, reason: 'document_implausible_amount' });
  });

  it('says when the documents parse but would not make a packet', async () => {
    const lines = await checkPublishers({ config: liveConfig(server), clock: testClock('2026-10-30T12:00:00Z'), fetchLimits: limits });
    expect(lines.slice(0, 7).every((l) => l.ok)).toBe(true);
    expect(line(lines, 'packet')).toMatchObject({ ok: false, reason: 'horizon_stale' });
    expect(line(lines, 'packet').result).toMatch(/^horizon_stale: .* \(sofr\)$/);
  });

  it('checks the IORB page when that source is configured', async () => {
    server.documents.iorb = { body: fixtureBytes('iorb/board-page.htm') };
    const lines = await check({ iorbSource: 'board_iorb_page' });
    expect(line(lines, 'iorb')).toMatchObject({ ok: true, url: `${server.base}/monetarypolicy/reserve-balances.htm`, result: 'policy.iorb newest 2026-10-21 (1911 dates)' });
    expect(line(lines, 'packet').ok).toBe(true);
  });

  function fixtureBytesLength(key: 'iorb'): number {
    return server.documents[key].body.length;
  }
});

describe('evidence-desk capture --check', () => {
  let server: PublisherServer;
  beforeEach(async () => {
    server = await startPublisherServer();
  });
  afterEach(async () => server.close());

  // Asynchronous: the publisher server answers from this process while the CLI runs.
  const run = (args: string[]) => new Promise<{ status: number | null; stdout: string }>((resolve) => {
    execFile(process.execPath, [bin, 'capture', '--check', ...args], { encoding: 'utf8', env: cleanEnv(), timeout: 60_000 }, (error, stdout) => {
      resolve({ status: error ? (error as { code?: number }).code ?? null : 0, stdout });
    });
  });
  const bases = () => ['--publisher-base-nyfed', server.base, '--publisher-base-frb', server.base, '--publisher-base-treasury', server.base];

  it('prints one line per document and the packet line, exits 1 when anything fails, and stores nothing', async () => {
    const dataDir = tempDir();
    server.documents.srf = { body: fixtureBytes('srf/one-operation.json') };
    const out = await run([...bases(), '--data-dir', dataDir]);
    const lines = out.stdout.trim().split('\n');
    expect(lines).toHaveLength(8);
    expect(lines.map((l) => l.split(/ +/)[1])).toEqual([...PUBLISHER_KEYS, 'packet']);
    for (const l of lines.slice(0, 7)) expect(l).toMatch(/^ok {3}\S+ +HTTP 200 +[0-9]+ bytes {2}http:\/\/127\.0\.0\.1:/);
    // The recorded documents are from October 2026; against the real clock the horizon is stale, or the SRF day fails first.
    expect(lines[7]).toMatch(/^FAIL packet /);
    expect(out.status).toBe(1);
    expect(readdirSync(dataDir)).toEqual([]);
    expect(server.requests).toHaveLength(7);
  });

  it('prints JSON lines with --json, and exits 0 when everything passes (sample documents, no network)', async () => {
    const out = await run(['--mode', 'sample', '--json', ...bases()]);
    const lines = out.stdout.trim().split('\n').map((l) => JSON.parse(l) as CheckLine);
    expect(lines.map((l) => [l.item, l.ok])).toEqual([...PUBLISHER_KEYS, 'packet'].map((k) => [k, true]));
    expect(lines[0].url).toBe('sample:publishers/day-1/sofr.json');
    expect(out.status).toBe(0);
    expect(server.requests).toHaveLength(0);
  });
});
