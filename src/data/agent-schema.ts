// Bodies of GET /api/v1/agent-query and GET /api/v1/agent-review
// (`financial-evidence.agent-result.v1`): query results with a content revision, so an
// agent can ask again cheaply and cite exactly what it read.
import { Type } from 'typebox';
import type { TransportStatus } from './constants.js';
import { QueryResultSchema } from './schemas.js';
import type { QueryResult } from './service.js';

const Revision = Type.String({ pattern: '^[0-9a-f]{64}$', description: 'SHA-256 of the normalised request and the evidence without retrieval clocks and cache ages; pass it back as previous_revision.' });

const agentFields = {
  revision: Revision,
  change_status: Type.Union([Type.Literal('changed'), Type.Literal('unchanged')], {
    description: 'unchanged only when every source was retrieved and the revision equals previous_revision; then the rows are left out (suppressed_rows counts them).',
  }),
  freshness_status: Type.Literal('not_evaluated'),
  financial_authority: Type.Literal('none'),
  instructions: Type.String(),
};

const Suppressed = Type.Optional(Type.Integer({ minimum: 0, description: 'Present only when unchanged: how many rows were left out of results.' }));

const { schema: _tableSchema, sources: _sources, ...tableMembers } = QueryResultSchema.properties;

/** One section of agent-review: a query result without its sources. */
export const AgentSectionSchema = Type.Object({
  schema: Type.Literal('liquidity-lab.openbb-table.v1'),
  ...tableMembers,
  suppressed_rows: Suppressed,
}, { additionalProperties: false, $id: 'AgentSection', description: 'The first page of one dataset; its sources are listed once, at the top of the review.' });

export const AgentQueryResultSchema = Type.Object({
  schema: Type.Literal('financial-evidence.agent-result.v1'),
  ...tableMembers,
  sources: QueryResultSchema.properties.sources,
  ...agentFields,
  suppressed_rows: Suppressed,
}, { additionalProperties: false, $id: 'AgentQueryResult', description: 'One page of a dataset with a content revision.' });

export const AgentReviewResultSchema = Type.Object({
  sections: Type.Array(AgentSectionSchema, { minItems: 3, maxItems: 3, description: 'money_markets, bank_risk, market_liquidity, in this order.' }),
  transport_status: QueryResultSchema.properties.transport_status,
  status_semantics: Type.Literal('transport_only'),
  evidence_status: Type.Literal('not_evaluated'),
  carrier_verification: Type.Literal('not_performed'),
  absence_policy: Type.String(),
  sources: QueryResultSchema.properties.sources,
  snapshot_id: Type.String({
    pattern: '^[0-9a-f]{32},[0-9a-f]{32},[0-9a-f]{32}$',
    description: "The three sections' snapshot ids, in section order: pass it back as snapshot to read exactly this evidence again.",
  }),
  schema: Type.Literal('financial-evidence.agent-result.v1'),
  ...agentFields,
  sample: Type.Optional(Type.Literal(true, { description: 'Present (true) only in sample mode: made-up documents.' })),
}, { additionalProperties: false, $id: 'AgentReviewResult', description: 'Money markets, covered banks and market liquidity in one answer, with a content revision.' });

// The code's types follow the service's QueryResult (the schemas above describe the same bodies).
interface AgentMembers {
  revision: string;
  change_status: 'changed' | 'unchanged';
  freshness_status: 'not_evaluated';
  financial_authority: 'none';
  instructions: string;
}

interface Suppressible {
  suppressed_rows?: number;
}

export type AgentSection = Omit<QueryResult, 'sources'> & Suppressible;

export type AgentQueryResult = Omit<QueryResult, 'schema'> & { schema: 'financial-evidence.agent-result.v1' } & AgentMembers & Suppressible;

export interface AgentReviewResult extends AgentMembers {
  sections: AgentSection[];
  transport_status: TransportStatus;
  status_semantics: 'transport_only';
  evidence_status: 'not_evaluated';
  carrier_verification: 'not_performed';
  absence_policy: string;
  sources: QueryResult['sources'];
  snapshot_id: string;
  schema: 'financial-evidence.agent-result.v1';
  sample?: true;
}
