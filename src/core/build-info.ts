// Identity of this build: the package version and a fingerprint of the shipped source,
// published where the analysis contract expects `implementation_sha256`.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');

function readVersion(): string {
  try {
    return (JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { version?: string }).version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}

export const SERVICE_NAME = 'evidence-desk';
export const SERVICE_VERSION = readVersion();

let fingerprint: string | undefined;

/** SHA-256 over `<relative path>:<sha256>` lines of every source file, sorted by path. */
export function implementationSha256(): string {
  if (fingerprint) return fingerprint;
  const srcDir = path.join(root, 'src');
  const lines: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.(ts|js|json)$/.test(entry.name)) {
        lines.push(`${path.relative(srcDir, full).split(path.sep).join('/')}:${createHash('sha256').update(fs.readFileSync(full)).digest('hex')}`);
      }
    }
  };
  try {
    walk(srcDir);
  } catch {
    // A packaged build without sources still gets a stable (if less specific) identity.
    lines.push(`version:${SERVICE_VERSION}`);
  }
  lines.sort();
  fingerprint = createHash('sha256').update(lines.join('\n')).digest('hex');
  return fingerprint;
}
