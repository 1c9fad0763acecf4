// Whether the compiled build (dist/) may run: it exists and is at least as new as every
// file under src/, so an edited checkout never runs stale code. Shared by the command
// and the benchmarks, which measure what the command runs.
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The newest modification time of any file below `dir` (ms). */
function newestBelow(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestBelow(full) : statSync(full).mtimeMs);
  }
  return newest;
}

/** True when dist/ should run; `EVIDENCE_FROM_SOURCE=1` always chooses the sources. */
export function buildIsCurrent(root = packageRoot) {
  if (process.env.EVIDENCE_FROM_SOURCE === '1') return false;
  const compiled = path.join(root, 'dist', 'cli', 'main.js');
  const sources = path.join(root, 'src');
  if (!existsSync(compiled)) return false;
  if (!existsSync(sources)) return true;
  return statSync(compiled).mtimeMs >= newestBelow(sources);
}
