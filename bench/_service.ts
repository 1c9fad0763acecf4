// The service modules a benchmark server runs: the compiled build when it is current (what
// `npm start` runs, bin/build.js), else the TypeScript sources. Benchmark children load the
// service through this module only, so a figure always says which of the two it measured.
import { buildIsCurrent } from '../bin/build.js';

export const SERVICE_BUILD = buildIsCurrent() ? 'dist' : 'src';

/** Imports `<dist|src>/<relative>.js`; the caller names the module's type. */
export function serviceModule<T>(relative: string): Promise<T> {
  return import(new URL(`../${SERVICE_BUILD}/${relative}.js`, import.meta.url).href) as Promise<T>;
}

/** One line for a benchmark's header. */
export const SERVICE_BUILD_NOTE = SERVICE_BUILD === 'dist'
  ? 'service: compiled build (dist/), as npm start runs it'
  : 'service: TypeScript sources through tsx (no current build: run `npm run build` to measure what npm start runs)';
