// Body of GET /v1/funding/changes (`financial-evidence.funding-changes.v1`).
import { Type, type Static } from 'typebox';
import { closed, IsoDate, MetricIdSchema, PacketId, SampleFlag, Str, oneOf } from './common.js';

export const ChangeSideSchema = closed({
  observation_date: IsoDate,
  source: Str,
  unit: oneOf(['%', '$B'] as const),
  value: Type.Number(),
  value_state: Str,
});

export const ChangeSchema = closed({
  metric_id: MetricIdSchema,
  kind: oneOf(['new_observation_date', 'same_date_observation_changed'] as const),
  before: ChangeSideSchema,
  after: ChangeSideSchema,
});

export const FundingChangesResponse = closed(
  {
    schema: Type.Literal('financial-evidence.funding-changes.v1'),
    before: PacketId,
    after: PacketId,
    changes: Type.Array(ChangeSchema),
    packet_id: PacketId,
    ready: Type.Literal(true),
    review_asof: IsoDate,
    scope: Type.Literal('captured_differences_not_confirmed_publisher_revision_events'),
    sample: SampleFlag,
  },
  'Metric-by-metric differences from the since packet to the current one.',
);

export type FundingChanges = Static<typeof FundingChangesResponse>;
export type Change = Static<typeof ChangeSchema>;
export type ChangeSide = Static<typeof ChangeSideSchema>;
