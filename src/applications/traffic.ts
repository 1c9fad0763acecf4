// Self-declared exclusion from measurement: operator probes and test traffic announce
// themselves so they never count as use by an application.

export type HeaderBag = Record<string, string | string[] | undefined>;

export const EXCLUDED_TRAFFIC_CLASSES: ReadonlySet<string> = new Set(['operator', 'internal', 'synthetic', 'test']);

function values(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

/**
 * True when the request carries an exclusion header: `X-Operator-Probe` with any non-empty
 * value, or `X-Traffic-Class` naming (in any letter case) operator, internal, synthetic or
 * test. Header names are expected in lower case, as Node delivers them.
 */
export function hasExclusionHeader(headers: HeaderBag): boolean {
  if (values(headers['x-operator-probe']).some((v) => v !== '')) return true;
  return values(headers['x-traffic-class']).some((v) => EXCLUDED_TRAFFIC_CLASSES.has(v.toLowerCase()));
}
