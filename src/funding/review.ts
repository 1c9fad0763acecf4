// review.json (`financial-evidence.original-publisher-review.v1`) as built here: our own
// review of the seven publisher documents. Upstream fields that describe a Workspace
// reference review (release identities, the reference manifest, its age) have no
// counterpart when we capture directly, so they are not invented; see docs/funding.md.

import { formatInstantOffset, type Instant } from '../core/time.js';
import { METRICS } from './publishers/catalogue.js';
import type { PublisherKey } from './publishers/types.js';
import { rowDocument, REVIEW_SCOPE, REVIEW_STATUS, type ObservationRow } from './rows.js';
import type { PublisherReceipt } from './packet.js';
import type { PacketReview } from './schemas/packet.js';
import {
  FRESHNESS_BASIS,
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
}

export function buildReviewDocument(input: ReviewInput): PacketReview {
  const freshness: Partial<PacketReview['freshness_assessments']> = {};
  const lineage: Partial<PacketReview['publisher_lineage']> = {};
  for (const row of input.rows) {
    freshness[row.metric_id] = {
      basis: FRESHNESS_BASIS,
      canonical_latest_asof: row.canonical_latest_asof,
      newer_observation_available: row.newer_observation_available,
    };
    const spec = METRICS.find((m) => m.id === row.metric_id);
    if (!spec) throw new RangeError(`no metric specification for ${row.metric_id}`);
    lineage[row.metric_id] = {
      ...input.receipts[spec.document],
      field: spec.field,
      source: spec.source,
      // Bundled sample documents are not an acquisition from the publisher.
      original_publisher_acquisition: !input.sample,
    };
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
    transformations: [...TRANSFORMATIONS],
    source_terms: { ...SOURCE_TERMS },
    publisher_notice: input.sample ? `${SAMPLE_NOTICE} ${PUBLISHER_NOTICE}` : PUBLISHER_NOTICE,
  };
  if (input.sample) doc.sample = true;
  return doc;
}
