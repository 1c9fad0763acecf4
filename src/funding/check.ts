// `evidence-desk capture --check`: fetch each publisher document once, exactly as a
// capture would (same URLs, limits and parsers), and report per document whether it
// downloads and parses — and then whether the seven together would make a packet.
// Nothing is stored and no lease is taken: it is a diagnosis to run before (or instead
// of) a capture, for example when `latest` keeps answering 503.

import type { Config } from '../core/config.js';
import { isAppError } from '../core/errors.js';
import { formatIsoDate, utcDayOf, type Instant } from '../core/time.js';
import { acquireDocument, type DocumentReader, liveDocumentReader, sampleDocumentReader, tgaSinceFor } from './acquire.js';
import { isPublisherFailure, PublisherUnavailableError } from './errors.js';
import { FETCH_LIMITS, type FetchLimits } from './fetch.js';
import { AGE_BACKSTOP_DAYS, buildObservations, checkHorizonAge, HORIZON_MAX_AGE_DAYS, reviewHorizon, shiftDate } from './observations.js';
import { DEFAULT_IORB_SOURCE, type IorbSource, publisherUrl } from './publishers/catalogue.js';
import { loadSampleDays, SAMPLE_PUBLISHERS_DIR } from './publishers/samples.js';
import { type MetricSeries, PUBLISHER_KEYS, type PublisherDocument, type PublisherKey } from './publishers/types.js';

export interface CheckLine {
  /** A document key, or `packet` for the final "would these make a packet" line. */
  readonly item: PublisherKey | 'packet';
  readonly ok: boolean;
  readonly url: string | null;
  /** HTTP status of the answer (200 for a sample file), null when there was none. */
  readonly http_status: number | null;
  readonly bytes: number | null;
  /** The reason code of a failure (from the error registry); null when ok or not attempted. */
  readonly reason: string | null;
  /** What was read, or what is wrong, in one line. */
  readonly result: string;
}

export interface CheckOptions {
  config: Pick<Config, 'mode' | 'publisherBases'> & Partial<Pick<Config, 'iorbSource'>>;
  clock: () => Instant;
  fetchLimits?: FetchLimits;
  sampleDir?: string;
}

const CONCURRENCY = 3;

/** Newest accepted date and counts; if the newest date itself was rejected, why. */
function describeSeries(series: MetricSeries): string {
  const rejected = series.observations.filter((o) => o.state === 'rejected').length;
  const count = `${series.observations.length} date${series.observations.length === 1 ? '' : 's'}${rejected > 0 ? `, ${rejected} rejected` : ''}`;
  const newest = series.observations[0];
  const why = newest?.state === 'rejected' ? `; ${newest.date} rejected: ${newest.error.reason}: ${newest.error.detail}` : '';
  return `${series.metric} newest ${series.newestDate ?? 'none accepted'} (${count}${why})`;
}

function failureText(error: unknown): { reason: string; result: string; status: number | null } {
  const status = error instanceof PublisherUnavailableError ? error.httpStatus ?? null : null;
  if (isPublisherFailure(error)) return { reason: error.reason, result: `${error.reason}: ${error.detail}`, status };
  if (isAppError(error)) return { reason: error.code, result: `${error.code}: ${error.message}`, status };
  return { reason: 'internal_error', result: `internal_error: ${(error as Error)?.message ?? String(error)}`, status };
}

