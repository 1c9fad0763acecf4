// Request body of POST /v1/spectral/assess (spectral_assessment).
import { integer, object, type StaticOf } from './build.js';
import { panelRequest } from './series.js';

export const MAX_SPECTRAL_WINDOWS = 8;
export const MAX_SPECTRAL_WINDOW_POINTS = 512;

export const SpectralPolicySchema = object({
  window_points: integer({ minimum: 20, maximum: MAX_SPECTRAL_WINDOW_POINTS, default: 60 }),
  step_points: integer({ minimum: 1, maximum: 512, default: 20 }),
  max_windows: integer({ minimum: 1, maximum: MAX_SPECTRAL_WINDOWS, default: 4 }),
});

export const SpectralRequestSchema = panelRequest(SpectralPolicySchema);

export type SpectralRequestInput = StaticOf<typeof SpectralRequestSchema>;
