import type { RowBase, EvidenceRow } from '../row.js';
import type { SourceReported } from '../source-reported.js';

/** One fetched document and what its rows share. */
export interface ProjectionInput {
  document: unknown;
  base: RowBase;
  reported: SourceReported;
}

/** Turns one document into rows; an empty list means "expected collection absent". */
export type Projector = (input: ProjectionInput) => EvidenceRow[];
