// `evidence-desk serve` bounds the main thread's heap growth (src/platform/heap-growth.ts)
// unless the operator chose a growth setting: checked in child processes, whose own
// command line is what the function reads.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const module = pathToFileURL(path.resolve('src/platform/heap-growth.ts')).href;

function run(execArgv: string[], env: Record<string, string> = {}): string {
  const script = `const { boundHeapGrowth } = await import(${JSON.stringify(module)}); console.log(String(boundHeapGrowth()));`;
  const out = spawnSync(process.execPath, [...execArgv, '--import', 'tsx', '--input-type=module', '-e', script], {
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '', ...env },
  });
  expect(out.status, out.stderr).toBe(0);
  return out.stdout.trim();
}

describe('heap growth bound', () => {
  it('is set when the operator chose no growth setting', () => {
    expect(run([])).toBe('true');
    expect(run(['--max-semi-space-size=4'])).toBe('true');
  });

  it("leaves the operator's own setting on node's command line, in either spelling", () => {
    expect(run(['--heap-growing-percent=50'])).toBe('false');
    expect(run(['--heap_growing_percent=50'])).toBe('false');
    expect(run(['--max-semi-space-size=4'], { NODE_OPTIONS: '--max-semi-space-size=4' })).toBe('true');
  });
});
