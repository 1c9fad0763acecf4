// The OpenBB Workspace backend: widgets.json and apps.json under /openbb, each widget a
// working /api/v1/query call for its dataset, columns read from the row schema.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROW_COLUMNS } from '../../src/data/row-schema.js';
import { DATASET_IDS } from '../../src/data/dataset-ids.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';

interface Param { paramName: string; type: string; value: string | number | boolean | null; show: boolean }
interface Widget {
  name: string; description: string; endpoint: string; type: string; gridData: { w: number; h: number }; params: Param[];
  data: { dataKey: string; table: { columnsDefs: { field: string; cellDataType: string }[] } };
}

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp({ mode: 'sample' });
});
afterAll(async () => {
  await t.close();
});

describe('OpenBB Workspace manifests', () => {
  it('offers one table widget per dataset with the row columns and the documented params', async () => {
    const res = await t.app.inject({ url: '/openbb/widgets.json' });
    expect(res.statusCode).toBe(200);
    const widgets = res.json<Record<string, Widget>>();
    expect(Object.keys(widgets)).toEqual(DATASET_IDS.map((d) => `evidence_${d}`));
    for (const [id, w] of Object.entries(widgets)) {
      expect(w.type).toBe('table');
      expect(w.endpoint).toBe('api/v1/query');
      expect(w.gridData.w).toBeLessThanOrEqual(40);
      expect(w.data.dataKey).toBe('results');
      expect(w.data.table.columnsDefs.map((c) => c.field)).toEqual([...ROW_COLUMNS]);
      expect(w.data.table.columnsDefs.find((c) => c.field === 'value')?.cellDataType).toBe('number');
      expect(w.params.find((p) => p.paramName === 'dataset')).toMatchObject({ value: id.slice('evidence_'.length), show: false });
      expect(w.params.map((p) => p.paramName)).toContain('entity');
      expect(w.description.length).toBeGreaterThan(40);
    }
    expect(widgets.evidence_money_markets.params.map((p) => p.paramName)).toEqual(['dataset', 'entity', 'start_date', 'end_date', 'limit']);
  });

  it('each widget, called as Workspace calls it (base + endpoint + default params), answers rows', async () => {
    const widgets = (await t.app.inject({ url: '/openbb/widgets.json' })).json<Record<string, Widget>>();
    for (const w of Object.values(widgets)) {
      const query = new URLSearchParams();
      for (const p of w.params) if (p.value !== null && p.value !== '') query.set(p.paramName, String(p.value));
      const res = await t.app.inject({ url: `/openbb/${w.endpoint}?${query.toString()}`, headers: { origin: 'https://pro.openbb.co' } });
      expect(res.statusCode, w.name).toBe(200);
      expect(res.headers['access-control-allow-origin']).toBe('https://pro.openbb.co');
      expect(Array.isArray(res.json<{ results: unknown[] }>().results)).toBe(true);
    }
  });

  it('lays every widget out in one app, inside the 40-column grid', async () => {
    const res = await t.app.inject({ url: '/openbb/apps.json' });
    expect(res.statusCode).toBe(200);
    const apps = res.json<{ name: string; tabs: Record<string, { layout: { i: string; x: number; w: number }[] }> }[]>();
    expect(apps).toHaveLength(1);
    const placed = Object.values(apps[0].tabs).flatMap((tab) => tab.layout);
    expect(placed.map((l) => l.i).sort()).toEqual(DATASET_IDS.map((d) => `evidence_${d}`).sort());
    expect(placed.every((l) => l.x + l.w <= 40)).toBe(true);
    const again = await t.app.inject({ url: '/openbb/apps.json', headers: { 'if-none-match': String(res.headers.etag) } });
    expect(again.statusCode).toBe(304);
  });
});
