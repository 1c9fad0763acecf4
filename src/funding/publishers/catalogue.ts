// The seven publisher documents and the nine metrics they yield: where each document
// lives, how big it may be, which parser reads it, and the per-metric facts a packet row
// and its lineage carry (unit, cadence, `source` string, `field` description).
//
// IORB has two sources behind the same parser interface, chosen by configuration
// (`iorbSource`): the Board's Data Download Program package for PRATES, and the Board's
// own "Interest on Reserve Balances" page, for when the Data Download Program (which the
// Board is retiring) is not available. The receipt of the IORB document names the source
// (`source_id`), and the row's `source` and the lineage `field` say what was read.
//
// Every URL is one the publisher serves directly, with no redirect (the fetcher refuses
// redirects): `https` and the `www.` host of the Board (the bare host and plain http
// redirect there), and the Data Download Program's own download address
// `Output.aspx?rel=PRATES&filetype=zip`, the address the Board documents for the PRATES
// package (it is expected to answer with the zip itself), rather than the path
// `/releases/prates/data/FRB_PRATES_xml.zip` the upstream used, which the Board most
// likely does not serve. If a publisher ever answers with a redirect, the failure names
// the target, and the base URL (or the IORB source) is changed by configuration.

import { parseIorbPage } from './frb-iorb-page.js';
import { parsePratesArchive } from './frb-prates.js';
import { parseH41Page } from './frb-h41.js';
import { MAX_PUBLISHER_BYTES } from './body.js';
import { parseOnRrpDocument, parseSrfDocument } from './nyfed-operations.js';
import { parseEffrDocument, parseSofrDocument } from './nyfed-rates.js';
import { parseTreasuryDtsDocument, treasuryDtsQuery } from './treasury-dts.js';
import {
  type IsoDate,
  METRIC_IDS,
  type MetricId,
  PUBLISHER_KEYS,
  type ParseContext,
  type PublisherDocument,
  type PublisherKey,
} from './types.js';

export { METRIC_IDS, PUBLISHER_KEYS };
export type { MetricId, PublisherKey };

/** Each publisher has one configurable base URL (scheme, host and optional path prefix). */
export type PublisherBaseName = 'nyfed' | 'frb' | 'treasury';
export type PublisherBases = Readonly<Record<PublisherBaseName, string>>;

/** Where IORB is read from; the token is recorded as the IORB receipt's `source_id`. */
export const IORB_SOURCES = ['prates_ddp', 'board_iorb_page'] as const;
export type IorbSource = (typeof IORB_SOURCES)[number];
export const DEFAULT_IORB_SOURCE: IorbSource = 'prates_ddp';

export const DEFAULT_PUBLISHER_BASES: PublisherBases = Object.freeze({
  nyfed: 'https://markets.newyorkfed.org',
  frb: 'https://www.federalreserve.gov',
  treasury: 'https://api.fiscaldata.treasury.gov',
});

export interface PublisherDocumentSpec {
  readonly key: PublisherKey;
  readonly base: PublisherBaseName;
  /** Path (and fixed query, if any) appended to the base URL. */
  readonly path: string;
  /** The public URL with the default base (for TGA without its query). */
  readonly defaultUrl: string;
  /** Largest body accepted; a larger download fails the attempt. */
  readonly maxBytes: number;
  /** What the publisher serves, for a local server replaying recorded documents. */
  readonly mediaType: string;
  /** File name of this document inside a sample day directory (samples/publishers/day-N/). */
  readonly sampleFile: string;
  /** Metrics this document yields, in METRIC_IDS order. */
  readonly metrics: readonly MetricId[];
  /** For a document with alternative sources (IORB): which one this is, for the receipt. */
  readonly sourceId?: IorbSource;
  /** `context.asOf` is needed only by documents that state rates "in effect since". */
  readonly parse: (body: Uint8Array, context?: ParseContext) => PublisherDocument;
}

export interface MetricSpec {
  readonly id: MetricId;
  readonly document: PublisherKey;
  readonly unit: '%' | '$B';
  readonly cadence: 'daily' | 'weekly';
  /** The packet row's `source` string. */
  readonly source: string;
  /** The lineage `field`: which publisher field, and the unit transform applied. */
  readonly field: string;
}

