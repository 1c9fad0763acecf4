// Group B as an OpenBB Workspace backend (base URL /funding-evidence): one table widget
// over GET v1/funding/latest, whose nine packet rows Workspace reads at `observations`,
// and an app whose first tab shows it (the upstream's acceptance case 19). The columns are
// the packet row's fifteen members, in the row schema's order, so the table and the
// packet can never disagree.
import { type Static } from 'typebox';
import { appsSchema, headerNameOf, OPENBB_GRID_WIDTH, stackedTab, tableWidgetSchema, widgetsSchema, type OpenBBColumnDef } from '../core/openbb.js';
import { ObservationRowSchema, type ObservationRowDocument } from './schemas/common.js';

export const FundingWidgetSchema = tableWidgetSchema('observations', { title: 'FundingOpenBBWidget', base: '/funding-evidence' });

export const FundingWidgetsSchema = widgetsSchema(FundingWidgetSchema, {
  idPattern: '^funding_[a-z_]+$',
  title: 'FundingOpenBBWidgets',
  description: 'OpenBB Workspace widgets.json for the funding evidence: the current packet as one table widget.',
});
export type FundingWidgets = Static<typeof FundingWidgetsSchema>;

export const FundingAppsSchema = appsSchema({ title: 'FundingOpenBBApps', description: 'OpenBB Workspace apps.json: one app whose first tab shows the current packet.' });
export type FundingApps = Static<typeof FundingAppsSchema>;

/** The widget's id, and the first layout item of the app's first tab. */
export const FUNDING_WIDGET_ID = 'funding_automation';

const HEIGHT = 14;

type RowMember = keyof ObservationRowDocument;

/** Each column's tooltip; typed by the row, so a member added to the row needs one here. */
const TOOLTIPS: Record<RowMember, string> = {
  metric_id: 'Which of the nine funding measures this row is.',
  value: 'The value as the original publisher printed it, at full source precision.',
  unit: 'Percent (%) or billions of US dollars ($B).',
  observation_date: 'The business day the publisher says the value describes.',
  source: 'The original publisher and release the value was read from.',
  cadence: 'How often the publisher releases this measure: daily or weekly.',
  publisher_freshness: 'How the value was obtained: read directly from the publisher at capture.',
  value_state: 'Whether a value is present; packets hold only available values.',
  evaluated_at: 'When this service read and checked the value (UTC).',
  review_status: 'The outcome of the capture checks for this row.',
  review_asof: 'The common review date of the packet (SOFR and IORB horizon).',
  review_scope: 'Which horizon the review date is taken from.',
  latest_per_instrument: 'Always false: the packet is a joint review, not each measure\u2019s newest print.',
  canonical_latest_asof: 'The newest date the publisher had for this measure at capture.',
  newer_observation_available: 'True when the publisher had a newer value than the review date.',
};

const DATE_MEMBERS: ReadonlySet<RowMember> = new Set(['observation_date', 'review_asof', 'canonical_latest_asof']);

function columnDef(field: RowMember): OpenBBColumnDef {
  return {
    field,
    headerName: headerNameOf(field),
    cellDataType: field === 'value' ? 'number' : DATE_MEMBERS.has(field) ? 'date' : 'text',
    headerTooltip: TOOLTIPS[field],
  };
}

export function fundingWidgets(): FundingWidgets {
  const members = Object.keys(ObservationRowSchema.properties) as RowMember[];
  return {
    [FUNDING_WIDGET_ID]: {
      name: 'USD funding evidence: current packet',
      description:
        'The nine USD funding-market observations of the current verified packet (SOFR with its 99th percentile and volume, EFFR, IORB, reserves, ' +
        'the Treasury General Account, overnight reverse repo and the standing repo facility), ' +
        'each as its original publisher printed it, with its observation date and review status. ' +
        'The endpoint answers 503 instead of stale or unverified rows.',
      category: 'Evidence Desk',
      subCategory: 'Funding evidence',
      endpoint: 'v1/funding/latest',
      type: 'table',
      gridData: { w: OPENBB_GRID_WIDTH, h: HEIGHT },
      params: [],
      data: { dataKey: 'observations', table: { showAll: true, columnsDefs: members.map(columnDef) } },
    },
  };
}

export function fundingApps(): FundingApps {
  return [{
    name: 'Evidence Desk: funding evidence',
    description: 'The current hash-verified USD funding evidence packet, captured from the original publishers.',
    img: '',
    allowCustomization: true,
    tabs: { funding: stackedTab('funding', 'Funding evidence', [FUNDING_WIDGET_ID], HEIGHT) },
    groups: [],
  }];
}
