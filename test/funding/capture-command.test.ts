import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { openSqliteStorage } from '../../src/storage/sqlite.js';
import { CAPTURE_LEASE } from '../../src/funding/archive.js';
import { tempDir } from '../helpers/storage.js';
import { bin, cleanEnv, startServe } from '../helpers/serve.js';

const run = (args: string[]) => spawnSync(process.execPath, [bin, 'capture', ...args], { encoding: 'utf8', env: cleanEnv(), timeout: 60_000 });

function oneJsonLine(stdout: string): Record<string, unknown> {
  const lines = stdout.trim().split('\n');
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0]);
}

describe('evidence-desk capture', () => {
  it('exits 0 and prints one JSON line after archiving a packet (sample documents, no network)', () => {
    const dataDir = tempDir();
    const out = run(['--mode', 'sample', '--data-dir', dataDir]);
    expect(out.status).toBe(0);
    expect(oneJsonLine(out.stdout)).toMatchObject({ ran: true, outcome: 'packet_created', sample_day: 'day-1', error: null });
  });

  it('exits 1 after recording a failed attempt', () => {
    const dataDir = tempDir();
    const base = 'http://127.0.0.1:9';
    const out = run(['--data-dir', dataDir, '--publisher-base-nyfed', base, '--publisher-base-frb', base, '--publisher-base-treasury', base]);
    expect(out.status).toBe(1);
    expect(oneJsonLine(out.stdout)).toMatchObject({ ran: true, outcome: 'failed', error_code: 'publisher_unavailable' });
  });

  it('exits 2 when the database cannot be reached, the error text naming the same code as the reason', () => {
    const out = run(['--mode', 'sample', '--database-url', 'postgres://nobody@127.0.0.1:9/none']);
    expect(out.status).toBe(2);
    const line = oneJsonLine(out.stdout);
    expect(line).toMatchObject({ ran: false, reason: 'storage_unavailable' });
    expect(String(line.error)).toMatch(/^storage_unavailable: /);
  });

  it('exits 2 without recording anything while another capture holds the lease', async () => {
    const dataDir = tempDir();
    const storage = await openSqliteStorage({ file: path.join(dataDir, 'evidence.db') });
    try {
      expect(await storage.tryLease(CAPTURE_LEASE, 'another-instance', 60_000)).toBe(true);
      const out = run(['--mode', 'sample', '--data-dir', dataDir]);
      expect(out.status).toBe(2);
      expect(oneJsonLine(out.stdout)).toEqual({ ran: false, reason: 'capture_in_progress' });
      const attempts = await storage.db.selectFrom('funding_attempts').selectAll().execute();
      expect(attempts).toEqual([]);
    } finally {
      await storage.close();
    }
  });
});

describe('the capture scheduler in serve', () => {
  it('captures right after start, so a sample-mode server answers latest without any request to capture', async () => {
    const served = await startServe(['--mode', 'sample', '--capture-interval', '900', '--data-dir', tempDir()]);
    try {
      let status = 0;
      let body: Record<string, unknown> = {};
      for (let i = 0; i < 100 && status !== 200; i++) {
        const res = await fetch(`${served.address}/v1/funding/latest`);
        status = res.status;
        body = (await res.json()) as Record<string, unknown>;
        if (status !== 200) await new Promise((r) => setTimeout(r, 100));
      }
      expect(status).toBe(200);
      expect(body.sample).toBe(true);
      expect(await served.stop()).toBe(0);
    } finally {
      served.kill();
    }
  });
});
