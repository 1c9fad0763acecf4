import fs from 'node:fs';
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseStrictJson } from '../../src/core/json.js';
import { runAnalysisTool } from '../../src/analysis/tools/dispatch.js';
import { main } from '../../src/cli/main.js';
import { tempDir } from '../helpers/storage.js';

const bin = path.resolve('bin/evidence-desk.js');
const cleanEnv = () => Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('EVIDENCE_') && k !== 'DATABASE_URL'));
/** The installed command in its own process (slow to start: used sparingly). */
const spawnAnalyse = (args: string[], input?: string) => spawnSync(process.execPath, [bin, 'analyse', ...args], { encoding: 'utf8', env: cleanEnv(), input });

/** The same command line run in this process, with its standard output captured. */
async function run(args: string[]): Promise<{ status: number; stdout: string }> {
  let stdout = '';
  const write = process.stdout.write;
  process.stdout.write = ((chunk: string | Uint8Array) => {
    stdout += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    return true;
  });
  try {
    const status = await main(['node', 'evidence-desk', 'analyse', ...args]);
    return { status, stdout };
  } finally {
    process.stdout.write = write;
    process.exitCode = undefined;
  }
}

function file(name: string, content: string): string {
  const target = path.join(dir, name);
  fs.writeFileSync(target, content);
  return target;
}

let dir: string;
beforeAll(() => {
  dir = tempDir('evidence-analyse-');
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const REQUESTS: Record<string, string> = {
  ab_test: '{"a_successes": 1, "a_total": 64, "b_successes": 3, "b_total": 64, "a_label": "1", "b_label": "0"}',
  did_it_change: '{"values": [1, 2, 1, 2, 1, 2, 1, 2, 8, 9]}',
  real_or_sampling: '{"values": [5, 5.5, 6, 6.5, 7, 7.5, 8, 8.5, 9, 9.5, 2.5], "sample_sizes": [100, 110, 120, 130, 140, 150, 160, 170, 180, 190, 50]}',
  forecast_next: '{"values": [10, 11, 10, 12, 11, 10, 11, 12, 13, 12, 11]}',
  score_forecasts: '{"values": [10, 11, 10, 12, 11, 10, 11, 12, 13, 12, 11, 14, 12, 12, 13, 11, 15, 14, 14, 13]}',
  which_metrics_matter: '{"evidence": {"a": 100.0, "b": 1.0}, "valid_evalues": true}',
  market_assessment: '{"series": [], "as_of": "2026-10-08T09:00:00Z"}',
  narrative_triage: '{"events": [], "as_of": "2026-10-08T09:00:00Z"}',
  spectral_assessment: '{"series": [], "as_of": "2026-10-08T09:00:00Z"}',
  dyson_reference: '{"dimension": 3, "steps": 5, "seed": 6116}',
};

describe('evidence-desk analyse', () => {
  it('prints each of the ten tools\' result, as the other surfaces encode it, from a file', async () => {
    for (const [tool, request] of Object.entries(REQUESTS)) {
      const out = await run([tool, file(`${tool}.json`, request)]);
      expect(out.status, tool).toBe(0);
      expect(out.stdout).toBe(runAnalysisTool(tool, parseStrictJson(request)).body + '\n');
    }
  });

  it('as an installed command, reads standard input for "-" or no file', { timeout: 180_000 }, () => {
    const expected = runAnalysisTool('did_it_change', parseStrictJson(REQUESTS.did_it_change)).body + '\n';
    const dash = spawnAnalyse(['did_it_change', '-'], REQUESTS.did_it_change);
    expect(dash.status, dash.stderr).toBe(0);
    expect(dash.stdout).toBe(expected);
    expect(spawnAnalyse(['did_it_change'], REQUESTS.did_it_change).stdout).toBe(expected);
  });

  it('exits 2 with the error body on invalid input, a domain refusal, malformed JSON or an unknown tool', async () => {
    const cases: [string[], string, object][] = [
      [['did_it_change'], '{"values": []}', { code: 'invalid_input', path: '/values' }],
      [['ab_test'], '{"a_successes": 10, "a_total": 5, "b_successes": 0, "b_total": 1}', { code: 'successes_exceed_total', path: '/a_successes' }],
      [['real_or_sampling'], `{"values": [1,1,1,1,1,1,1,1,1,1,1], "sample_sizes": [${Array(11).fill('5e-324').join(', ')}]}`, { code: 'derived_statistic_overflow', path: '/sample_sizes' }],
      [['forecast_next'], '{"values": [1, NaN]}', { code: 'malformed_json' }],
      [['forecast_next'], '{"values": [1], "values": [2]}', { code: 'malformed_json' }],
      [['no_such_tool'], '{}', { code: 'unknown_tool' }],
      // The name is refused before the input is read: what the input holds does not matter.
      [['no_such_tool'], 'not json at all', { code: 'unknown_tool' }],
    ];
    for (const [[tool], input, expected] of cases) {
      const out = await run([tool, file('bad.json', input)]);
      expect(out.status, input).toBe(2);
      const body = JSON.parse(out.stdout);
      expect(body, input).toMatchObject(expected);
      expect(typeof body.error).toBe('string');
    }
  });

  it('as an installed command, exits 2 with the error body on standard output, and 2 when the file cannot be read', { timeout: 180_000 }, () => {
    const bad = spawnAnalyse(['did_it_change'], '{"values": []}');
    expect(bad.status).toBe(2);
    expect(JSON.parse(bad.stdout)).toMatchObject({ code: 'invalid_input', path: '/values' });
    const missing = spawnAnalyse(['ab_test', path.join(dir, 'missing.json')]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('missing.json');
  });
});

describe('evidence-desk output', () => {
  it('drops the rest of its output when the reader closes the pipe early, without a stack trace, keeping its exit code', { timeout: 180_000 }, async () => {
    const child = spawn(process.execPath, [bin, 'analyse', 'did_it_change'], { env: cleanEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
    // The reader is gone before the command writes a byte, as `| head -c 0` would leave it.
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.stdin.end(REQUESTS.did_it_change);
    const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr).toBe('');
    expect(status).toBe(0);
  });
});
