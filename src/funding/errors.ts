// Error codes of the funding-evidence group (group B).
//
// The publisher codes describe capture failures: they are recorded on the capture
// attempt, not returned by a route, but they live in the one registry so the catalogue
// of codes a client or operator can meet stays complete. 502 because the fault lies with
// (or between us and) an upstream publisher.

import { AppError, defineErrors } from '../core/errors.js';
import type { MetricId, PublisherKey } from './publishers/types.js';

export const FundingErrors = defineErrors('funding', {
  publisher_unavailable: {
    status: 502,
    meaning: 'An original publisher document could not be downloaded (transport failure, non-200 status, redirect, timeout or size limit).',
  },
  publisher_document_invalid: {
    status: 502,
    meaning: 'An original publisher document does not have the expected structure, or a value the packet needs is not an exact finite number that passes the document rules.',
  },
  publisher_observation_missing: {
    status: 502,
    meaning: 'A publisher document holds no observation for a metric on or before the review date within its age limit.',
  },
});

/** Short names used at the start of every publisher error message. */
export const PUBLISHER_DOCUMENT_NAMES: Readonly<Record<PublisherKey, string>> = {
  sofr: 'NY Fed SOFR rates document',
  effr: 'NY Fed EFFR rates document',
  iorb: 'Board PRATES archive',
  reserves: 'Board H.4.1 page',
  on_rrp: 'NY Fed reverse repo results document',
  srf: 'NY Fed repo results document',
  tga: 'Treasury DTS operating cash balance document',
};

/** What exactly is wrong with a publisher document; stable tokens for logs and tests. */
export type PublisherDocumentFailure =
  | 'too_large'
  | 'not_utf8'
  | 'malformed_json'
  | 'malformed_xml'
  | 'malformed_html'
  | 'bad_zip'
  | 'member_missing'
  | 'member_too_large'
  | 'declaration_refused'
  | 'unexpected_shape'
  | 'bad_date'
  | 'duplicate_date'
  | 'duplicate_id'
  | 'not_a_number'
  | 'negative_amount'
  | 'not_whole_dollars'
  | 'operation_set'
  | 'incomplete'
  | 'not_results'
  | 'settlement_date'
  | 'series_missing'
  | 'legacy_series_only'
  | 'series_duplicate'
  | 'unit_mismatch'
  | 'pagination'
  | 'missing_cell'
  | 'duplicate_cell_id'
  | 'label_mismatch'
  | 'header_mismatch'
  | 'not_wednesday';

export class PublisherDocumentError extends AppError {
  readonly document: PublisherKey;
  readonly reason: PublisherDocumentFailure;
  /** Where in the document: a JSON pointer, `#cell-id`, or an XML element description. */
  readonly location: string | undefined;

  constructor(
    document: PublisherKey,
    reason: PublisherDocumentFailure,
    detail: string,
    options: { location?: string; cause?: unknown } = {},
  ) {
    super(FundingErrors.publisher_document_invalid, `${PUBLISHER_DOCUMENT_NAMES[document]}: ${detail}`, { cause: options.cause });
    this.name = 'PublisherDocumentError';
    this.document = document;
    this.reason = reason;
    this.location = options.location;
  }
}

export type PublisherFetchFailure = 'transport' | 'timeout' | 'http_status' | 'redirect' | 'too_large';

export class PublisherUnavailableError extends AppError {
  readonly document: PublisherKey;
  readonly reason: PublisherFetchFailure;

  constructor(document: PublisherKey, reason: PublisherFetchFailure, detail: string, options: { cause?: unknown } = {}) {
    super(FundingErrors.publisher_unavailable, `${PUBLISHER_DOCUMENT_NAMES[document]}: ${detail}`, { cause: options.cause });
    this.name = 'PublisherUnavailableError';
    this.document = document;
    this.reason = reason;
  }
}

export class PublisherObservationMissingError extends AppError {
  readonly document: PublisherKey;
  readonly metric: MetricId;

  constructor(document: PublisherKey, metric: MetricId, detail: string) {
    super(FundingErrors.publisher_observation_missing, `${PUBLISHER_DOCUMENT_NAMES[document]}: ${detail}`);
    this.name = 'PublisherObservationMissingError';
    this.document = document;
    this.metric = metric;
  }
}
