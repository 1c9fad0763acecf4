// The OpenBB Workspace backend manifests (README §9): widgets.json with one table widget per
// dataset, and apps.json laying them out as one app. Workspace reads them from the backend
// base URL (/openbb); each widget's `endpoint` is relative to it and its params travel as
// query parameters, so a widget is simply /api/v1/query for one dataset. Column definitions
// come from the EvidenceRow schema, so the table and the API can never disagree.
import { type Static } from 'typebox';
import { appsSchema, headerNameOf, OPENBB_GRID_WIDTH, stackedTab, tableWidgetSchema, widgetsSchema, type OpenBBParam } from '../core/openbb.js';
import { DEFAULT_LIMIT, MAXIMUM_LIMIT } from './constants.js';
import { DATASETS, type DatasetSpec } from './datasets.js';
import { rowColumns, type ColumnInfo } from './row-schema.js';

export const WidgetSchema = tableWidgetSchema('results', { title: 'OpenBBWidget', base: '/openbb' });

export const WidgetsSchema = widgetsSchema(WidgetSchema, {
  idPattern: '^evidence_[a-z_]+$',
  title: 'OpenBBWidgets',
  description: 'OpenBB Workspace widgets.json: one table widget per dataset, keyed by widget id.',
});
export type Widgets = Static<typeof WidgetsSchema>;

export const AppsSchema = appsSchema({ title: 'OpenBBApps', description: 'OpenBB Workspace apps.json: one app laying the dataset widgets out in tabs.' });
export type Apps = Static<typeof AppsSchema>;

const GRID = { w: OPENBB_GRID_WIDTH, h: 12 } as const;
const DATE_COLUMNS = new Set(['as_of']);

export function widgetId(dataset: string): string {
  return `evidence_${dataset}`;
}

function columnDef(c: ColumnInfo) {
  return {
    field: c.name,
    headerName: headerNameOf(c.name),
    cellDataType: c.type === 'number' ? 'number' as const : DATE_COLUMNS.has(c.name) ? 'date' as const : 'text' as const,
    headerTooltip: c.description,
  };
}

function widget(spec: DatasetSpec, columns: ColumnInfo[]) {
  const dated = spec.id !== 'china_economy' && spec.id !== 'source_health';
  const params: OpenBBParam[] = [
    { paramName: 'dataset', type: 'text', value: spec.id, label: 'Dataset', description: 'The dataset this widget shows.', show: false, options: [] },
    { paramName: 'entity', type: 'text', value: '', label: 'Entity', description: 'Case-insensitive part of the entity id or name (empty: every entity).', show: true, options: [] },
  ];
  if (dated) {
    params.push(
      { paramName: 'start_date', type: 'date', value: null, label: 'Start date', description: 'First observation date to keep (rows without a date are dropped when set).', show: true, options: [] },
      { paramName: 'end_date', type: 'date', value: null, label: 'End date', description: 'Last observation date to keep.', show: true, options: [] },
    );
  }
  params.push({ paramName: 'limit', type: 'number', value: DEFAULT_LIMIT, label: 'Rows', description: `Rows per request, at most ${MAXIMUM_LIMIT}.`, show: false, options: [] });
  return {
    name: spec.name,
    description: `${spec.description} Every value cites source_url and the JSON pointer source_field; null means missing, withheld or restricted, never zero.`,
    category: 'Evidence Desk',
    subCategory: spec.id === 'source_health' ? 'Sources' : 'Datasets',
    endpoint: 'api/v1/query',
    type: 'table' as const,
    gridData: { ...GRID },
    params,
    data: { dataKey: 'results' as const, table: { showAll: true, columnsDefs: columns.map(columnDef) } },
  };
}

export function openbbWidgets(): Widgets {
  const columns = rowColumns();
  const widgets: Widgets = {};
  for (const spec of DATASETS) widgets[widgetId(spec.id)] = widget(spec, columns);
  return widgets;
}

/** One app: the market datasets on the first tab, coverage and sources on the second. */
export function openbbApps(): Apps {
  const tab = (id: string, name: string, datasets: readonly string[]) => stackedTab(id, name, datasets.map(widgetId), GRID.h);
  return [{
    name: 'Evidence Desk',
    description: 'Provenance-preserving research tables: every value with its source document, pointer, observation date and rights label.',
    img: '',
    allowCustomization: true,
    tabs: {
      markets: tab('markets', 'Markets', ['money_markets', 'money_market_history', 'capital_markets', 'market_liquidity']),
      institutions: tab('institutions', 'Banks', ['bank_risk']),
      coverage: tab('coverage', 'Coverage and sources', ['china_economy', 'source_health']),
    },
    groups: [],
  }];
}
