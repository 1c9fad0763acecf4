#!/usr/bin/env node
// Entry point of the `evidence-desk` command. A compiled build (npm run build) runs
// directly; otherwise the TypeScript sources run through tsx, so `npm install && npm
// start` needs no build step.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const compiled = path.join(root, 'dist', 'cli', 'main.js');
const source = path.join(root, 'src', 'cli', 'main.ts');

let entry;
if (existsSync(source)) {
  const { register } = await import('tsx/esm/api');
  register();
  entry = source;
} else {
  entry = compiled;
}
const { main } = await import(pathToFileURL(entry).href);
process.exitCode = await main(process.argv);
