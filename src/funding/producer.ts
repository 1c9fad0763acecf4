// Identity of the code that produced a packet: the source commit (when known) and the
// SHA-256 of every module that decides a packet's bytes, so a manifest says which
// implementation built it.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sha256Hex } from '../core/hash.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');
const extension = path.extname(fileURLToPath(import.meta.url)) || '.ts';
// The TypeScript sources are hashed whenever they are present, also when the compiled
// build (dist/, made from exactly these files) runs: a packet's manifest then names the
// same modules and hashes whichever of the two captured it.
const sourceDir = path.join(root, 'src', 'funding');

/** Modules (relative to src/funding) whose behaviour shapes packet content. */
const PRODUCER_MODULES = [
  'capture', 'acquire', 'observations', 'review', 'packet', 'csv', 'rows', 'terms', 'fetch', '../platform/fetch', 'decimal', 'verify',
  'publishers/body', 'publishers/catalogue', 'publishers/html-tables', 'publishers/frb-h41', 'publishers/frb-iorb-page',
  'publishers/frb-prates', 'publishers/nyfed-operations',
  'publishers/nyfed-rates', 'publishers/samples', 'publishers/select', 'publishers/treasury-dts',
];

let modules: Record<string, string> | undefined;

/** `{ "src/funding/capture.ts": sha256, … }`; a module that cannot be read is left out. */
export function producerModulesSha256(): Record<string, string> {
  if (modules) return modules;
  const out: Record<string, string> = {};
  for (const name of PRODUCER_MODULES) {
    const source = path.join(sourceDir, `${name}.ts`);
    const file = fs.existsSync(source) ? source : path.join(here, `${name}${extension}`);
    try {
      out[path.relative(root, file).split(path.sep).join('/')] = sha256Hex(fs.readFileSync(file));
    } catch {
      // Not shipped in this build; the manifest simply does not list it.
    }
  }
  modules = out;
  return out;
}

const COMMIT = /^[0-9a-f]{40}$/;

function gitHead(): string | null {
  try {
    const gitDir = path.join(root, '.git');
    const head = fs.readFileSync(path.join(gitDir, 'HEAD'), 'utf8').trim();
    if (COMMIT.test(head)) return head;
    const ref = /^ref: (refs\/[A-Za-z0-9._/-]+)$/.exec(head)?.[1];
    if (!ref) return null;
    const loose = path.join(gitDir, ref);
    if (fs.existsSync(loose)) {
      const sha = fs.readFileSync(loose, 'utf8').trim();
      return COMMIT.test(sha) ? sha : null;
    }
    const packed = fs.readFileSync(path.join(gitDir, 'packed-refs'), 'utf8');
    for (const line of packed.split('\n')) {
      const [sha, name] = line.trim().split(' ');
      if (name === ref && COMMIT.test(sha)) return sha;
    }
  } catch {
    // No repository next to the sources (an installed package).
  }
  return null;
}

let commit: string | undefined;

/**
 * The build's source commit: `SOURCE_COMMIT` when it is a 40-hex id (set by a release
 * build), else the checked-out commit when running from a repository, else `unknown`.
 * The module hashes pin the exact code even when the working tree differs from it.
 */
export function producerSourceCommit(): string {
  if (commit !== undefined) return commit;
  const fromEnv = process.env.SOURCE_COMMIT?.trim().toLowerCase();
  commit = fromEnv && COMMIT.test(fromEnv) ? fromEnv : gitHead() ?? 'unknown';
  return commit;
}
