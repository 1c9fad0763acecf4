// Result body of POST /v1/research/dyson (`noisefloor.dyson-reference.v1`), members in
// the order the body carries them.
import { Type, type Static } from 'typebox';
import { closed, False, Int, Num, Sha256, Str } from './results-common.js';

export const DysonParametersSchema = closed({ dimension: Int, steps: Int, dt: Num, seed: Int });

export const DysonPathEntrySchema = closed({ time: Num, eigenvalues: Type.Array(Num) });

export const DysonResponse = closed(
  {
    schema: Type.Literal('noisefloor.dyson-reference.v1'),
    status: Type.Literal('synthetic'),
    maturity: Type.Literal('research'),
    validity: Type.Literal('synthetic_reference'),
    guarantee: Type.Null(),
    parameters: DysonParametersSchema,
    beta: Type.Literal(1),
    path: Type.Array(DysonPathEntrySchema),
    initial_condition: Type.Literal('zero_matrix'),
    mean_reversion: False,
    normalization: Str,
    market_calibrated: False,
    is_covariance_model: False,
    execution_authority: False,
    request_sha256: Sha256,
    limits: Type.Array(Str),
  },
  'Seeded synthetic eigenvalue path; not market evidence.',
);

export type DysonResult = Static<typeof DysonResponse>;
export type DysonParameters = Static<typeof DysonParametersSchema>;
export type DysonPathEntry = Static<typeof DysonPathEntrySchema>;
