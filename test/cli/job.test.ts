import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { enroll } from '../../src/applications/enroll.js';
import { sqliteBackend, tempDir } from '../helpers/storage.js';
import { startEvidenceServer, type EvidenceServer } from '../funding/job/support.js';

const bin = path.resolve('bin/evidence-desk.js');
const cleanEnv = () => Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('EVIDENCE_') && k !== 'DATABASE_URL'));

// Asynchronous spawn: the server answering the job lives in this process.
function run(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

describe('evidence-desk job', () => {
  let s: EvidenceServer;
  let state: string;
  beforeEach(async () => {
    s = await startEvidenceServer(sqliteBackend);
    state = tempDir('evidence-job-cli-');
  });
  afterEach(async () => {
    await s.close();
    fs.rmSync(state, { recursive: true, force: true });
  });

  it('prints exactly one JSON line: updated (exit 0), then unchanged (exit 0); no progress lines without a TTY', async () => {
    const packet = await s.capture();
    const first = await run(['job', '--state', state, '--base', s.base]);
    expect(first.status).toBe(0);
    expect(first.stderr).toBe('');
    const lines = first.stdout.split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe('');
    expect(JSON.parse(lines[0])).toMatchObject({ status: 'updated', packet_id: packet, ready: true, changes: null });
    const second = await run(['job', '--state', state, '--base', s.base]);
    expect(second.status).toBe(0);
    expect(JSON.parse(second.stdout)).toEqual({ status: 'unchanged', packet_id: packet, ready: true, review_asof: '2026-10-20' });
  });

  it.skipIf(process.platform === 'win32')('exits 2 with the failed line and a chmod 600 hint for a token file readable by others, never printing the token', async () => {
    await s.capture();
    const { token } = await enroll({ storage: s.storage, clock: s.clock }, { excluded: false });
    const tokenFile = path.join(state, 'token');
    fs.writeFileSync(tokenFile, token);
    fs.chmodSync(tokenFile, 0o644);
    const out = await run(['job', '--state', state, '--base', s.base, '--token-file', tokenFile]);
    expect(out.status).toBe(2);
    expect(JSON.parse(out.stdout)).toEqual({ status: 'failed', cursor_preserved: true, reason: expect.any(String), error: 'token_file' });
    expect(out.stdout.trim().split('\n')).toHaveLength(1);
    expect(out.stderr).toContain('chmod 600');
    expect(out.stdout + out.stderr).not.toContain(token);
    expect(s.requests).toEqual([]);
  });

  it('exits 2 without --state (usage error)', async () => {
    const out = await run(['job', '--base', s.base]);
    expect(out.status).toBe(2);
    expect(out.stderr).toContain('--state');
  });
});
