#!/usr/bin/env node
// Entry point of the `evidence-desk` command. The compiled build in dist/ runs when it is
// current (bin/build.js; `npm install` builds it through the `prepare` script); otherwise
// the TypeScript sources run through tsx, so a checkout without a build still starts. The
// build matters: under tsx every worker thread carries the transpiler (tens of MiB each)
// and every module pays its helpers at run time.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildIsCurrent, packageRoot } from './build.js';

let entry = path.join(packageRoot, 'dist', 'cli', 'main.js');
if (!buildIsCurrent()) {
  entry = path.join(packageRoot, 'src', 'cli', 'main.ts');
  if (!existsSync(entry)) {
    console.error('evidence-desk: neither a current build (dist/) nor the sources (src/) are here; run `npm install`.');
    process.exit(2);
  }
  const { register } = await import('tsx/esm/api');
  register();
}
const { main } = await import(pathToFileURL(entry).href);
process.exitCode = await main(process.argv);
