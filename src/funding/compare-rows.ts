// The comparison behind a changes document: two packets' observation rows, paired by
// position, and what differs between them. Pure, so the server (changes.ts) and the job,
// which re-derives a served changes answer from the two packets it verified, share it.
import { markFloat } from '../core/json.js';
import type { ObservationRowDocument } from './schemas/common.js';
import type { Change, ChangeSide } from './schemas/changes.js';

/** The five keys a change compares and reports. */
export const CHANGE_KEYS = ['observation_date', 'source', 'unit', 'value', 'value_state'] as const;

export type ChangeKind = Change['kind'];

function pick(row: ObservationRowDocument): ChangeSide {
  const out: ChangeSide = {
    observation_date: row.observation_date,
    source: row.source,
    unit: row.unit,
    value: row.value,
    value_state: row.value_state,
  };
  markFloat(out, 'value');
  return out;
}

function differs(a: unknown, b: unknown): boolean {
  return typeof a === 'number' && typeof b === 'number' ? !Object.is(a, b) : a !== b;
}

export class ComparisonError extends Error {}

/** Pairs rows by position; both lists must name the same metric at every position. */
export function compareRows(before: readonly ObservationRowDocument[], after: readonly ObservationRowDocument[]): Change[] {
  if (before.length !== after.length) throw new ComparisonError('the packets hold different numbers of rows');
  const changes: Change[] = [];
  before.forEach((old, i) => {
    const now = after[i];
    if (old.metric_id !== now.metric_id) throw new ComparisonError(`row ${i + 1} holds ${String(old.metric_id)} in one packet and ${String(now.metric_id)} in the other`);
    if (!CHANGE_KEYS.some((k) => differs(old[k], now[k]))) return;
    const kind: ChangeKind = old.observation_date !== now.observation_date ? 'new_observation_date' : 'same_date_observation_changed';
    changes.push({ metric_id: old.metric_id, kind, before: pick(old), after: pick(now) });
  });
  return changes;
}
