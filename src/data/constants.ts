// Interface facts of the data group: schema identifiers and the constant labels every
// table carries. The sentences are ours; the tokens match the upstream contract.

export const TABLE_SCHEMA = 'liquidity-lab.openbb-table.v1';
export const SNAPSHOTS_SCHEMA = 'evidence-desk.data-snapshots.v1';

export const FINANCIAL_AUTHORITY = 'none';
export const CARRIER_STATE = 'not_published';
export const EVIDENCE_STATUS = 'not_evaluated';
export const CARRIER_VERIFICATION = 'not_performed';
export const STATUS_SEMANTICS = 'transport_only';

export const ABSENCE_POLICY =
  'Evidence that is missing, withheld, restricted or could not be fetched stays null: it is never reported as zero or as calm.';

/** Query limits (upstream §3.3). */
export const DEFAULT_LIMIT = 200;
export const MAXIMUM_LIMIT = 2000;
export const MAXIMUM_OFFSET = 100_000;
export const MAXIMUM_ENTITY_LENGTH = 100;

/** Snapshot listing limits (ours). */
export const SNAPSHOTS_DEFAULT_LIMIT = 100;
export const SNAPSHOTS_MAXIMUM_LIMIT = 1000;

export type TransportStatus = 'complete' | 'partial' | 'unavailable';
