// Fixed wording and tokens carried inside every review and manifest. The token values
// (schemas, bases, scopes) are the contract; the sentences are our own.

export const REVIEW_SCHEMA = 'financial-evidence.original-publisher-review.v1';
export const MANIFEST_SCHEMA = 'financial-evidence.public-packet.v1';
export const LATEST_SCHEMA = 'financial-evidence.funding.v1';
export const CHANGES_SCHEMA = 'financial-evidence.funding-changes.v1';
export const HISTORY_SCHEMA = 'financial-evidence.forward-coverage.v1';

export const DATASET = 'usd-funding';
export const VALUE_BASIS = 'independently_retrieved_original_publishers_at_full_source_precision';
export const KNOWLEDGE_TIME_BASIS = 'first_verified_in_this_forward_archive';
export const CHANGES_SCOPE = 'captured_differences_not_confirmed_publisher_revision_events';
export const HISTORY_SCOPE = 'observed_packets_only_not_complete_publisher_vintages';
/** Basis of each freshness assessment: the newest accepted date in the fetched document. */
export const FRESHNESS_BASIS = 'newest_accepted_date_in_fetched_publisher_document';

/**
 * Our method differs from the upstream cross-check (there is no reference review to
 * agree with): values come straight from the publishers, so the method has its own name.
 */
export const METHOD_VERSION = 'original-publisher-direct-capture.v1';

export const TRANSFORMATIONS: readonly string[] = Object.freeze([
  'Each publisher number is read as exact decimal text (JSON numbers through their shortest round-trip digits) and turned into a binary double only once, after any unit change.',
  'Amounts published in millions of dollars are divided by 1,000 and amounts in dollars by 1,000,000,000, both in exact decimal arithmetic, to give billions; the two daily standing repo operations are added before that division.',
  'The review date is the newest day on which both SOFR and IORB were published; every other series contributes its newest observation dated on or before that day, within a fixed age limit, and nothing is filled forward or interpolated.',
  'A value of zero is reported as zero; a missing, non-numeric or rejected publisher value fails the whole capture rather than being replaced.',
]);

/**
 * Added to the transformations when IORB is read from the Board's page of rate changes
 * rather than from a daily series: the reader should know how a day's rate was found.
 */
export const IORB_PAGE_TRANSFORMATION =
  'IORB was read from the Board\'s table of rate changes: the rate for a day is the one whose effective date is the newest on or before that day, which is how the administered rate applies; no other value is carried from one day to another.';

export const SOURCE_TERMS: Readonly<Record<string, string>> = Object.freeze({
  federal_reserve_board: 'https://www.federalreserve.gov/disclaimer.htm',
  new_york_fed: 'https://www.newyorkfed.org/terms-of-use',
  treasury: 'https://fiscaldata.treasury.gov/about-us/',
});

export const PUBLISHER_NOTICE =
  'SOFR, EFFR and the reverse repo and repo operation results are published by the Federal Reserve Bank of New York, ' +
  'IORB and H.4.1 reserve balances by the Board of Governors of the Federal Reserve System, and the Treasury General ' +
  'Account balance by the U.S. Department of the Treasury. This archive retrieves their public documents itself; none ' +
  'of these publishers produces, reviews or endorses it, and their own terms of use apply to the figures.';

export const SAMPLE_NOTICE =
  'Sample mode: these values come from documents bundled with Evidence Desk in the publishers\' formats. They are ' +
  'made up for demonstration and are not market data.';
