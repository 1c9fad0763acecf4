// Group B as an OpenBB Workspace backend (upstream acceptance case 19): widgets.json and
// apps.json under /funding-evidence, the widget a working call of v1/funding/latest whose
// rows Workspace finds at `observations`, readable from the Workspace origin.
import { describe, expect, it } from 'vitest';
import { ObservationRowSchema } from '../../src/funding/schemas/common.js';
import { useFundingHarness } from '../funding/harness.js';

interface Widget {
  endpoint: string;
  type: string;
  gridData: { w: number; h: number };
  params: { paramName: string; value: unknown }[];
  data: { dataKey: string; table: { columnsDefs: { field: string; cellDataType: string; headerTooltip: string }[] } };
}
interface App { tabs: Record<string, { layout: { i: string; x: number; w: number }[] }> }

const WORKSPACE = 'https://pro.openbb.co';
const BASE = '/funding-evidence';

describe('funding evidence as an OpenBB Workspace backend', () => {
  const h = useFundingHarness({ mode: 'sample' });

  it('offers the current packet as one table widget over v1/funding/latest, its columns the packet row members', async () => {
    const res = await h.get(`${BASE}/widgets.json`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    const widgets = res.json<Record<string, Widget>>();
    expect(Object.keys(widgets)).toEqual(['funding_automation']);
    const widget = widgets.funding_automation;
    expect(widget).toMatchObject({ endpoint: 'v1/funding/latest', type: 'table', params: [], data: { dataKey: 'observations' } });
    expect(widget.gridData.w).toBeLessThanOrEqual(40);
    const columns = widget.data.table.columnsDefs;
    expect(columns.map((c) => c.field)).toEqual(Object.keys(ObservationRowSchema.properties));
    expect(columns.find((c) => c.field === 'value')?.cellDataType).toBe('number');
    expect(columns.find((c) => c.field === 'observation_date')?.cellDataType).toBe('date');
    expect(columns.every((c) => c.headerTooltip.length > 10)).toBe(true);
  });

  it('the widget, called as Workspace calls it (base + endpoint, from its origin), answers the nine rows with the allowed origin', async () => {
    await h.captured();
    const widget = (await h.get(`${BASE}/widgets.json`)).json<Record<string, Widget>>().funding_automation;
    const res = await h.get(`${BASE}/${widget.endpoint}`, { origin: WORKSPACE });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe(WORKSPACE);
    const rows = res.json<Record<string, Record<string, unknown>[]>>()[widget.data.dataKey];
    expect(rows).toHaveLength(9);
    for (const row of rows) expect(Object.keys(row).sort()).toEqual(widget.data.table.columnsDefs.map((c) => c.field).sort());
  });

  it('lays the widget out first in the first tab of one app, inside the 40-column grid', async () => {
    const res = await h.get(`${BASE}/apps.json`);
    expect(res.statusCode, res.body).toBe(200);
    const apps = res.json<App[]>();
    expect(apps).toHaveLength(1);
    const [first] = Object.values(apps[0].tabs);
    expect(first.layout[0].i).toBe('funding_automation');
    expect(Object.values(apps[0].tabs).flatMap((t) => t.layout).every((l) => l.x + l.w <= 40)).toBe(true);
  });

  it('lets the Workspace origin read the manifests and answers its preflight', async () => {
    for (const file of ['widgets.json', 'apps.json']) {
      const res = await h.get(`${BASE}/${file}`, { origin: WORKSPACE });
      expect(res.headers['access-control-allow-origin'], file).toBe(WORKSPACE);
      // Cacheable for an hour, so shared caches must key it by Origin.
      expect(res.headers['cache-control']).toBe('public, max-age=3600');
      expect(res.headers.vary).toBe('Origin');
      const preflight = await h.app.inject({ method: 'OPTIONS', url: `${BASE}/${file}`, headers: { origin: WORKSPACE, 'access-control-request-method': 'GET' } });
      expect(preflight.statusCode, file).toBe(204);
      const foreign = await h.get(`${BASE}/${file}`, { origin: 'https://elsewhere.example' });
      expect(foreign.statusCode).toBe(200);
      expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
    }
  });

  it('leaves /widgets.json and /apps.json at the root to group C', async () => {
    const widgets = (await h.get('/widgets.json')).json<Record<string, unknown>>();
    expect(Object.keys(widgets).every((id) => id.startsWith('evidence_'))).toBe(true);
    expect((await h.get('/openbb/widgets.json')).body).toBe((await h.get('/widgets.json')).body);
  });
});
