import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { tempDir } from '../helpers/storage.js';
import { bin, cleanEnv, startServe, type ServedProcess } from '../helpers/serve.js';
import { buildIsCurrent } from '../../bin/build.js';

/** The JSON log lines the process wrote once its start line is out. */
async function linesAfterStart(served: ServedProcess): Promise<Record<string, unknown>[]> {
  for (let i = 0; i < 100 && !served.output().includes('evidence-desk is serving'); i++) await new Promise((r) => setTimeout(r, 20));
  return served.logLines();
}

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

  it('fails with exit 2 when it cannot listen: a port in use, a host that does not resolve', async () => {
    const served = await startServe(['--capture-interval', '0', '--data-dir', tempDir()]);
    try {
      const port = new URL(served.address).port;
      for (const args of [['--port', port], ['--port', '0', '--host', 'no-such-host.invalid']]) {
        const out = spawnSync(process.execPath, [bin, 'serve', '--capture-interval', '0', '--data-dir', tempDir(), ...args], { encoding: 'utf8', env: cleanEnv(), timeout: 60_000 });
        expect(out.status, args.join(' ')).toBe(2);
        expect(out.stderr, args.join(' ')).toMatch(/EADDRINUSE|ENOTFOUND|EAI_AGAIN/);
      }
    } finally {
      served.kill();
    }
  }, 120_000);

  it('serves health, readiness, OpenAPI and docs from a real listening process, then shuts down on SIGTERM', async () => {
    const served = await startServe(['--capture-interval', '0', '--data-dir', tempDir()]);
    try {
      const health = await fetch(`${served.address}/healthz`);
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({ status: 'ok' });
      expect((await fetch(`${served.address}/readyz`)).status).toBe(200);
      expect(((await (await fetch(`${served.address}/openapi.json`)).json()) as { openapi: string }).openapi).toBe('3.1.0');
      expect((await fetch(`${served.address}/docs/`)).status).toBe(200);
      expect(await served.stop()).toBe(0);
    } finally {
      served.kill();
    }
  });

  it('names in its start line the code it runs, and warns when that is the sources rather than the build', async () => {
    const dir = tempDir();
    const runs = [
      { env: {}, build: buildIsCurrent() ? 'dist' : 'sources' },
      { env: { EVIDENCE_FROM_SOURCE: '1' }, build: 'sources' },
    ];
    for (const { env, build } of runs) {
      const served = await startServe(['--capture-interval', '0', '--data-dir', dir], env);
      try {
        const lines = await linesAfterStart(served);
        expect(lines.find((l) => l.msg === 'evidence-desk is serving')).toMatchObject({ build });
        expect(lines.some((l) => l.level === 40 && /npm run build/.test(String(l.msg)))).toBe(build === 'sources');
      } finally {
        await served.stop();
        served.kill();
      }
    }
  });
});
