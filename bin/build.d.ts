/** The package's root directory (where package.json is). */
export const packageRoot: string;
/** True when dist/ exists and is at least as new as every file under src/ (and EVIDENCE_FROM_SOURCE is not 1). */
export function buildIsCurrent(root?: string): boolean;
