// Sample mode's publisher documents: made-up files in the publishers' formats, one
// directory per sample day (samples/publishers/day-N/), listed in days.json. This module
// only finds and reads them; which day to serve when is the capture code's decision.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { parseStrictJson } from '../../core/json.js';
import { DEFAULT_IORB_SOURCE, type IorbSource, publisherDocumentSpec } from './catalogue.js';
import type { IsoDate, PublisherKey } from './types.js';

/** samples/publishers of this package (same depth from src/ and from a dist/ build). */
export const SAMPLE_PUBLISHERS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../samples/publishers');

export interface SampleDay {
  /** 1-based position in days.json. */
  readonly day: number;
  /** Absolute path of the day's directory. */
  readonly directory: string;
  /** The UTC instant at which these documents would have been the current ones (`…Z`). */
  readonly simulatedAt: string;
  /** The review date a packet built from this day should have. */
  readonly reviewAsof: IsoDate;
}

function invalid(detail: string): never {
  throw new Error(`samples/publishers/days.json: ${detail}`);
}

/** The sample days in order. Throws a plain Error if days.json is damaged (a packaging fault). */
export function loadSampleDays(dir: string = SAMPLE_PUBLISHERS_DIR): SampleDay[] {
  const doc = parseStrictJson(readFileSync(path.join(dir, 'days.json')));
  const days = (doc as { days?: unknown }).days;
  if (!Array.isArray(days) || days.length === 0) invalid('expected a non-empty "days" array');
  return days.map((entry: unknown, index): SampleDay => {
    const e = entry as Record<string, unknown>;
    if (e?.day !== index + 1) invalid(`entry ${index} must have "day": ${index + 1}`);
    if (typeof e.directory !== 'string' || !/^day-[0-9]+$/.test(e.directory)) invalid(`entry ${index} has a bad "directory"`);
    if (typeof e.simulated_at !== 'string' || typeof e.review_asof !== 'string') invalid(`entry ${index} lacks simulated_at or review_asof`);
    return Object.freeze({ day: index + 1, directory: path.join(dir, e.directory), simulatedAt: e.simulated_at, reviewAsof: e.review_asof });
  });
}

/** Absolute path of one document of one sample day (IORB from the given source). */
export function sampleDocumentPath(day: SampleDay, key: PublisherKey, iorbSource: IorbSource = DEFAULT_IORB_SOURCE): string {
  return path.join(day.directory, publisherDocumentSpec(key, iorbSource).sampleFile);
}

/** The bytes of one document of one sample day, exactly as a publisher would send them. */
export function readSampleDocument(day: SampleDay, key: PublisherKey, iorbSource: IorbSource = DEFAULT_IORB_SOURCE): Uint8Array {
  return readFileSync(sampleDocumentPath(day, key, iorbSource));
}
