import type { RowBase, EvidenceRow } from '../row.js';
import type { SourceReported } from '../source-reported.js';

/** One fetched document and what its rows share. */
export interface ProjectionInput {
  document: unknown;
  base: RowBase;
  reported: SourceReported;
}

/**
 * Turns one document into rows; none at all means "expected collection absent". A projector
 * of a long table yields its rows one by one (a generator), so the caller can give the event
 * loop back between slices of them (project.ts).
 */
export type Projector = (input: ProjectionInput) => Iterable<EvidenceRow>;

/** A projector of a short table, which returns its rows at once. */
export type ListProjector = (input: ProjectionInput) => EvidenceRow[];