function spec(
  key: PublisherKey,
  base: PublisherBaseName,
  path: string,
  mediaType: string,
  sampleFile: string,
  metrics: readonly MetricId[],
  parse: PublisherDocumentSpec['parse'],
  sourceId?: IorbSource,
): PublisherDocumentSpec {
  return Object.freeze({
    key, base, path, defaultUrl: DEFAULT_PUBLISHER_BASES[base] + path, maxBytes: MAX_PUBLISHER_BYTES, mediaType, sampleFile,
    metrics: Object.freeze([...metrics]), parse, ...(sourceId === undefined ? {} : { sourceId }),
  });
}

/** The IORB document of each source. */
export const IORB_DOCUMENTS: Readonly<Record<IorbSource, PublisherDocumentSpec>> = Object.freeze({
  prates_ddp: spec('iorb', 'frb', '/datadownload/Output.aspx?rel=PRATES&filetype=zip', 'application/zip', 'iorb.zip', ['policy.iorb'],
    parsePratesArchive, 'prates_ddp'),
  board_iorb_page: spec('iorb', 'frb', '/monetarypolicy/reserve-balances.htm', 'text/html; charset=utf-8', 'iorb-page.htm', ['policy.iorb'],
    parseIorbPage, 'board_iorb_page'),
});

/** The seven documents, in PUBLISHER_KEYS order, with IORB from the given source. */
export function publisherDocuments(iorbSource: IorbSource = DEFAULT_IORB_SOURCE): readonly PublisherDocumentSpec[] {
  return iorbSource === DEFAULT_IORB_SOURCE ? PUBLISHER_DOCUMENTS : OTHER_SOURCE_DOCUMENTS;
}

function documentsWith(iorb: PublisherDocumentSpec): readonly PublisherDocumentSpec[] {
  return Object.freeze([
    spec('sofr', 'nyfed', '/api/rates/secured/sofr/last/10.json', 'application/json', 'sofr.json',
      ['policy.sofr', 'distribution.sofr.p99', 'distribution.sofr.volume'], parseSofrDocument),
    spec('effr', 'nyfed', '/api/rates/unsecured/effr/last/10.json', 'application/json', 'effr.json', ['policy.effr'], parseEffrDocument),
    iorb,
    spec('reserves', 'frb', '/releases/h41/current/h41.htm', 'text/html; charset=utf-8', 'reserves.htm', ['liquidity.reserves'], parseH41Page),
    spec('on_rrp', 'nyfed', '/api/rp/reverserepo/all/results/last/10.json', 'application/json', 'on_rrp.json', ['liquidity.on_rrp'],
      parseOnRrpDocument),
    spec('srf', 'nyfed', '/api/rp/repo/all/results/last/20.json', 'application/json', 'srf.json', ['liquidity.srf'], parseSrfDocument),
    spec('tga', 'treasury', '/services/api/fiscal_service/v1/accounting/dts/operating_cash_balance', 'application/json', 'tga.json',
      ['liquidity.tga'], parseTreasuryDtsDocument),
  ]);
}

/** The seven documents, in PUBLISHER_KEYS order, with IORB from the default source. */
export const PUBLISHER_DOCUMENTS: readonly PublisherDocumentSpec[] = documentsWith(IORB_DOCUMENTS[DEFAULT_IORB_SOURCE]);
const OTHER_SOURCE_DOCUMENTS: readonly PublisherDocumentSpec[] = Object.freeze(
  PUBLISHER_DOCUMENTS.map((d) => (d.key === 'iorb' ? IORB_DOCUMENTS.board_iorb_page : d)),
);

function metric(
  id: MetricId,
  document: PublisherKey,
  unit: MetricSpec['unit'],
  cadence: MetricSpec['cadence'],
  source: string,
  field: string,
): MetricSpec {
  return Object.freeze({ id, document, unit, cadence, source, field });
}

const SOFR_SOURCE = 'New York Fed Markets API SOFR';

