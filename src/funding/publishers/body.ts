// Helpers every publisher parser shares: size and encoding checks, strict JSON, dates,
// value descriptions for messages, and assembling a MetricSeries.

import { isUtf8 } from 'node:buffer';
import { JsonSyntaxError, parseStrictJson } from '../../core/json.js';
import { parseIsoDate } from '../../core/time.js';
import { type Decimal, decimalToNumber, formatDecimal } from '../decimal.js';
import { type PublisherDocumentFailure, PublisherDocumentError } from '../errors.js';
import type {
  AcceptedObservation,
  DatedObservation,
  IsoDate,
  MetricId,
  MetricSeries,
  PublisherBody,
  PublisherKey,
  RejectedObservation,
  SetAsideOperation,
} from './types.js';

/** Largest publisher body (and largest unpacked PRATES member) we accept. */
export const MAX_PUBLISHER_BYTES = 2_000_000;

export function fail(
  document: PublisherKey,
  reason: PublisherDocumentFailure,
  detail: string,
  location?: string,
  cause?: unknown,
): never {
  throw new PublisherDocumentError(document, reason, detail, { location, cause });
}

export function bodyByteLength(body: PublisherBody): number {
  return typeof body === 'string' ? Buffer.byteLength(body, 'utf8') : body.byteLength;
}

export function requireSize(document: PublisherKey, body: PublisherBody, limit = MAX_PUBLISHER_BYTES): void {
  const size = bodyByteLength(body);
  if (size > limit) fail(document, 'document_too_large', `body is ${size} bytes, more than the ${limit} bytes accepted`);
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** Strict UTF-8 text of a body; a leading byte-order mark is dropped. */
export function decodeUtf8(document: PublisherKey, body: PublisherBody): string {
  if (typeof body === 'string') return body.startsWith('\uFEFF') ? body.slice(1) : body;
  try {
    return utf8.decode(body);
  } catch (cause) {
    return fail(document, 'document_not_utf8', 'body is not valid UTF-8', undefined, cause);
  }
}

/** Size check plus strict JSON (duplicate keys, non-finite or overflowing numbers refused). */
export function readJsonDocument(document: PublisherKey, body: PublisherBody): unknown {
  requireSize(document, body);
  // Bytes that are no UTF-8 are named as such, not as a JSON syntax error.
  if (typeof body !== 'string' && !isUtf8(body)) fail(document, 'document_not_utf8', 'body is not valid UTF-8');
  try {
    return parseStrictJson(body);
  } catch (cause) {
    if (cause instanceof JsonSyntaxError) {
      return fail(document, 'document_malformed_json', `body is not strict JSON (${cause.message})`, undefined, cause);
    }
    throw cause;
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** RFC 6901 pointer from path segments. */
export function pointer(...segments: (string | number)[]): string {
  return segments.map((s) => `/${String(s).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

/** The date when `value` is a strict `YYYY-MM-DD` text naming a real calendar day. */
export function checkedDate(value: unknown): IsoDate | null {
  return typeof value === 'string' && parseIsoDate(value) !== null ? value : null;
}

/** A short, safe rendering of an offending value for an error message. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (typeof value === 'string') {
    const shown = value.length > 40 ? `${value.slice(0, 40)}…` : value;
    return `the text ${JSON.stringify(shown)}`;
  }
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return Array.isArray(value) ? 'an array' : 'an object';
}

export function acceptedObservation(date: IsoDate, value: Decimal, setAside: readonly SetAsideOperation[] = []): AcceptedObservation {
  const observation: AcceptedObservation = { date, state: 'accepted', exact: formatDecimal(value), value: decimalToNumber(value) };
  return setAside.length === 0 ? observation : { ...observation, setAside: Object.freeze([...setAside]) };
}

export function rejectedObservation(date: IsoDate, error: PublisherDocumentError): RejectedObservation {
  return { date, state: 'rejected', error };
}

/** Orders entries newest first and finds the newest accepted date. Dates must be unique. */
export function buildSeries(document: PublisherKey, metric: MetricId, entries: readonly DatedObservation[]): MetricSeries {
  const observations = [...entries].sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0));
  const newest = observations.find((o) => o.state === 'accepted');
  return Object.freeze({
    metric,
    document,
    observations: Object.freeze(observations),
    newestDate: newest ? newest.date : null,
  });
}
