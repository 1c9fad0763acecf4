// Projecting a snapshot's sources into rows in slices that give the event loop back
// (projectDatasetInSlices), so a long atlas history never holds every other request for its
// whole projection: the same rows as in one piece.
import { describe, expect, it } from 'vitest';
import { parseStrictJson } from '../../src/core/json.js';
import { projectDatasetInSlices, type LoadedSource } from '../../src/data/project.js';
import type { RowTable } from '../../src/data/row-table.js';
import type { Retrieval } from '../../src/data/retrieval.js';
import { atlasDoc } from './documents.js';
import { inputFor } from './support.js';

function loaded(document: unknown, ok = true): LoadedSource {
  const retrieval = {
    retrievalId: 'r1', seq: 1, mode: 'live', sourceKey: 'money-market', sourceUrl: 'https://source.test/doc', startedAtUs: 0,
    retrievedAtUs: 1_763_553_600_000_000, ok, resolvedUrl: null, bytes: 1, contentSha256: ok ? 'a'.repeat(64) : null, error: ok ? null : 'http_status: 500',
  } as unknown as Retrieval;
  return { key: 'money-market', retrieval, document: ok ? document : undefined, reported: ok ? inputFor('money_market_history', document).reported : null };
}

const rowsOf = (table: RowTable) => Array.from({ length: table.length }, (_, i) => table.row(i));

function history(markets: number, points: number): unknown {
  const day = (i: number) => new Date(Date.UTC(2020, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);
  const doc = atlasDoc(Array.from({ length: markets }, (_, m) => ({
    id: `M${m}`, value: m + 0.5, history: Array.from({ length: points }, (_, i) => [day(i), m + i / 1000] as [string, number]),
  })));
  return parseStrictJson(JSON.stringify(doc));
}

describe('projecting a dataset in slices', () => {
  it('gives exactly the rows of one piece, placeholders included', async () => {
    // A slice larger than any table: the whole projection without a turn of the loop.
    const whole = async (sources: LoadedSource[]) => rowsOf(await projectDatasetInSlices('money_market_history', sources, Infinity));
    for (const sources of [[loaded(history(7, 300))], [loaded(null, false)], [loaded({ schema: 'something else' })]]) {
      expect(rowsOf(await projectDatasetInSlices('money_market_history', sources, 64))).toEqual(await whole(sources));
    }
    expect(await whole([loaded(history(7, 300))])).toHaveLength(2100);
  });

  it('lets other work run between slices of a long history', async () => {
    let turns = 0;
    let running = true;
    const tick = () => {
      turns++;
      if (running) setImmediate(tick);
    };
    setImmediate(tick);
    const rows = await projectDatasetInSlices('money_market_history', [loaded(history(10, 2000))], 4096);
    running = false;
    expect(rows).toHaveLength(20_000);
    // 20,000 rows in slices of 4,096: the loop turned at least once per slice.
    expect(turns).toBeGreaterThanOrEqual(4);
  });
});
