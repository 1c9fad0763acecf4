import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { nowInstant } from '../../src/core/time.js';
import { sha256Hex } from '../../src/core/hash.js';
import { enroll } from '../../src/applications/enroll.js';
import { openSqliteStorage } from '../../src/storage/sqlite.js';
import { tempDir } from '../helpers/storage.js';

const bin = path.resolve('bin/evidence-desk.js');
const cleanEnv = () => Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('EVIDENCE_') && k !== 'DATABASE_URL'));
const run = (args: string[]) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', env: cleanEnv() });

// Each case spawns the CLI (up to four times), ~10 s a spawn on a busy 2-core machine:
// the budget is per case, as in the other CLI tests, never a statement about speed.
describe('evidence-desk keys and usage-report', { timeout: 120_000 }, () => {
  let dataDir: string;
  let ids: string[];
  let tokens: string[];
  beforeEach(async () => {
    dataDir = tempDir('evidence-keys-');
    const storage = await openSqliteStorage({ file: path.join(dataDir, 'evidence.db') });
    const ctx = { storage, clock: nowInstant };
    const a = await enroll(ctx, { excluded: false });
    const b = await enroll(ctx, { excluded: false });
    const c = await enroll(ctx, { excluded: true });
    ids = [a.applicationId, b.applicationId, c.applicationId];
    tokens = [a.token, b.token, c.token];
    await storage.close();
  });
  afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('keys counts prints retained applications per class, without ids or tokens', () => {
    const out = run(['keys', 'counts', '--data-dir', dataDir]);
    expect(out.status).toBe(0);
    expect(JSON.parse(out.stdout)).toEqual({ retained_applications: 3, by_class: { unverified: 2, internal: 1, synthetic: 0, external_verified: 0 } });
    for (const secret of [...ids, ...tokens]) expect(out.stdout).not.toContain(secret);
  });

  it('keys reclassify: external_verified with a matching evidence file stores its digest; without one it exits 2', () => {
    const refused = run(['keys', 'reclassify', '--id', ids[0], '--class', 'external_verified', '--data-dir', dataDir]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('evidence');
    const evidence = path.join(dataDir, 'evidence.json');
    fs.writeFileSync(evidence, JSON.stringify({ application_id: ids[0], independent_operator: true, basis: 'operator met the team' }));
    const ok = run(['keys', 'reclassify', '--id', ids[0], '--class', 'external_verified', '--evidence', evidence, '--data-dir', dataDir]);
    expect(ok.status).toBe(0);
    expect(JSON.parse(ok.stdout)).toEqual({
      application_id: ids[0], classification: 'external_verified', evidence_sha256: sha256Hex(fs.readFileSync(evidence)), past_completions_reclassified: false,
    });
    const bad = run(['keys', 'reclassify', '--id', 'nothex', '--class', 'internal', '--data-dir', dataDir]);
    expect(bad.status).toBe(2);
    const counts = JSON.parse(run(['keys', 'counts', '--data-dir', dataDir]).stdout);
    expect(counts.by_class).toEqual({ unverified: 1, internal: 1, synthetic: 0, external_verified: 1 });
  });

  it('usage-report prints the canonical application-usage document', () => {
    const out = run(['usage-report', '--data-dir', dataDir]);
    expect(out.status).toBe(0);
    const report = JSON.parse(out.stdout);
    expect(report.schema).toBe('financial-evidence.application-usage.v1');
    expect(report.retention_days).toBe(90);
    expect(Object.keys(report.classes).sort()).toEqual(['external_verified', 'internal', 'synthetic', 'unverified']);
    expect(report.independent_organizations).toBeNull();
    expect(out.stdout.endsWith('}\n')).toBe(true);
    for (const secret of tokens) expect(out.stdout).not.toContain(secret);
  });
});
