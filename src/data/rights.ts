// Rights and state blocking ("fail closed", upstream §4.2).
//
// A node is blocked when `publication_allowed` is exactly false, or when one of its
// availability / status / redistribution_status / rights_status fields, normalised
// (trimmed, lower-cased, '-' and ' ' to '_'), contains a blocking word. Raw observations
// (benchmark rates and their history, capital-market prices, filed bank disclosures) also
// stop at `derived_only`: putting the raw number in a table is redistribution. Outputs the
// publisher derived itself (bank scores and PDs, liquidity percentiles) may be shown under
// `derived_only`. Words are matched as substrings, as upstream does, so `unrestricted`
// blocks too: a label we cannot read with certainty withholds the value rather than show it.

import { memberJson } from './encode.js';
import { pyStrip } from './text.js';

const BLOCKING = ['restricted', 'withheld', 'unavailable', 'not_available', 'denied', 'pending', 'review_required', 'prohibited', 'metadata_only'];
const BLOCKING_RAW = [...BLOCKING, 'derived_only'];
const FIELDS = ['availability', 'status', 'redistribution_status', 'rights_status'];

export type Material = 'raw' | 'derived';

export function normaliseLabel(text: string): string {
  return pyStrip(text).toLowerCase().replace(/[- ]/g, '_');
}

// Python would apply str() to whatever is there; a structured label is read through its
// JSON text, so a blocking word anywhere inside it still blocks.
function labelText(record: Record<string, unknown>, field: string): string | null {
  const value = record[field];
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number') return String(value);
  return memberJson(record, field);
}

/** Whether this one node withholds its values (ancestors are checked by the caller). */
export function isBlocked(node: unknown, material: Material): boolean {
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return false;
  const record = node as Record<string, unknown>;
  if (Object.hasOwn(record, 'publication_allowed') && record.publication_allowed === false) return true;
  const words = material === 'raw' ? BLOCKING_RAW : BLOCKING;
  for (const field of FIELDS) {
    if (!Object.hasOwn(record, field)) continue;
    const text = labelText(record, field);
    if (text === null) continue;
    const label = normaliseLabel(text);
    for (const word of words) if (label.includes(word)) return true;
  }
  return false;
}

/** Whether any node on the path from the document down to the value blocks it. */
export function anyBlocked(nodes: readonly unknown[], material: Material): boolean {
  for (const node of nodes) if (isBlocked(node, material)) return true;
  return false;
}
