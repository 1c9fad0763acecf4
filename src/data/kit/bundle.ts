// GET /api/v1/research-kit.zip: what a researcher needs without this repository — the
// README, the served OpenAPI document, example requests, the Python capture script and
// SHA256SUMS — as a byte-reproducible zip (see ./zip.ts). The same build serves the same
// bytes; the zip changes only when the kit files or the API description change.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sha256Hex } from '../../core/hash.js';
import { storedZip, type ZipEntry } from './zip.js';

export const KIT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../research-kit');
export const KIT_FOLDER = 'evidence-desk-research-kit';
const KIT_FILES = ['README.md', 'examples.http', 'research_kit.py'] as const;

let memo: { document: unknown; openapi: string; zip: Uint8Array } | null = null;

/** The kit's files by name (SHA256SUMS last), without the folder prefix. */
export function kitFiles(openapi: unknown): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>();
  for (const name of KIT_FILES) files.set(name, new Uint8Array(readFileSync(path.join(KIT_DIR, name))));
  files.set('openapi.json', new TextEncoder().encode(`${JSON.stringify(openapi, null, 2)}\n`));
  const names = [...files.keys()].sort();
  const sums = names.map((n) => `${sha256Hex(files.get(n)!)}  ${n}\n`).join('');
  files.set('SHA256SUMS', new TextEncoder().encode(sums));
  return files;
}

export function researchKitZip(openapi: unknown): Uint8Array {
  // The document is built once per app; its text is compared only for another object.
  if (memo !== null && memo.document === openapi) return memo.zip;
  const text = JSON.stringify(openapi);
  if (memo !== null && memo.openapi === text) {
    memo.document = openapi;
    return memo.zip;
  }
  const entries: ZipEntry[] = [...kitFiles(openapi)].map(([name, bytes]) => ({ name: `${KIT_FOLDER}/${name}`, bytes }));
  const zip = storedZip(entries);
  memo = { document: openapi, openapi: text, zip };
  return zip;
}
