// Reading the seven publisher documents: from the publishers (live) or from a bundled
// sample day, and turning each into its receipt and parsed form. Shared by a capture
// attempt and by `evidence-desk capture --check`, so the check reads exactly what a
// capture would read, the same way.

import path from 'node:path';
import { sha256Hex } from '../core/hash.js';
import { formatInstantOffset, formatIsoDate, parseUtcTimestamp, utcDayOf, type Instant } from '../core/time.js';
import { downloadDocument, type FetchLimits } from './fetch.js';
import { AGE_BACKSTOP_DAYS, shiftDate } from './observations.js';
import type { PublisherReceipt } from './packet.js';
import { type IorbSource, type PublisherBases, publisherDocumentSpec, publisherUrl } from './publishers/catalogue.js';
import { readSampleDocument, type SampleDay } from './publishers/samples.js';
import type { IsoDate, PublisherDocument, PublisherKey } from './publishers/types.js';

export interface DocumentRead {
  readonly url: string;
  readonly body: Uint8Array;
  /** The day the document is current for, when that is not the day it was read (sample days). */
  readonly asOf?: IsoDate;
}

/** Reads one document; the TGA needs the first record date wanted. */
export type DocumentReader = (key: PublisherKey, tgaSince?: IsoDate) => Promise<DocumentRead>;

export interface AcquiredDocument {
  readonly key: PublisherKey;
  readonly body: Uint8Array;
  readonly receipt: PublisherReceipt;
  readonly parsed: PublisherDocument;
}

export function liveDocumentReader(bases: PublisherBases, iorbSource: IorbSource, limits: FetchLimits): DocumentReader {
  return async (key, tgaSince) => {
    const url = publisherUrl(key, bases, { tgaSince, iorbSource });
    return { url, body: await downloadDocument(key, url, limits) };
  };
}

/** What a sample receipt names as its source, so it can never pass for a publisher URL. */
export function sampleSourceUrl(day: string, key: PublisherKey, iorbSource?: IorbSource): string {
  return `sample:publishers/${day}/${publisherDocumentSpec(key, iorbSource).sampleFile}`;
}

export function sampleDocumentReader(day: SampleDay, iorbSource: IorbSource): DocumentReader {
  const name = path.basename(day.directory);
  const instant = parseUtcTimestamp(day.simulatedAt);
  const asOf = instant === null ? undefined : formatIsoDate(utcDayOf(instant));
  return async (key) => ({ url: sampleSourceUrl(name, key, iorbSource), body: readSampleDocument(day, key, iorbSource), asOf });
}

/** The first TGA record date asked for, given the review date (its age backstop before it). */
export function tgaSinceFor(reviewAsof: IsoDate): IsoDate {
  return shiftDate(reviewAsof, -AGE_BACKSTOP_DAYS['liquidity.tga']);
}

/**
 * The receipt of a document read at `retrievedAt`, and the document parsed as of that UTC
 * day (or the sample day's). A parse failure is thrown after the receipt was handed to
 * `onReceipt`, so a failed attempt still records what it downloaded.
 */
export function acquireDocument(
  key: PublisherKey,
  iorbSource: IorbSource,
  read: DocumentRead,
  retrievedAt: Instant,
  onReceipt: (receipt: PublisherReceipt) => void = () => undefined,
): AcquiredDocument {
  const spec = publisherDocumentSpec(key, iorbSource);
  const receipt: PublisherReceipt = {
    source_url: read.url,
    retrieved_at: formatInstantOffset(retrievedAt),
    sha256: sha256Hex(read.body),
    bytes: read.body.byteLength,
    ...(spec.sourceId === undefined ? {} : { source_id: spec.sourceId }),
  };
  onReceipt(receipt);
  const parsed = spec.parse(read.body, { asOf: read.asOf ?? formatIsoDate(utcDayOf(retrievedAt)) });
  return { key, body: read.body, receipt, parsed };
}
