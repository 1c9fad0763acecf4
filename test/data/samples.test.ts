// Sample mode: the bundled documents fill every dataset offline, through the same
// retrieval, store and projection code as live mode.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultConfig, SOURCE_KEYS } from '../../src/core/config.js';
import { parseStrictJson } from '../../src/core/json.js';
import { findBlob } from '../../src/funding/archive.js';
import { DATASET_IDS } from '../../src/data/datasets.js';
import { editionAt, loadSampleEditions, SAMPLE_SOURCES_DIR } from '../../src/data/samples.js';
import { queryDataset, type DataContext, type QueryResult } from '../../src/data/service.js';
import type { Storage } from '../../src/storage/storage.js';
import { sqliteBackend } from '../helpers/storage.js';
import { makeContext, resolvePointer, testClock } from './support.js';

// Editions rotate every 600 s: 12:00 is edition 1, 12:10 edition 2.
const EDITION_1 = '2026-11-19T12:00:00Z';
const EDITION_2 = '2026-11-19T12:10:00Z';

describe('bundled sample sources', () => {
  let opened: Awaited<ReturnType<typeof sqliteBackend.open>>;
  let storage: Storage;
  const sampleContext = (at: string): DataContext => makeContext(storage, { ...defaultConfig(), mode: 'sample' }, testClock(at));
  const all = async (ctx: DataContext, dataset: string): Promise<QueryResult> => queryDataset(ctx, { dataset, limit: '2000' });

  beforeEach(async () => {
    opened = await sqliteBackend.open();
    storage = opened.storage;
  });
  afterEach(() => opened.cleanup());

  it('has a document for every source in every edition', () => {
    const editions = loadSampleEditions();
    expect(editions.editions.length).toBeGreaterThanOrEqual(2);
    for (const { directory } of editions.editions) {
      for (const key of SOURCE_KEYS) expect(fs.existsSync(path.join(SAMPLE_SOURCES_DIR, directory, `${key}.json`)), `${directory}/${key}`).toBe(true);
    }
    expect(editionAt(editions, BigInt(Date.parse(EDITION_1)) * 1000n)).toBe(1);
    expect(editionAt(editions, BigInt(Date.parse(EDITION_2)) * 1000n)).toBe(2);
  });

  it.each([EDITION_1, EDITION_2])('gives every dataset rows at %s, and says the answers are samples', async (at) => {
    const ctx = sampleContext(at);
    for (const dataset of DATASET_IDS) {
      const result = await all(ctx, dataset);
      expect(result.total_rows, dataset).toBeGreaterThan(0);
      expect(result.sample).toBe(true);
      expect(result.sources.every((s) => s.source_url.startsWith('sample:sources/'))).toBe(true);
    }
  });

  it('edition 1 shows a failing source, zeros, restricted, withheld and null values', async () => {
    const ctx = sampleContext(EDITION_1);
    const money = await all(ctx, 'money_markets');
    const byId = new Map(money.results.map((r) => [r.entity_id, r]));
    expect(byId.get('JP-JPY')).toMatchObject({ value: 0, availability: 'AVAILABLE' });
    expect(byId.get('CH-CHF')).toMatchObject({ value: null, availability: 'restricted_or_unavailable' });
    expect(byId.get('AU-AUD')).toMatchObject({ value: null, availability: 'restricted_or_unavailable' });
    expect(byId.get('CA-CAD')).toMatchObject({ value: null, availability: 'unavailable' });
    expect(money.results).toHaveLength(9);

    const china = await all(ctx, 'china_economy');
    expect(china.transport_status).toBe('partial');
    expect(china.diagnostics).toHaveLength(1);
    expect(china.diagnostics[0]).toMatchObject({ entity_id: 'Palimpsest', availability: 'source_unavailable' });
    expect(china.diagnostics[0].context).toMatch(/^invalid_json: non-finite/);

    const liquidity = await all(ctx, 'market_liquidity');
    expect(liquidity.results.map((r) => [r.entity_id, r.entity_name, r.value, r.availability])).toEqual([
      ['us_treasuries', 'bid_ask_spread', 0.3, 'published'],
      ['us_treasuries', 'top_of_book_depth', null, 'withheld'],
      ['us_ig_credit', 'trade_size_impact', null, 'unavailable'],
      ['eur_govvies', 'bid_ask_spread', 0, 'published'],
      ['eur_govvies', 'top_of_book_depth', 1, 'published'],
    ]);

    const banks = await all(ctx, 'bank_risk');
    expect(banks.results.map((r) => [r.entity_id, r.metric, r.value])).toEqual([
      ['harbour-bank', 'monitoring_score', 66], ['harbour-bank', 'model_pd_12m', 0.0042],
      ['meridian-cooperative', 'monitoring_score', 0], ['meridian-cooperative', 'model_pd_12m', 0],
      ['lakeside-savings', 'monitoring_score', null], ['lakeside-savings', 'model_pd_12m', null],
      ['northgate-trust', 'monitoring_score', null], ['northgate-trust', 'model_pd_12m', null],
      ['harbour-bank', 'gnpa_pct', 0], ['harbour-bank', 'nnpa_pct', null], ['harbour-bank', 'crar_pct', 16.2],
      ['lakeside-savings', 'gnpa_pct', null],
    ]);
  });

  it('edition 2 shows a drifted schema and the Palimpsest value kept out', async () => {
    const ctx = sampleContext(EDITION_2);
    const capital = await all(ctx, 'capital_markets');
    expect(capital.results.map((r) => r.availability)).toEqual(['schema_unavailable']);
    expect(capital.transport_status).toBe('complete');
    const china = await all(ctx, 'china_economy');
    expect(china.transport_status).toBe('complete');
    expect(china.results[0]).toMatchObject({ entity_id: 'palimpsest_publication', value: null, rights_status: 'restricted' });
    expect(china.results[0].context).toContain('under a publisher review');
  });

  it('gives every non-null value of every dataset the number found at its source_field in the stored document', async () => {
    for (const at of [EDITION_1, EDITION_2]) {
      const ctx = sampleContext(at);
      let checked = 0;
      for (const dataset of DATASET_IDS) {
        const result = await all(ctx, dataset);
        for (const row of result.results) {
          if (row.value === null) continue;
          const bytes = await findBlob(storage.db, row.content_sha256!.slice('sha256:'.length));
          expect(resolvePointer(parseStrictJson(bytes!), row.source_field), `${dataset} ${row.source_field}`).toBe(row.value);
          checked++;
        }
      }
      expect(checked).toBeGreaterThan(20);
    }
  });
});
