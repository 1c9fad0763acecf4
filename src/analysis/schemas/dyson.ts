// Request body of POST /v1/research/dyson (dyson_reference). Every member is optional.
import { integer, number, object, type StaticOf } from './build.js';

export const MAX_DYSON_DIMENSION = 16;
export const MAX_DYSON_STEPS = 100;

export const DysonRequestSchema = object({
  dimension: integer({ minimum: 2, maximum: MAX_DYSON_DIMENSION, default: 6 }),
  steps: integer({ minimum: 1, maximum: MAX_DYSON_STEPS, default: 40 }),
  dt: number({ minimum: 1e-6, maximum: 1, default: 0.05 }),
  seed: integer({ minimum: 0, maximum: 4294967295, default: 0 }),
});

export type DysonRequestInput = StaticOf<typeof DysonRequestSchema>;
