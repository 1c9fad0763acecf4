// Error codes of the funding capture (group B).
//
// These codes describe capture failures: they are recorded on the capture attempt (its
// `error_code` and the `error` text that history shows), printed by `evidence-desk
// capture` and its `--check`, and logged by the scheduler. No route returns them, but
// they live in the one registry so the catalogue of codes an operator can meet stays
// complete. 502 because the fault lies with (or between us and) an upstream publisher.
//
// Two levels: the *class* of a publisher failure (`publisher_unavailable`,
// `publisher_document_invalid`, `publisher_observation_missing`) is the attempt's
// `error_code`; the *reason* (`fetch_redirect`, `document_row_missing`, …) says exactly
// what went wrong, and the failure text names it next to the document key.

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
  capture_in_progress: {
    status: 409,
    meaning: 'Another capture holds the capture lease, so this one did not run and recorded nothing.',
  },
  capture_lease_lost: {
    status: 409,
    meaning: 'The capture ran past its lease, which another instance took over meanwhile, so it recorded nothing.',
  },
  capture_not_recorded: {
    status: 503,
    meaning: 'A capture attempt ran but its outcome could not be written to the store.',
  },
  capture_invariant_failed: {
    status: 500,
    meaning: 'A packet built from accepted publisher values broke one of the packet rules; nothing was archived.',
  },
});

/** Why a download failed. */
export const PublisherFetchReasons = defineErrors('funding', {
  fetch_transport: { status: 502, meaning: 'The publisher could not be reached or the connection broke before the whole body arrived.' },
  fetch_timeout: { status: 502, meaning: 'The publisher did not answer, or did not finish sending, within the time limits.' },
  fetch_http_status: { status: 502, meaning: 'The publisher answered with an HTTP status other than 200.' },
  fetch_redirect: { status: 502, meaning: 'The publisher answered with a redirect; redirects are not followed, the configured URL must be changed.' },
  fetch_too_large: { status: 502, meaning: 'The publisher announced or sent more bytes than a document may have.' },
  fetch_encoding: { status: 502, meaning: 'The publisher sent a compressed body although only identity encoding was requested.' },
});

/** Why a downloaded document was refused, or why one of its dates cannot be used. */
export const PublisherDocumentReasons = defineErrors('funding', {
  document_too_large: { status: 502, meaning: 'The document (or the zip member read from it) is larger than accepted.' },
  document_not_utf8: { status: 502, meaning: 'The document is not valid UTF-8 text.' },
  document_malformed_json: { status: 502, meaning: 'The document is not strict JSON (syntax, duplicate keys, non-finite or overflowing numbers).' },
  document_malformed_xml: { status: 502, meaning: 'The XML member is not well-formed, not UTF-8, or has more than one root.' },
  document_bad_zip: { status: 502, meaning: 'The archive is not a readable zip, or its data member is damaged or repeated.' },
  document_member_missing: { status: 502, meaning: 'The zip archive has no member with the expected name.' },
  document_declaration_refused: { status: 502, meaning: 'The XML carries a DOCTYPE or ENTITY declaration, which is never accepted.' },
  document_unexpected_shape: { status: 502, meaning: 'The document does not have the structure the publisher documents (missing arrays, objects or text fields).' },
  document_bad_date: { status: 502, meaning: 'A date in the document is not a real calendar date in the publisher\'s format.' },
  document_duplicate_date: { status: 502, meaning: 'The document lists the same date twice for one series.' },
  document_duplicate_id: { status: 502, meaning: 'An identifier the parser relies on (operation id, or the id of a table cell it read) occurs more than once.' },
  document_not_a_number: { status: 502, meaning: 'A value the packet needs is null, text such as "NA", or otherwise not an exact finite number.' },
  document_negative_amount: { status: 502, meaning: 'An accepted amount is negative.' },
  document_not_whole_dollars: { status: 502, meaning: 'An operation amount is not an exact whole number of dollars.' },
  document_implausible_amount: { status: 502, meaning: 'An amount lies outside the bounds its series has kept for years, which means its unit has changed or another field was read.' },
  document_not_whole_units: { status: 502, meaning: 'An amount the publisher prints in whole units (millions of dollars, billions, dollars) carries a fraction of that unit, which means its unit or format has changed.' },
  document_implausible_rate: { status: 502, meaning: 'A rate in percent lies outside -5 to 20, which means it is in another unit (basis points) or another field was read.' },
  document_percentile_below_rate: { status: 502, meaning: 'A day\'s 99th percentile lies below its rate (the median of the same trades), which no real print does.' },
  document_not_business_day: { status: 502, meaning: 'An observation is dated on a weekend or holiday of its publisher\'s calendar, a day the publisher publishes none.' },
  document_operation_set: { status: 502, meaning: 'A day\'s regular operations are not exactly the scheduled ones (two at one scheduled close time, for example).' },
  document_no_regular_operation: { status: 502, meaning: 'A day lists operations, but none at the scheduled close time the metric is built from.' },
  document_incomplete: { status: 502, meaning: 'A day lists fewer of its scheduled operations than it needs (the later one has not happened yet).' },
  document_not_results: { status: 502, meaning: 'A regular operation has no results yet.' },
  document_settlement_date: { status: 502, meaning: 'A regular overnight operation does not settle on its operation date.' },
  document_series_missing: { status: 502, meaning: 'The series the metric is read from is not in the document.' },
  document_legacy_series_only: { status: 502, meaning: 'Only the retired predecessor of the wanted series is in the document.' },
  document_series_duplicate: { status: 502, meaning: 'The wanted series occurs more than once.' },
  document_unit_mismatch: { status: 502, meaning: 'The document declares a unit or multiplier other than the one the metric is defined in.' },
  document_data_type_mismatch: { status: 502, meaning: 'The document declares a data type for the value field other than the documented one.' },
  document_pagination: { status: 502, meaning: 'The answer spans more than one page, so rows may be missing from the page fetched.' },
  document_table_missing: { status: 502, meaning: 'No table in the page has the row and column the metric is read from.' },
  document_table_ambiguous: { status: 502, meaning: 'More than one table (or row, or column) in the page matches, so the value is not identified uniquely.' },
  document_row_missing: { status: 502, meaning: 'The row with the expected label is not in the table.' },
  document_cell_missing: { status: 502, meaning: 'A row lacks the cell of the column the value is read from.' },
  document_header_mismatch: { status: 502, meaning: 'A column header does not read as documented (for example "Week ended" and a date).' },
  document_not_wednesday: { status: 502, meaning: 'The H.4.1 week does not end on a Wednesday.' },
});

