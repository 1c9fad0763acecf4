// Reading recorded publisher fixtures and picking values out of parsed documents.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { expect } from 'vitest';

import { PublisherDocumentError, type PublisherDocumentFailure } from '../../../src/funding/errors.js';
import type { DatedObservation, IsoDate, MetricId, MetricSeries, PublisherDocument } from '../../../src/funding/publishers/types.js';

export const FIXTURE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/publishers');

export function fixture(relative: string): Uint8Array {
  return new Uint8Array(readFileSync(path.join(FIXTURE_DIR, relative)));
}

export function fixtureText(relative: string): string {
  return readFileSync(path.join(FIXTURE_DIR, relative), 'utf8');
}

export function seriesOf(doc: PublisherDocument, metric: MetricId): MetricSeries {
  const found = doc.series.find((s) => s.metric === metric);
  if (!found) throw new Error(`document ${doc.document} has no series ${metric}`);
  return found;
}

export function entryOn(series: MetricSeries, date: IsoDate): DatedObservation {
  const found = series.observations.find((o) => o.date === date);
  if (!found) throw new Error(`${series.metric} has no entry for ${date}`);
  return found;
}

/** date → value of every accepted entry, newest first. */
export function acceptedValues(series: MetricSeries): [IsoDate, number][] {
  return series.observations.flatMap((o) => (o.state === 'accepted' ? [[o.date, o.value] as [IsoDate, number]] : []));
}

/** The error stored for a rejected date, after checking it is that kind of rejection. */
export function rejection(series: MetricSeries, date: IsoDate, reason: PublisherDocumentFailure): PublisherDocumentError {
  const entry = entryOn(series, date);
  if (entry.state !== 'rejected') throw new Error(`${series.metric} on ${date} was accepted (${entry.exact})`);
  expect(entry.error.reason).toBe(reason);
  expect(entry.error.code).toBe('publisher_document_invalid');
  expect(entry.error.document).toBe(series.document);
  return entry.error;
}

/** Runs `parse` and returns the PublisherDocumentError it must throw, checking its reason. */
export function documentFailure(parse: () => unknown, reason: PublisherDocumentFailure): PublisherDocumentError {
  let caught: unknown;
  try {
    parse();
  } catch (e) {
    caught = e;
  }
  if (!(caught instanceof PublisherDocumentError)) {
    throw new Error(`expected a PublisherDocumentError (${reason}), got ${caught === undefined ? 'no error' : caught instanceof Error ? `${caught.name}: ${caught.message}` : typeof caught}`);
  }
  expect(caught.reason).toBe(reason);
  expect(caught.code).toBe('publisher_document_invalid');
  expect(caught.status).toBe(502);
  return caught;
}
