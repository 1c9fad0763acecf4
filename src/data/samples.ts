// Sample mode's source documents: made-up files in the sources' formats under
// samples/sources/, one directory per edition (editions.json). Editions rotate on the
// service clock so a demo shows documents changing — values, a failed retrieval, a
// drifted schema — and the snapshot history has something to show.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SOURCE_KEYS, type SourceKey } from '../core/config.js';
import { parseStrictJson } from '../core/json.js';
import type { Instant } from '../core/time.js';
import { SourceFetchError, type SourceFetch } from './fetch-source.js';

/** samples/sources of this package. */
export const SAMPLE_SOURCES_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../samples/sources');

export interface SampleEditions {
  rotationSeconds: number;
  editions: readonly { edition: number; directory: string }[];
}

function invalid(detail: string): never {
  throw new Error(`samples/sources/editions.json: ${detail}`);
}

export function loadSampleEditions(dir: string = SAMPLE_SOURCES_DIR): SampleEditions {
  const doc = parseStrictJson(readFileSync(path.join(dir, 'editions.json'))) as Record<string, unknown>;
  const rotation = doc.rotation_seconds;
  if (typeof rotation !== 'number' || !Number.isInteger(rotation) || rotation < 1) invalid('rotation_seconds must be a positive whole number');
  const list = doc.editions;
  if (!Array.isArray(list) || list.length === 0) invalid('expected a non-empty "editions" array');
  const editions = list.map((entry: unknown, index) => {
    const e = entry as Record<string, unknown>;
    if (e?.edition !== index + 1) invalid(`entry ${index} must have "edition": ${index + 1}`);
    if (typeof e.directory !== 'string' || !/^edition-[0-9]+$/.test(e.directory)) invalid(`entry ${index} has a bad "directory"`);
    return { edition: index + 1, directory: e.directory };
  });
  return { rotationSeconds: rotation, editions };
}

/** Which edition is current at an instant. */
export function editionAt(editions: SampleEditions, at: Instant): number {
  const seconds = Number(at / 1_000_000n);
  const slot = Math.floor(seconds / editions.rotationSeconds);
  return (((slot % editions.editions.length) + editions.editions.length) % editions.editions.length) + 1;
}

export function sampleDocumentPath(dir: string, editions: SampleEditions, edition: number, key: SourceKey): string {
  return path.join(dir, editions.editions[edition - 1].directory, `${key}.json`);
}

const SAMPLE_URL = /^sample:sources\/([a-z-]+)\.json$/;

/** Serves `sample:sources/<key>.json` from the bundled edition current on `clock`. */
export function createSampleFetch(clock: () => Instant, dir: string = SAMPLE_SOURCES_DIR): SourceFetch {
  let editions: SampleEditions | undefined;
  return async (request) => {
    const match = SAMPLE_URL.exec(request.url);
    const key = match?.[1] as SourceKey | undefined;
    if (!key || !(SOURCE_KEYS as readonly string[]).includes(key)) throw new SourceFetchError('transport', 'no bundled sample document has this URL');
    editions ??= loadSampleEditions(dir);
    const body = readFileSync(sampleDocumentPath(dir, editions, editionAt(editions, clock()), key));
    return { url: request.url, contentType: 'application/json', body: new Uint8Array(body) };
  };
}