/** Why a document that parsed cleanly still cannot give the packet its observation. */
export const PublisherObservationReasons = defineErrors('funding', {
  observation_missing: { status: 502, meaning: 'The series has no observation dated within the metric\'s age limit before the review date.' },
  horizon_missing: { status: 502, meaning: 'SOFR and IORB have no observation date in common.' },
  horizon_stale: { status: 502, meaning: 'The newest common SOFR/IORB date is too far before the capture date: a publisher stopped updating.' },
  horizon_future: { status: 502, meaning: 'The newest common SOFR/IORB date lies after the capture date.' },
});

export type PublisherFetchFailure = keyof typeof PublisherFetchReasons;
export type PublisherDocumentFailure = keyof typeof PublisherDocumentReasons;
export type PublisherObservationFailure = keyof typeof PublisherObservationReasons;
export type PublisherFailureReason = PublisherFetchFailure | PublisherDocumentFailure | PublisherObservationFailure;

/** Short names used at the start of every publisher error message. */
export const PUBLISHER_DOCUMENT_NAMES: Readonly<Record<PublisherKey, string>> = {
  sofr: 'NY Fed SOFR rates document',
  effr: 'NY Fed EFFR rates document',
  iorb: 'Board IORB document',
  reserves: 'Board H.4.1 page',
  on_rrp: 'NY Fed reverse repo results document',
  srf: 'NY Fed repo results document',
  tga: 'Treasury DTS operating cash balance document',
};

/** `<document name> (<key>, <reason>[ at <location>]): <detail>` — one line that says what to look at. */
function publisherMessage(document: PublisherKey, reason: PublisherFailureReason, detail: string, location?: string): string {
  const where = location === undefined ? '' : ` at ${location}`;
  return `${PUBLISHER_DOCUMENT_NAMES[document]} (${document}, ${reason}${where}): ${detail}`;
}

/** What every publisher failure tells an operator: which document, which reason, in words. */
export interface PublisherFailure {
  readonly document: PublisherKey;
  readonly reason: PublisherFailureReason;
  /** The explanation without the document prefix. */
  readonly detail: string;
}

export function isPublisherFailure(error: unknown): error is AppError & PublisherFailure {
  return error instanceof PublisherDocumentError || error instanceof PublisherUnavailableError || error instanceof PublisherObservationMissingError;
}

export class PublisherDocumentError extends AppError implements PublisherFailure {
  readonly document: PublisherKey;
  readonly reason: PublisherDocumentFailure;
  readonly detail: string;
  /** Where in the document: a JSON pointer, `#cell-id`, or an XML element description. */
  readonly location: string | undefined;

  constructor(
    document: PublisherKey,
    reason: PublisherDocumentFailure,
    detail: string,
    options: { location?: string; cause?: unknown } = {},
  ) {
    super(FundingErrors.publisher_document_invalid, publisherMessage(document, reason, detail, options.location), { cause: options.cause });
    this.name = 'PublisherDocumentError';
    this.document = document;
    this.reason = reason;
    this.detail = detail;
    this.location = options.location;
  }
}

export class PublisherUnavailableError extends AppError implements PublisherFailure {
  readonly document: PublisherKey;
  readonly reason: PublisherFetchFailure;
  readonly detail: string;
  /** The HTTP status the publisher answered with, when it answered at all. */
  readonly httpStatus: number | undefined;

  constructor(document: PublisherKey, reason: PublisherFetchFailure, detail: string, options: { cause?: unknown; httpStatus?: number } = {}) {
    super(FundingErrors.publisher_unavailable, publisherMessage(document, reason, detail), { cause: options.cause });
    this.name = 'PublisherUnavailableError';
    this.document = document;
    this.reason = reason;
    this.detail = detail;
    this.httpStatus = options.httpStatus;
  }
}

export class PublisherObservationMissingError extends AppError implements PublisherFailure {
  readonly document: PublisherKey;
  readonly metric: MetricId;
  readonly reason: PublisherObservationFailure;
  readonly detail: string;

  constructor(document: PublisherKey, metric: MetricId, detail: string, reason: PublisherObservationFailure = 'observation_missing') {
    super(reason === 'horizon_future' ? FundingErrors.publisher_document_invalid : FundingErrors.publisher_observation_missing,
      publisherMessage(document, reason, detail));
    this.name = 'PublisherObservationMissingError';
    this.document = document;
    this.metric = metric;
    this.reason = reason;
    this.detail = detail;
  }
}
