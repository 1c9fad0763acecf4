// Which code this process runs: the TypeScript sources (through tsx, when bin/evidence-desk.js
// finds no current build) or the compiled build in dist/. A module's own URL says which, and
// every module runs the same way, so one answer serves the whole process.

export const RUNS_SOURCES = import.meta.url.endsWith('.ts');

/** The file name of module `name` in the code that runs: `name.ts` from the sources, `name.js` from the build. */
export function moduleFile(name: string): string {
  return `${name}${RUNS_SOURCES ? '.ts' : '.js'}`;
}
