// The OpenBB Workspace custom-backend manifests (spec README §9), as schemas shared by the
// groups that publish them: group B under /funding-evidence and group C under /openbb.
// Workspace reads widgets.json (one object keyed by widget id) and, optionally, apps.json
// from the backend base URL; a widget's `endpoint` is relative to that base and its params
// travel as query parameters. Only table widgets are published here.
import { Type, type Static, type TSchema } from 'typebox';

const closed = { additionalProperties: false } as const;

/** The grid Workspace lays widgets on: 40 units wide. */
export const OPENBB_GRID_WIDTH = 40;

export const OpenBBParamSchema = Type.Object({
  paramName: Type.String(),
  type: Type.Union([Type.Literal('text'), Type.Literal('date'), Type.Literal('number'), Type.Literal('boolean'), Type.Literal('endpoint')]),
  value: Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]),
  label: Type.String(),
  description: Type.String(),
  show: Type.Boolean(),
  options: Type.Array(Type.Object({ label: Type.String(), value: Type.Union([Type.String(), Type.Number()]) }, closed)),
}, closed);
export type OpenBBParam = Static<typeof OpenBBParamSchema>;

const ColumnDefSchema = Type.Object({
  field: Type.String(),
  headerName: Type.String(),
  cellDataType: Type.Union([Type.Literal('text'), Type.Literal('number'), Type.Literal('date')]),
  headerTooltip: Type.String(),
}, closed);
export type OpenBBColumnDef = Static<typeof ColumnDefSchema>;

/** A table widget whose rows Workspace finds at `dataKey` of the endpoint's JSON body. */
export function tableWidgetSchema<K extends string>(dataKey: K, options: { title: string; base: string }) {
  return Type.Object({
    name: Type.String(),
    description: Type.String(),
    category: Type.String(),
    subCategory: Type.String(),
    endpoint: Type.String({ description: `Path relative to the backend base URL (${options.base}).` }),
    type: Type.Literal('table'),
    gridData: Type.Object({ w: Type.Integer({ minimum: 1, maximum: OPENBB_GRID_WIDTH }), h: Type.Integer({ minimum: 1 }) }, closed),
    params: Type.Array(OpenBBParamSchema),
    data: Type.Object({
      dataKey: Type.Literal(dataKey),
      table: Type.Object({ showAll: Type.Boolean(), columnsDefs: Type.Array(ColumnDefSchema) }, closed),
    }, closed),
  }, { ...closed, title: options.title });
}

/** widgets.json: the widgets keyed by id. */
export function widgetsSchema<W extends TSchema>(widget: W, options: { idPattern: string; title: string; description: string }) {
  return Type.Record(Type.String({ pattern: options.idPattern }), widget, { title: options.title, description: options.description });
}

const LayoutItemSchema = Type.Object({
  i: Type.String(),
  x: Type.Integer({ minimum: 0 }),
  y: Type.Integer({ minimum: 0 }),
  w: Type.Integer({ minimum: 1, maximum: OPENBB_GRID_WIDTH }),
  h: Type.Integer({ minimum: 1 }),
}, closed);

/** apps.json: named apps, each laying widgets out in tabs. */
export function appsSchema(options: { title: string; description: string }) {
  return Type.Array(Type.Object({
    name: Type.String(),
    description: Type.String(),
    img: Type.String(),
    allowCustomization: Type.Boolean(),
    tabs: Type.Record(Type.String(), Type.Object({ id: Type.String(), name: Type.String(), layout: Type.Array(LayoutItemSchema) }, closed)),
    groups: Type.Array(Type.Unknown()),
  }, closed), options);
}

/** `observation_date` → `Observation Date`. */
export function headerNameOf(field: string): string {
  return field.split('_').map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(' ');
}

/** A tab placing `widgetIds` one under the other, each `height` units high and the grid's full width. */
export function stackedTab(id: string, name: string, widgetIds: readonly string[], height: number) {
  return { id, name, layout: widgetIds.map((i, n) => ({ i, x: 0, y: n * height, w: OPENBB_GRID_WIDTH, h: height })) };
}