/** The IORB row's `source` and lineage `field` for each source. */
export const IORB_METRICS: Readonly<Record<IorbSource, MetricSpec>> = Object.freeze({
  prates_ddp: metric('policy.iorb', 'iorb', '%', 'daily', 'Federal Reserve Board PRATES RESBM_N.D', 'RESBM_N.D/OBS_VALUE'),
  board_iorb_page: metric('policy.iorb', 'iorb', '%', 'daily', 'Federal Reserve Board interest on reserve balances page',
    'IORB rate of the newest Effective Date on or before the observation date'),
});

function metricsWith(iorb: MetricSpec): readonly MetricSpec[] {
  return Object.freeze([
    metric('policy.sofr', 'sofr', '%', 'daily', SOFR_SOURCE, 'percentRate'),
    metric('policy.effr', 'effr', '%', 'daily', 'New York Fed Markets API EFFR', 'percentRate'),
    iorb,
    metric('distribution.sofr.p99', 'sofr', '%', 'daily', SOFR_SOURCE, 'percentPercentile99'),
    metric('distribution.sofr.volume', 'sofr', '$B', 'daily', SOFR_SOURCE, 'volumeInBillions'),
    metric('liquidity.reserves', 'reserves', '$B', 'weekly', 'Federal Reserve Board H.4.1 weekly average',
      'Reserve balances with Federal Reserve Banks / Week ended (millions / 1000)'),
    metric('liquidity.tga', 'tga', '$B', 'daily', 'US Treasury Daily Treasury Statement opening balance', 'open_today_bal (millions / 1000)'),
    metric('liquidity.on_rrp', 'on_rrp', '$B', 'daily', 'New York Fed ON RRP operation results', 'totalAmtAccepted / 1000000000'),
    metric('liquidity.srf', 'srf', '$B', 'daily', 'New York Fed standing repo operation results', 'sum(totalAmtAccepted) / 1000000000'),
  ]);
}

/** The nine metrics, in METRIC_IDS order, with IORB from the default source. */
export const METRICS: readonly MetricSpec[] = metricsWith(IORB_METRICS[DEFAULT_IORB_SOURCE]);
const OTHER_SOURCE_METRICS: readonly MetricSpec[] = metricsWith(IORB_METRICS.board_iorb_page);

/** The nine metrics with IORB's source and field as read from the given source. */
export function metricsFor(iorbSource: IorbSource = DEFAULT_IORB_SOURCE): readonly MetricSpec[] {
  return iorbSource === DEFAULT_IORB_SOURCE ? METRICS : OTHER_SOURCE_METRICS;
}

export function publisherDocumentSpec(key: PublisherKey, iorbSource: IorbSource = DEFAULT_IORB_SOURCE): PublisherDocumentSpec {
  const found = publisherDocuments(iorbSource).find((d) => d.key === key);
  if (!found) throw new RangeError(`unknown publisher document ${JSON.stringify(key)}`);
  return found;
}

export function metricSpec(id: MetricId, iorbSource: IorbSource = DEFAULT_IORB_SOURCE): MetricSpec {
  const found = metricsFor(iorbSource).find((m) => m.id === id);
  if (!found) throw new RangeError(`unknown metric ${JSON.stringify(id)}`);
  return found;
}

export interface PublisherUrlOptions {
  /** The first record_date wanted (TGA only). */
  readonly tgaSince?: IsoDate;
  readonly iorbSource?: IorbSource;
}

/**
 * The URL to fetch for a document with the given bases (a base may carry a path prefix;
 * trailing slashes are ignored). The TGA request needs `tgaSince`, the first record_date
 * wanted, because without its filter the answer would span several pages.
 */
export function publisherUrl(key: PublisherKey, bases: PublisherBases = DEFAULT_PUBLISHER_BASES, options: PublisherUrlOptions = {}): string {
  const doc = publisherDocumentSpec(key, options.iorbSource);
  const url = bases[doc.base].replace(/\/+$/, '') + doc.path;
  if (key !== 'tga') return url;
  if (options.tgaSince === undefined) throw new RangeError('the TGA request needs a tgaSince date');
  return `${url}?${treasuryDtsQuery(options.tgaSince)}`;
}
