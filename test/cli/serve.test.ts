import { describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { tempDir } from '../helpers/storage.js';

const bin = path.resolve('bin/evidence-desk.js');
const cleanEnv = () => Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('EVIDENCE_') && k !== 'DATABASE_URL' && k !== 'PORT'));

describe('evidence-desk serve', () => {
  it('documents every setting in --help', () => {
    const out = spawnSync(process.execPath, [bin, 'serve', '--help'], { encoding: 'utf8', env: cleanEnv() });
    expect(out.status).toBe(0);
    for (const name of ['PORT', 'HOST', 'EVIDENCE_DATA_DIR', 'DATABASE_URL', 'EVIDENCE_MODE', 'EVIDENCE_BODY_LIMIT', 'LOG_LEVEL']) {
      expect(out.stdout.replace(/\s+/g, ' ')).toContain(name);
    }
  });

  it('stops at start with exit 2 and a clear message on an invalid setting', () => {
    const out = spawnSync(process.execPath, [bin, 'serve'], { encoding: 'utf8', env: { ...cleanEnv(), EVIDENCE_MODE: 'demo' } });
    expect(out.status).toBe(2);
    expect(out.stderr).toMatch(/EVIDENCE_MODE must be one of live, sample/);
  });

  it('serves health, readiness, OpenAPI and docs from a real listening process, then shuts down on SIGTERM', async () => {
    const dataDir = tempDir();
    const child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--capture-interval', '0', '--log-level', 'info', '--data-dir', dataDir], {
      env: cleanEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const address = await new Promise<string>((resolve, reject) => {
        let buffer = '';
        child.stdout.on('data', (chunk: Buffer) => {
          buffer += chunk.toString();
          const m = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(buffer);
          if (m) resolve(m[1]);
        });
        child.on('exit', (code) => reject(new Error(`serve exited early with ${code}`)));
        setTimeout(() => reject(new Error('serve did not start in time')), 20_000);
      });
      const health = await fetch(`${address}/healthz`);
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({ status: 'ok' });
      expect((await fetch(`${address}/readyz`)).status).toBe(200);
      expect(((await (await fetch(`${address}/openapi.json`)).json()) as { openapi: string }).openapi).toBe('3.1.0');
      expect((await fetch(`${address}/docs/`)).status).toBe(200);
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
