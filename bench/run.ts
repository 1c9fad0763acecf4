// `npm run bench -- <name> [args…]` runs bench/<name>.ts, whose default export receives
// the remaining arguments. Each area adds its own file (analysis, funding, …).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const available = fs
  .readdirSync(here)
  .filter((f) => f.endsWith('.ts') && f !== 'run.ts' && !f.startsWith('_'))
  .map((f) => f.slice(0, -3))
  .sort();

const [name, ...args] = process.argv.slice(2);
if (name && !available.includes(name)) {
  console.error(`usage: npm run bench [-- <${available.join('|')}> [options]]  (no name runs them all)`);
  process.exit(2);
}
for (const each of name ? [name] : available) {
  const module = (await import(pathToFileURL(path.join(here, `${each}.ts`)).href)) as { default?: (args: string[]) => Promise<void> };
  if (typeof module.default !== 'function') {
    console.error(`bench/${each}.ts has no default export to run`);
    process.exit(2);
  }
  if (!name) console.log(`\n== ${each} ==`);
  await module.default(name ? args : []);
}
