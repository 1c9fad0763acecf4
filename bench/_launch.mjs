// Starts a TypeScript benchmark child (`node bench/_launch.mjs bench/_x.ts args…`) with tsx
// registered for this thread only, as bin/evidence-desk.js does for the sources: worker
// threads started from the compiled build then run without the transpiler, as they do
// under `npm start`. (`--import tsx` would be inherited by every worker thread.)
import { pathToFileURL } from 'node:url';
import { register } from 'tsx/esm/api';

register();
const [, , child] = process.argv;
process.argv.splice(1, 1);
await import(pathToFileURL(child).href);