/** One line per document in PUBLISHER_KEYS order, then the `packet` line. */
export async function checkPublishers(options: CheckOptions): Promise<CheckLine[]> {
  const { config, clock } = options;
  const iorbSource: IorbSource = config.iorbSource ?? DEFAULT_IORB_SOURCE;
  const today = formatIsoDate(utcDayOf(clock()));
  let read: DocumentReader;
  if (config.mode === 'sample') {
    read = sampleDocumentReader(loadSampleDays(options.sampleDir ?? SAMPLE_PUBLISHERS_DIR)[0], iorbSource);
  } else {
    read = liveDocumentReader(config.publisherBases, iorbSource, options.fetchLimits ?? FETCH_LIMITS);
  }

  const lines = new Map<PublisherKey, CheckLine>();
  const parsed = new Map<PublisherKey, PublisherDocument>();
  const check = async (key: PublisherKey, tgaSince?: string) => {
    let url: string | null = key === 'tga' && tgaSince === undefined ? null : config.mode === 'sample' ? null
      : publisherUrl(key, config.publisherBases, { tgaSince, iorbSource });
    let bytes: number | null = null;
    let status: number | null = null;
    try {
      const document = await read(key, tgaSince);
      url = document.url;
      bytes = document.body.byteLength;
      status = 200;
      const acquired = acquireDocument(key, iorbSource, document, clock());
      parsed.set(key, acquired.parsed);
      lines.set(key, { item: key, ok: true, url, http_status: status, bytes, reason: null, result: acquired.parsed.series.map(describeSeries).join('; ') });
    } catch (error) {
      const failure = failureText(error);
      lines.set(key, { item: key, ok: false, url, http_status: failure.status ?? status, bytes, reason: failure.reason, result: failure.result });
    }
  };

  const first = PUBLISHER_KEYS.filter((k) => k !== 'tga');
  const queue = [...first];
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    for (let key = queue.shift(); key !== undefined; key = queue.shift()) await check(key);
  }));

  // The TGA query starts from the review date, as in a capture; without one (SOFR or
  // IORB failed), from the oldest review date a live capture would still accept.
  let horizon: string | null = null;
  let horizonError: Error | null = null;
  if (parsed.has('sofr') && parsed.has('iorb')) {
    try {
      horizon = reviewHorizon(parsed);
    } catch (error) {
      horizonError = error instanceof Error ? error : new Error(String(error));
    }
  }
  await check('tga', horizon !== null ? tgaSinceFor(horizon) : shiftDate(today, -(HORIZON_MAX_AGE_DAYS + AGE_BACKSTOP_DAYS['liquidity.tga'])));

  const documentLines = PUBLISHER_KEYS.map((k) => lines.get(k)!);
  const failedDocuments = documentLines.filter((l) => !l.ok).map((l) => l.item);
  let packet: CheckLine;
  if (failedDocuments.length > 0) {
    packet = { item: 'packet', ok: false, url: null, http_status: null, bytes: null, reason: null,
      result: `not attempted: ${failedDocuments.length} document${failedDocuments.length === 1 ? '' : 's'} failed (${failedDocuments.join(', ')})` };
  } else {
    try {
      if (horizonError !== null) throw horizonError;
      const reviewAsof = reviewHorizon(parsed);
      if (config.mode === 'live') checkHorizonAge(reviewAsof, today, parsed);
      const { rows, setAside } = buildObservations(parsed, reviewAsof, '', iorbSource);
      const extra = Object.entries(setAside).map(([metric, ops]) => `${metric} sets aside ${ops.map((o) => `${o.operation_id} (${o.reason})`).join(', ')}`);
      packet = { item: 'packet', ok: true, url: null, http_status: null, bytes: null, reason: null,
        result: [`review_asof ${reviewAsof}; ${rows.length} rows: ${rows.map((r) => `${r.metric_id}=${r.value}@${r.observation_date}`).join(' ')}`, ...extra].join('; ') };
    } catch (error) {
      const failure = failureText(error);
      const document = isPublisherFailure(error) ? ` (${error.document})` : '';
      packet = { item: 'packet', ok: false, url: null, http_status: null, bytes: null, reason: failure.reason, result: `${failure.result}${document}` };
    }
  }
  return [...documentLines, packet];
}

/** One human-readable line: status, item, HTTP status, size, URL, result. */
export function formatCheckLine(line: CheckLine): string {
  const status = line.ok ? 'ok  ' : 'FAIL';
  const http = line.http_status === null ? '-' : String(line.http_status);
  const bytes = line.bytes === null ? '-' : `${line.bytes} bytes`;
  const url = line.url ?? '-';
  return `${status} ${line.item.padEnd(8)} HTTP ${http.padEnd(3)} ${bytes.padStart(13)}  ${url}  ${line.result}`;
}
