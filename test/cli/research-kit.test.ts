// End to end against a real listening server (sample mode): the CLI and the kit's own
// Python script (taken out of the served zip) each capture a dataset completely; a second
// capture of the same snapshot writes byte-identical files; refusals and usage errors
// exit 1 and 2 without writing anything; the zip is byte-reproducible and its SHA256SUMS hold.
import fs from 'node:fs';
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/core/hash.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { tempDir } from '../helpers/storage.js';

const bin = path.resolve('bin/evidence-desk.js');
const cleanEnv = () => Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('EVIDENCE_') && k !== 'DATABASE_URL'));

function run(command: string, args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}
const cli = (args: string[]) => run(process.execPath, [bin, 'research-kit', ...args]);

const FILES = ['evidence.json', 'receipt.json', 'rows.csv'];
const read = (dir: string) => Object.fromEntries(FILES.map((f) => [f, fs.readFileSync(path.join(dir, f))]));

// Each test spawns the CLI (tsx compiles on start) or python3 several times: on a loaded
// machine that alone can take longer than the suite's default 30 s.
describe('research kit end to end', { timeout: 180_000 }, () => {
  let t: TestApp;
  let base: string;
  let work: string;
  let script: string;

  beforeAll(async () => {
    t = await makeTestApp({ mode: 'sample' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    work = tempDir('evidence-kit-');
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('serves a byte-reproducible zip: sorted stored entries, SHA256SUMS of every other file', async () => {
    const first = await fetch(`${base}/api/v1/research-kit.zip`);
    const bytes = Buffer.from(await first.arrayBuffer());
    const second = Buffer.from(await (await fetch(`${base}/api/v1/research-kit.zip`)).arrayBuffer());
    expect(bytes.equals(second)).toBe(true);
    expect(first.headers.get('etag')).toBe(`"${sha256Hex(bytes)}"`);
    const zipPath = path.join(work, 'kit.zip');
    fs.writeFileSync(zipPath, bytes);
    // Python's zipfile reads the archive: names, stored method, fixed time, sums.
    const check = spawnSync('python3', ['-c', `
import hashlib, json, sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
infos = z.infolist()
names = [i.filename for i in infos]
assert names == sorted(names), names
assert all(i.compress_type == zipfile.ZIP_STORED and i.date_time == (2026, 10, 6, 0, 0, 0) for i in infos)
assert z.testzip() is None
folder = names[0].split('/')[0]
sums = dict(reversed(l.split('  ')) for l in z.read(folder + '/SHA256SUMS').decode().splitlines())
files = sorted(n.split('/', 1)[1] for n in names if not n.endswith('SHA256SUMS'))
assert sorted(sums) == files, (sums, files)
for name in files:
    assert hashlib.sha256(z.read(folder + '/' + name)).hexdigest() == sums[name], name
json.loads(z.read(folder + '/openapi.json'))
open(sys.argv[2], 'wb').write(z.read(folder + '/research_kit.py'))
print(json.dumps(names))
`, zipPath, path.join(work, 'research_kit.py')], { encoding: 'utf8' });
    expect(check.status, check.stderr).toBe(0);
    expect(JSON.parse(check.stdout)).toEqual([
      'evidence-desk-research-kit/README.md', 'evidence-desk-research-kit/SHA256SUMS', 'evidence-desk-research-kit/examples.http',
      'evidence-desk-research-kit/openapi.json', 'evidence-desk-research-kit/research_kit.py',
    ]);
    script = path.join(work, 'research_kit.py');
    expect((await fetch(`${base}/api/v1/research-kit.zip`, { headers: { 'if-none-match': first.headers.get('etag')! } })).status).toBe(304);
  });

  it('the CLI captures every page; a second capture of the snapshot is byte-identical; an existing directory is refused', async () => {
    const one = path.join(work, 'cli-1');
    const first = await cli(['--base', base, '--dataset', 'money_market_history', '--page-size', '3', '--synthetic', '--out', one]);
    expect(first.status, first.stdout + first.stderr).toBe(0);
    expect(first.stderr).toBe('');
    const lines = first.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const report = JSON.parse(lines[0]) as { ok: boolean; captures: { snapshot_id: string; rows: number; pages: number }[] };
    expect(report.ok).toBe(true);
    expect(report.captures[0].pages).toBeGreaterThan(1);
    const files = read(one);
    const receipt = JSON.parse(files['receipt.json'].toString()) as { sha256: Record<string, string>; row_count: number };
    expect(receipt.sha256['rows.csv']).toBe(sha256Hex(files['rows.csv']));
    expect(receipt.sha256['evidence.json']).toBe(sha256Hex(files['evidence.json']));
    expect(receipt.row_count).toBe(report.captures[0].rows);
    // A sample-mode service's capture is labelled in every file (README §5).
    expect(receipt).toMatchObject({ sample: true });
    expect(JSON.parse(files['evidence.json'].toString())).toMatchObject({ sample: true });
    expect(files['rows.csv'].toString().split('\r\n')[0].split(',')).toContain('sample');

    const two = path.join(work, 'cli-2');
    const second = await cli(['--base', base, '--dataset', 'money_market_history', '--page-size', '3', '--snapshot', report.captures[0].snapshot_id, '--out', two]);
    expect(second.status, second.stdout).toBe(0);
    const again = read(two);
    for (const f of FILES) expect(again[f].equals(files[f]), f).toBe(true);

    const exists = await cli(['--base', base, '--dataset', 'money_market_history', '--out', one]);
    expect(exists.status).toBe(2);
    expect(JSON.parse(exists.stdout)).toMatchObject({ ok: false, reason: 'output_exists' });
  });

  it('a refused capture (max-pages) exits 1 with the reason and writes nothing; bad input exits 2 without a request', async () => {
    const out = path.join(work, 'refused');
    const refused = await cli(['--base', base, '--dataset', 'money_market_history', '--page-size', '1', '--max-pages', '1', '--out', out]);
    expect(refused.status).toBe(1);
    expect(JSON.parse(refused.stdout)).toMatchObject({ ok: false, refused: true, reason: 'max_pages' });
    expect(fs.existsSync(out)).toBe(false);
    expect(fs.readdirSync(work).some((n) => n.includes('partial'))).toBe(false);
    const bad = await cli(['--base', base, '--dataset', 'nope', '--out', out]);
    expect(bad.status).toBe(2);
    expect(fs.existsSync(out)).toBe(false);
  });

  it('the desk mode writes the three desk datasets', async () => {
    const out = path.join(work, 'desk');
    const res = await cli(['--base', base, '--desk', '--out', out]);
    expect(res.status, res.stdout).toBe(0);
    expect(fs.readdirSync(out).sort()).toEqual(['bank_risk', 'market_liquidity', 'money_markets']);
  });

  it('the Python script from the zip writes the same bytes as the CLI for the same snapshot, and refuses like it', async () => {
    expect(script).toBeDefined();
    const cliDir = path.join(work, 'cli-1');
    const snapshot = (JSON.parse(fs.readFileSync(path.join(cliDir, 'receipt.json'), 'utf8')) as { snapshot_id: string }).snapshot_id;
    const py1 = path.join(work, 'py-1');
    const first = await run('python3', [script, '--base', base, '--dataset', 'money_market_history', '--page-size', '3', '--snapshot', snapshot, '--out', py1]);
    expect(first.status, first.stdout + first.stderr).toBe(0);
    expect(first.stderr).toBe('');
    expect(JSON.parse(first.stdout)).toMatchObject({ ok: true });
    const py = read(py1);
    const cliFiles = read(cliDir);
    // The same snapshot gives the same bytes, whichever of the two wrote them.
    for (const f of FILES) expect(py[f].toString(), f).toBe(cliFiles[f].toString());
    const receipt = JSON.parse(py['receipt.json'].toString()) as { sha256: Record<string, string> };
    expect(receipt.sha256['evidence.json']).toBe(sha256Hex(py['evidence.json']));

    const py2 = path.join(work, 'py-2');
    expect((await run('python3', [script, '--base', base, '--dataset', 'money_market_history', '--page-size', '3', '--snapshot', snapshot, '--out', py2])).status).toBe(0);
    const again = read(py2);
    for (const f of FILES) expect(again[f].equals(py[f]), f).toBe(true);

    const refused = await run('python3', [script, '--base', base, '--dataset', 'money_market_history', '--page-size', '1', '--max-pages', '1', '--out', path.join(work, 'py-refused')]);
    expect(refused.status).toBe(1);
    expect(JSON.parse(refused.stdout)).toMatchObject({ refused: true, reason: 'max_pages' });
    const exists = await run('python3', [script, '--base', base, '--dataset', 'money_markets', '--out', py1]);
    expect(exists.status).toBe(2);
    // An output folder whose parent is missing: both surfaces say could_not_run and exit 2.
    const orphan = path.join(work, 'no-such-parent', 'out');
    const pyOrphan = await run('python3', [script, '--base', base, '--dataset', 'money_markets', '--out', orphan]);
    const cliOrphan = await cli(['--base', base, '--dataset', 'money_markets', '--out', orphan]);
    for (const r of [pyOrphan, cliOrphan]) {
      expect(r.status, r.stdout + r.stderr).toBe(2);
      expect(JSON.parse(r.stdout)).toMatchObject({ ok: false, refused: false, reason: 'could_not_run' });
    }
  });
});
