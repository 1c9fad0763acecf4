// Which code the command runs: the compiled build only when it is at least as new as every
// source file, so an edited checkout never runs stale code; the sources otherwise.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildIsCurrent } from '../../bin/build.js';
import { tempDir } from '../helpers/storage.js';

function touch(file: string, secondsAgo: number): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  if (!fs.existsSync(file)) fs.writeFileSync(file, '');
  const at = new Date(Date.now() - secondsAgo * 1000);
  fs.utimesSync(file, at, at);
}

describe('choosing the compiled build', () => {
  const dirs: string[] = [];
  afterEach(() => {
    delete process.env.EVIDENCE_FROM_SOURCE;
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });
  const checkout = () => {
    const root = tempDir('build-choice-');
    dirs.push(root);
    touch(path.join(root, 'src', 'cli', 'main.ts'), 100);
    touch(path.join(root, 'src', 'web', 'assets', 'page.css'), 90);
    return root;
  };

  it('runs the sources when there is no build', () => {
    expect(buildIsCurrent(checkout())).toBe(false);
  });

  it('runs the build when it is newer than every source file, nested ones included', () => {
    const root = checkout();
    touch(path.join(root, 'dist', 'cli', 'main.js'), 10);
    expect(buildIsCurrent(root)).toBe(true);
    touch(path.join(root, 'src', 'data', 'projections', 'rows.ts'), 0);
    expect(buildIsCurrent(root)).toBe(false);
  });

  it('runs the build of a package shipped without sources, unless told to run the sources', () => {
    const root = checkout();
    touch(path.join(root, 'dist', 'cli', 'main.js'), 10);
    process.env.EVIDENCE_FROM_SOURCE = '1';
    expect(buildIsCurrent(root)).toBe(false);
    delete process.env.EVIDENCE_FROM_SOURCE;
    fs.rmSync(path.join(root, 'src'), { recursive: true });
    expect(buildIsCurrent(root)).toBe(true);
  });
});
