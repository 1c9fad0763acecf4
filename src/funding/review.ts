// review.json (`financial-evidence.original-publisher-review.v1`) as built here: our own
// review of the seven publisher documents. Upstream fields that describe a Workspace
// reference review (release identities, the reference manifest, its age) have no
// counterpart when we capture directly, so they are not invented; see docs/funding.md.

import { formatInstantOffset, type Instant } from '../core/time.js';
import { DEFAULT_IORB_SOURCE, type IorbSource, metricsFor } from './publishers/catalogue.js';
import type { MetricId, PublisherKey, SetAsideOperation } from './publishers/types.js';
import { rowDocument, REVIEW_SCOPE, REVIEW_STATUS, type ObservationRow } from './rows.js';
import type { PublisherReceipt } from './packet.js';
import type { LineageEntry, PacketReview } from './schemas/packet.js';
import {
  FRESHNESS_BASIS,
  IORB_PAGE_TRANSFORMATION,
  METHOD_VERSION,
  PUBLISHER_NOTICE,
  REVIEW_SCHEMA,
  SAMPLE_NOTICE,
  SOURCE_TERMS,
  TRANSFORMATIONS,
  VALUE_BASIS,
} from './terms.js';

export interface ReviewInput {
  packetId: string;
  capturedAt: Instant;
  /** When the last publisher check completed. */
  acquiredAt: Instant;
  reviewAsof: string;
  rows: readonly ObservationRow[];
  receipts: Record<PublisherKey, PublisherReceipt>;
  sample: boolean;
  /** Where IORB was read from (decides its lineage `field` and `source`). */
  iorbSource?: IorbSource;
  /** Operations of a used date that the value was not built from, per metric. */
  setAside?: Readonly<Partial<Record<MetricId, readonly SetAsideOperation[]>>>;
}

export function buildReviewDocument(input: ReviewInput): PacketReview {
  const freshness: Partial<PacketReview['freshness_assessments']> = {};
  // Built per metric as the general entry; the document schema then pins which metric may
  // carry `source_id` (IORB) or `excluded_operations` (the two operations rows).
  const lineage: Partial<Record<MetricId, LineageEntry>> = {};
  for (const row of input.rows) {
    freshness[row.metric_id] = {
      basis: FRESHNESS_BASIS,
      canonical_latest_asof: row.canonical_latest_asof,
      newer_observation_available: row.newer_observation_available,
    };
    const spec = metricsFor(input.iorbSource ?? DEFAULT_IORB_SOURCE).find((m) => m.id === row.metric_id);
    if (!spec) throw new RangeError(`no metric specification for ${row.metric_id}`);
    const entry: LineageEntry = {
      ...input.receipts[spec.document],
      field: spec.field,
      source: spec.source,
      // Bundled sample documents are not an acquisition from the publisher.
      original_publisher_acquisition: !input.sample,
    };
    // Only days that had them carry the list, so other packets keep their exact bytes.
    const setAside = input.setAside?.[row.metric_id];
    if (setAside !== undefined && setAside.length > 0) entry.excluded_operations = setAside.map((op) => ({ ...op }));
    lineage[row.metric_id] = entry;
  }
  const doc: PacketReview = {
    schema: REVIEW_SCHEMA,
    capture_id: input.packetId,
    captured_at: formatInstantOffset(input.capturedAt),
    ready: true,
    available: true,
    stale: false,
    data_readiness: REVIEW_STATUS,
    review_asof: input.reviewAsof,
    review_scope: REVIEW_SCOPE,
    latest_per_instrument: false,
    results: input.rows.map(rowDocument),
    // One entry per row, and a packet has exactly the nine rows (checked on every read).
    freshness_assessments: freshness as PacketReview['freshness_assessments'],
    issues: [],
    original_publisher_acquired_at: formatInstantOffset(input.acquiredAt),
    publisher_lineage: lineage as PacketReview['publisher_lineage'],
    value_basis: VALUE_BASIS,
    method_version: METHOD_VERSION,
    transformations: input.iorbSource === 'board_iorb_page' ? [...TRANSFORMATIONS, IORB_PAGE_TRANSFORMATION] : [...TRANSFORMATIONS],
    source_terms: { ...SOURCE_TERMS },
    publisher_notice: input.sample ? `${SAMPLE_NOTICE} ${PUBLISHER_NOTICE}` : PUBLISHER_NOTICE,
  };
  if (input.sample) doc.sample = true;
  return doc;
}
