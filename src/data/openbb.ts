// The OpenBB Workspace backend manifests (README §9): widgets.json with one table widget per
// dataset, and apps.json laying them out as one app. Workspace reads them from the backend
// base URL (/openbb); each widget's `endpoint` is relative to it and its params travel as
// query parameters, so a widget is simply /api/v1/query for one dataset. Column definitions
// come from the EvidenceRow schema, so the table and the API can never disagree.
import { Type, type Static } from 'typebox';
import { DEFAULT_LIMIT, MAXIMUM_LIMIT } from './constants.js';
import { DATASETS, type DatasetSpec } from './datasets.js';
import { rowColumns, type ColumnInfo } from './row-schema.js';

const closed = { additionalProperties: false } as const;

const ParamSchema = Type.Object({
  paramName: Type.String(),
  type: Type.Union([Type.Literal('text'), Type.Literal('date'), Type.Literal('number'), Type.Literal('boolean'), Type.Literal('endpoint')]),
  value: Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]),
  label: Type.String(),
  description: Type.String(),
  show: Type.Boolean(),
  options: Type.Array(Type.Object({ label: Type.String(), value: Type.Union([Type.String(), Type.Number()]) }, closed)),
}, closed);
type Param = Static<typeof ParamSchema>;

const ColumnDefSchema = Type.Object({
  field: Type.String(),
  headerName: Type.String(),
  cellDataType: Type.Union([Type.Literal('text'), Type.Literal('number'), Type.Literal('date')]),
  headerTooltip: Type.String(),
}, closed);

export const WidgetSchema = Type.Object({
  name: Type.String(),
  description: Type.String(),
  category: Type.String(),
  subCategory: Type.String(),
  endpoint: Type.String({ description: 'Path relative to the backend base URL (/openbb).' }),
  type: Type.Literal('table'),
  gridData: Type.Object({ w: Type.Integer({ minimum: 1, maximum: 40 }), h: Type.Integer({ minimum: 1 }) }, closed),
  params: Type.Array(ParamSchema),
  data: Type.Object({
    dataKey: Type.Literal('results'),
    table: Type.Object({ showAll: Type.Boolean(), columnsDefs: Type.Array(ColumnDefSchema) }, closed),
  }, closed),
}, { ...closed, title: 'OpenBBWidget' });

export const WidgetsSchema = Type.Record(Type.String({ pattern: '^evidence_[a-z_]+$' }), WidgetSchema, {
  title: 'OpenBBWidgets',
  description: 'OpenBB Workspace widgets.json: one table widget per dataset, keyed by widget id.',
});
export type Widgets = Static<typeof WidgetsSchema>;

const LayoutItemSchema = Type.Object({ i: Type.String(), x: Type.Integer({ minimum: 0 }), y: Type.Integer({ minimum: 0 }), w: Type.Integer({ minimum: 1, maximum: 40 }), h: Type.Integer({ minimum: 1 }) }, closed);

export const AppsSchema = Type.Array(Type.Object({
  name: Type.String(),
  description: Type.String(),
  img: Type.String(),
  allowCustomization: Type.Boolean(),
  tabs: Type.Record(Type.String(), Type.Object({ id: Type.String(), name: Type.String(), layout: Type.Array(LayoutItemSchema) }, closed)),
  groups: Type.Array(Type.Unknown()),
}, closed), { title: 'OpenBBApps', description: 'OpenBB Workspace apps.json: one app laying the dataset widgets out in tabs.' });
export type Apps = Static<typeof AppsSchema>;

const GRID = { w: 40, h: 12 } as const;
const DATE_COLUMNS = new Set(['as_of']);

export function widgetId(dataset: string): string {
  return `evidence_${dataset}`;
}

function columnDef(c: ColumnInfo) {
  return {
    field: c.name,
    headerName: c.name.split('_').map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(' '),
    cellDataType: c.type === 'number' ? 'number' as const : DATE_COLUMNS.has(c.name) ? 'date' as const : 'text' as const,
    headerTooltip: c.description,
  };
}

function widget(spec: DatasetSpec, columns: ColumnInfo[]) {
  const dated = spec.id !== 'china_economy' && spec.id !== 'source_health';
  const params: Param[] = [
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
  const tab = (id: string, name: string, datasets: readonly string[]) => ({
    id,
    name,
    layout: datasets.map((d, n) => ({ i: widgetId(d), x: 0, y: n * GRID.h, w: GRID.w, h: GRID.h })),
  });
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
