// Body of GET /v1/capabilities (`noisefloor.capabilities.v1`): the analysis group's
// discovery document, members in the order the body carries them.
import { Type, type Static } from 'typebox';
import { ANALYSIS_TOOL_NAMES } from '../tools/catalogue.js';
import { Bool, closed, Int, Num, Sha256, Str, oneOf } from './results-common.js';

/** The four operations with a REST route of their own (the reference's `rest` map). */
export const REST_TOOL_NAMES = ['dyson_reference', 'market_assessment', 'narrative_triage', 'spectral_assessment'] as const;
export type ToolName = (typeof REST_TOOL_NAMES)[number];

const ToolName = oneOf(REST_TOOL_NAMES);
const AnyToolName = oneOf(ANALYSIS_TOOL_NAMES);

const ToolDescriptor = closed({
  name: AnyToolName,
  description: Str,
  input_schema: Type.Object({}, { additionalProperties: true, description: 'The JSON schema the operation enforces on its request body.' }),
});

export const CapabilitiesResponse = closed(
  {
    schema_version: Type.Literal('noisefloor.capabilities.v1'),
    name: Type.Literal('noisefloor'),
    version: Str,
    implementation_sha256: Sha256,
    transports: Type.Array(oneOf(['cli', 'stdio', 'streamable-http', 'rest', 'mcp'] as const)),
    tools: Type.Array(ToolDescriptor),
    rest: Type.Record(Type.String(), ToolName, { description: 'REST path of each operation.' }),
    openapi: Str,
    limits: closed({
      max_body_bytes: Int,
      max_series: Int,
      max_observations_per_series: Int,
      max_events: Int,
      max_rpc_batch: Int,
      max_spectral_windows: Int,
      max_spectral_window_points: Int,
      max_dyson_dimension: Int,
      max_dyson_steps: Int,
      max_http_connections_per_process: Type.Null({
        description: 'The reference capped connections per process at 4; this service has no such cap (load shedding bounds concurrency), so the member is kept, null.',
      }),
    }),
    posture: closed({
      offline_computation: Bool,
      fetches_sources: Bool,
      executes_trades: Bool,
      persists_submitted_data: Bool,
      market_assessment: Str,
      narrative_triage: Str,
      spectral_assessment: Str,
      dyson_reference: Str,
    }),
    defaults: closed({
      dyson_reference: closed({ dimension: Int, steps: Int, dt: Num, seed: Int }),
      market_assessment: closed({ baseline_points: Int, recent_points: Int, move_threshold: Num, volatility_ratio: Num, coverage_drop_fraction: Num }),
      narrative_triage: closed({ max_age_seconds: Num, max_items: Int, similarity_threshold: Num }),
      spectral_assessment: closed({ window_points: Int, step_points: Int, max_windows: Int }),
    }),
  },
  'What this analysis service offers: operations with their input schemas, limits, defaults and posture.',
);

export type Capabilities = Static<typeof CapabilitiesResponse>;
