// Shapes of a spectral_assessment request and result, derived from the published schemas
// (request: src/analysis/schemas/spectral.ts, result: src/analysis/schemas/spectral-result.ts).
// The HTTP layer has already checked the request; these types describe valid input only.
import type { Static } from 'typebox';
import type { SpectralRequestInput } from '../schemas/spectral.js';
import type {
  AssessedWindowSchema,
  MarchenkoPasturReferenceSchema,
  SpectralAlignmentSchema,
  SpectralDynamicsSchema,
  SpectralMeasurementCoverage,
  SpectralPolicyResult,
  SpectralSeriesRecordSchema,
  SpectralStatusSchema,
  SpectralTransformSchema,
  UnresolvedWindowSchema,
} from '../schemas/spectral-result.js';

export type SpectralRequest = SpectralRequestInput;
export type SpectralSeries = SpectralRequest['series'][number];
export type SpectralObservation = SpectralSeries['observations'][number];
export type SpectralSeriesKind = SpectralSeries['kind'];

export type SpectralPolicy = Static<typeof SpectralPolicyResult>;
export type SpectralTransform = Static<typeof SpectralTransformSchema>;
export type MeasurementCoverage = Static<typeof SpectralMeasurementCoverage>;
export type CoverageStatus = MeasurementCoverage['status'];
export type SpectralSeriesRecord = Static<typeof SpectralSeriesRecordSchema>;
export type MarchenkoPasturReference = Static<typeof MarchenkoPasturReferenceSchema>;
export type UnresolvedWindow = Static<typeof UnresolvedWindowSchema>;
export type AssessedWindow = Static<typeof AssessedWindowSchema>;
export type SpectralWindow = AssessedWindow | UnresolvedWindow;
export type SpectralDynamics = Static<typeof SpectralDynamicsSchema>;
export type SpectralAlignment = Static<typeof SpectralAlignmentSchema>;
export type SpectralStatus = Static<typeof SpectralStatusSchema>;
export type { SpectralResult } from '../schemas/spectral-result.js';
