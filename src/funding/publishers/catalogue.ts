// The seven publisher documents and the nine metrics they yield: where each document
// lives, how big it may be, which parser reads it, and the per-metric facts a packet row
// and its lineage carry (unit, cadence, `source` string, `field` description).

import { parsePratesArchive } from './frb-prates.js';
import { parseH41Page } from './frb-h41.js';
import { MAX_PUBLISHER_BYTES } from './body.js';
import { parseOnRrpDocument, parseSrfDocument } from './nyfed-operations.js';
import { parseEffrDocument, parseSofrDocument } from './nyfed-rates.js';
import { parseTreasuryDtsDocument, treasuryDtsQuery } from './treasury-dts.js';
import { type IsoDate, METRIC_IDS, type MetricId, PUBLISHER_KEYS, type PublisherDocument, type PublisherKey } from './types.js';

export { METRIC_IDS, PUBLISHER_KEYS };
export type { MetricId, PublisherKey };

/** Each publisher has one configurable base URL (scheme, host and optional path prefix). */
export type PublisherBaseName = 'nyfed' | 'frb' | 'treasury';
export type PublisherBases = Readonly<Record<PublisherBaseName, string>>;

export const DEFAULT_PUBLISHER_BASES: PublisherBases = Object.freeze({
  nyfed: 'https://markets.newyorkfed.org',
  frb: 'https://www.federalreserve.gov',
  treasury: 'https://api.fiscaldata.treasury.gov',
});

export interface PublisherDocumentSpec {
  readonly key: PublisherKey;
  readonly base: PublisherBaseName;
  /** Path appended to the base URL. */
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
  readonly parse: (body: Uint8Array) => PublisherDocument;
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
  parse: (body: Uint8Array) => PublisherDocument,
): PublisherDocumentSpec {
  return Object.freeze({
    key, base, path, defaultUrl: DEFAULT_PUBLISHER_BASES[base] + path, maxBytes: MAX_PUBLISHER_BYTES, mediaType, sampleFile,
    metrics: Object.freeze([...metrics]), parse,
  });
}

/** The seven documents, in PUBLISHER_KEYS order. */
export const PUBLISHER_DOCUMENTS: readonly PublisherDocumentSpec[] = Object.freeze([
  spec('sofr', 'nyfed', '/api/rates/secured/sofr/last/10.json', 'application/json', 'sofr.json',
    ['policy.sofr', 'distribution.sofr.p99', 'distribution.sofr.volume'], parseSofrDocument),
  spec('effr', 'nyfed', '/api/rates/unsecured/effr/last/10.json', 'application/json', 'effr.json', ['policy.effr'], parseEffrDocument),
  spec('iorb', 'frb', '/releases/prates/data/FRB_PRATES_xml.zip', 'application/zip', 'iorb.zip', ['policy.iorb'], parsePratesArchive),
  spec('reserves', 'frb', '/releases/h41/current/h41.htm', 'text/html; charset=utf-8', 'reserves.htm', ['liquidity.reserves'], parseH41Page),
  spec('on_rrp', 'nyfed', '/api/rp/reverserepo/all/results/last/10.json', 'application/json', 'on_rrp.json', ['liquidity.on_rrp'],
    parseOnRrpDocument),
  spec('srf', 'nyfed', '/api/rp/repo/all/results/last/20.json', 'application/json', 'srf.json', ['liquidity.srf'], parseSrfDocument),
  spec('tga', 'treasury', '/services/api/fiscal_service/v1/accounting/dts/operating_cash_balance', 'application/json', 'tga.json',
    ['liquidity.tga'], parseTreasuryDtsDocument),
]);

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

/** The nine metrics, in METRIC_IDS order. */
export const METRICS: readonly MetricSpec[] = Object.freeze([
  metric('policy.sofr', 'sofr', '%', 'daily', SOFR_SOURCE, 'percentRate'),
  metric('policy.effr', 'effr', '%', 'daily', 'New York Fed Markets API EFFR', 'percentRate'),
  metric('policy.iorb', 'iorb', '%', 'daily', 'Federal Reserve Board PRATES RESBM_N.D', 'RESBM_N.D/OBS_VALUE'),
  metric('distribution.sofr.p99', 'sofr', '%', 'daily', SOFR_SOURCE, 'percentPercentile99'),
  metric('distribution.sofr.volume', 'sofr', '$B', 'daily', SOFR_SOURCE, 'volumeInBillions'),
  metric('liquidity.reserves', 'reserves', '$B', 'weekly', 'Federal Reserve Board H.4.1 weekly average', 't2r16c2 (millions / 1000)'),
  metric('liquidity.tga', 'tga', '$B', 'daily', 'US Treasury Daily Treasury Statement opening balance', 'open_today_bal (millions / 1000)'),
  metric('liquidity.on_rrp', 'on_rrp', '$B', 'daily', 'New York Fed ON RRP operation results', 'totalAmtAccepted / 1000000000'),
  metric('liquidity.srf', 'srf', '$B', 'daily', 'New York Fed standing repo operation results', 'sum(totalAmtAccepted) / 1000000000'),
]);

export function publisherDocumentSpec(key: PublisherKey): PublisherDocumentSpec {
  const found = PUBLISHER_DOCUMENTS.find((d) => d.key === key);
  if (!found) throw new RangeError(`unknown publisher document ${JSON.stringify(key)}`);
  return found;
}

export function metricSpec(id: MetricId): MetricSpec {
  const found = METRICS.find((m) => m.id === id);
  if (!found) throw new RangeError(`unknown metric ${JSON.stringify(id)}`);
  return found;
}

/**
 * The URL to fetch for a document with the given bases (a base may carry a path prefix;
 * trailing slashes are ignored). The TGA request needs `tgaSince`, the first record_date
 * wanted, because without its filter the answer would span several pages.
 */
export function publisherUrl(key: PublisherKey, bases: PublisherBases = DEFAULT_PUBLISHER_BASES, options: { tgaSince?: IsoDate } = {}): string {
  const doc = publisherDocumentSpec(key);
  const url = bases[doc.base].replace(/\/+$/, '') + doc.path;
  if (key !== 'tga') return url;
  if (options.tgaSince === undefined) throw new RangeError('the TGA request needs a tgaSince date');
  return `${url}?${treasuryDtsQuery(options.tgaSince)}`;
}
