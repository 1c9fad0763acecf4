// From the source records of a snapshot to the dataset's rows: source order, then
// document order; one placeholder for a source that failed and one for a fetched
// document without the expected collection (§4.4).
import type { SourceKey } from '../core/config.js';
import { datasetSpec, type DatasetId } from './datasets.js';
import { projectSourceHealth } from './projections/source-health.js';
import { fixedFacts } from './registry.js';
import { prefixedSha, secondsZ, type Retrieval } from './retrieval.js';
import { schemaUnavailableRow, sourceUnavailableRow, type EvidenceRow, type RowBase } from './row.js';
import { RowTableBuilder, type RowTable } from './row-table.js';
import type { SourceReported } from './source-reported.js';
import type { TransportStatus } from './constants.js';

/** One source of a snapshot, with its parsed document when the retrieval succeeded. */
export interface LoadedSource {
  key: SourceKey;
  retrieval: Retrieval;
  document: unknown;
  reported: SourceReported | null;
}

export function rowBase(dataset: DatasetId, source: LoadedSource): RowBase {
  const { retrieval } = source;
  return {
    dataset,
    product: fixedFacts(source.key).product,
    source_url: retrieval.sourceUrl,
    retrieved_at: secondsZ(retrieval.retrievedAtUs),
    content_sha256: retrieval.ok ? prefixedSha(retrieval.contentSha256) : null,
    transport_status: retrieval.ok ? 'complete' : 'unavailable',
  };
}

/** The rows of one source: its projection, or the placeholder standing for none. */
function* sourceRows(dataset: DatasetId, source: LoadedSource): Generator<EvidenceRow> {
  const base = rowBase(dataset, source);
  if (!source.retrieval.ok) {
    yield sourceUnavailableRow(base, source.retrieval.error ?? 'unknown: the retrieval failed');
    return;
  }
  const input = { document: source.document, base, reported: source.reported! };
  const produced = dataset === 'source_health'
    ? projectSourceHealth(input, fixedFacts(source.key).topic)
    : datasetSpec(dataset).projectors[source.key]!(input);
  let any = false;
  for (const row of produced) {
    any = true;
    yield row;
  }
  if (!any) yield schemaUnavailableRow(base);
}

/**
 * Rows between two turns of the event loop while projecting: a long history (120,000 rows
 * from a 2.9 MB atlas) took 0.3–0.8 s in one piece, during which no other request of any
 * group was answered; a slice of this many takes a few milliseconds.
 */
export const PROJECTION_SLICE_ROWS = 4096;

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The dataset's rows, source by source, giving the event loop back after every `slice` rows;
 * each row goes into the table as it is made, so a long history is never held as row objects.
 */
export async function projectDatasetInSlices(dataset: DatasetId, sources: readonly LoadedSource[], slice = PROJECTION_SLICE_ROWS): Promise<RowTable> {
  const table = new RowTableBuilder();
  for (const source of sources) {
    for (const row of sourceRows(dataset, source)) {
      table.push(row);
      if (table.length % slice === 0) await turn();
    }
  }
  return table.finish();
}

/** complete: every source retrieved; partial: some; unavailable: none. */
export function transportStatus(sources: readonly { retrieval: Retrieval }[]): TransportStatus {
  const ok = sources.filter((s) => s.retrieval.ok).length;
  return ok === sources.length ? 'complete' : ok === 0 ? 'unavailable' : 'partial';
}
