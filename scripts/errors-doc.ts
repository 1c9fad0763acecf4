// Writes docs/errors.md, the published error catalogue, from the one error registry.
// Every module under src/ that calls defineErrors is loaded, so a new group's codes are
// picked up without editing this script. `npm run docs:errors` rewrites the file;
// test/docs/errors-doc.test.ts fails when it is stale.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { errorCatalogue, type ErrorGroup } from '../src/core/errors.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const ERRORS_DOC = path.join(root, 'docs', 'errors.md');

const GROUP_TITLES: Record<ErrorGroup, string> = {
  shared: 'Shared (every route)',
  analysis: 'Analysis (group A)',
  funding: 'Funding evidence (group B)',
  applications: 'Application keys and usage',
  data: 'Data query (group C)',
};

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** Loads every module that registers error codes. */
export async function loadRegistry(): Promise<void> {
  const files = sourceFiles(path.join(root, 'src')).filter((file) => /\bdefineErrors\(\s*'/.test(fs.readFileSync(file, 'utf8'))).sort();
  for (const file of files) await import(pathToFileURL(file).href);
}

const cell = (text: string) => text.replace(/\|/g, '\\|');

export async function renderErrorsDoc(): Promise<string> {
  await loadRegistry();
  const catalogue = errorCatalogue();
  const lines = [
    '# Error codes',
    '',
    '<!-- Generated from the error registry (src/core/errors.ts) by `npm run docs:errors`; do not edit by hand. -->',
    '',
    'Every error answer carries one of these codes in its `code` member, next to the human',
    'sentence (`error` on the analysis routes, `detail` on the funding, application and data',
    'routes, both on paths no group owns) and, when a request field is at fault, a JSON',
    'pointer in `path`. The OpenAPI document lists, for each operation and status, exactly',
    'which of these codes it can answer with. Publisher codes are recorded on funding capture',
    'attempts (`error_code`) rather than returned by a route.',
  ];
  lines.push('', '| Code | Status | Group | Meaning |', '| --- | --- | --- | --- |');
  for (const group of Object.keys(GROUP_TITLES) as ErrorGroup[]) {
    for (const e of catalogue.filter((entry) => entry.group === group)) {
      lines.push(`| \`${e.code}\` | ${e.status} | ${GROUP_TITLES[group]} | ${cell(e.meaning)} |`);
    }
  }
  return lines.join('\n') + '\n';
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  fs.writeFileSync(ERRORS_DOC, await renderErrorsDoc());
  console.log(`wrote ${path.relative(root, ERRORS_DOC)}`);
}
