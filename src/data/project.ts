// From the source records of a snapshot to the dataset's rows: source order, then
// document order; one placeholder for a source that failed and one for a fetched
// document without the expected collection (§4.4).
import type { SourceKey } from '../core/config.js';
import { datasetSpec, type DatasetId } from './datasets.js';
import { projectSourceHealth } from './projections/source-health.js';
import { fixedFacts } from './registry.js';
import { prefixedSha, secondsZ, type Retrieval } from './retrieval.js';
import { schemaUnavailableRow, sourceUnavailableRow, type EvidenceRow, type RowBase } from './row.js';
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

export function projectDataset(dataset: DatasetId, sources: readonly LoadedSource[]): EvidenceRow[] {
  const spec = datasetSpec(dataset);
  const rows: EvidenceRow[] = [];
  for (const source of sources) {
    const base = rowBase(dataset, source);
    if (!source.retrieval.ok) {
      rows.push(sourceUnavailableRow(base, source.retrieval.error ?? 'unknown: the retrieval failed'));
      continue;
    }
    const input = { document: source.document, base, reported: source.reported! };
    const produced = dataset === 'source_health'
      ? projectSourceHealth(input, fixedFacts(source.key).topic)
      : spec.projectors[source.key]!(input);
    if (produced.length === 0) rows.push(schemaUnavailableRow(base));
    else for (const row of produced) rows.push(row);
  }
  return rows;
}

/** complete: every source retrieved; partial: some; unavailable: none. */
export function transportStatus(sources: readonly { retrieval: Retrieval }[]): TransportStatus {
  const ok = sources.filter((s) => s.retrieval.ok).length;
  return ok === sources.length ? 'complete' : ok === 0 ? 'unavailable' : 'partial';
}
