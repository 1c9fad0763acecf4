// dyson_reference: a seeded, synthetic real-symmetric matrix Brownian motion and the
// eigenvalue paths it produces (Dyson Brownian motion, beta = 1). Purely a reference for
// eigenvalue repulsion; nothing here is fitted to market data.
import { AppError } from '../core/errors.js';
import { copyMember, isFloatToken, markFloat, sha256OfDigestJson } from '../core/json.js';
import { AnalysisErrors } from './errors.js';
import { JacobiError, jacobiEigen } from './linalg/jacobi.js';
import { PyRandom } from './mt19937.js';
import type { DysonRequestInput } from './schemas/dyson.js';
import type { DysonParameters, DysonPathEntry, DysonResult } from './schemas/dyson-result.js';

// Request and result shapes, derived from the published schemas.
export type DysonRequest = DysonRequestInput;
export type { DysonParameters, DysonPathEntry, DysonResult };

export const DYSON_DEFAULTS: Readonly<DysonParameters> = Object.freeze({ dimension: 6, steps: 40, dt: 0.05, seed: 0 });

const NORMALIZATION = 'off_diagonal_variance=dt/N; diagonal_variance=2*dt/N';

const LIMITS: readonly string[] = [
  'This is a simulated eigenvalue-repulsion benchmark; it is not market data, a source of alpha or a risk forecast.',
  'The simulated matrix is real-symmetric Brownian noise: its eigenvalues may be negative and it is not a covariance matrix.',
  'Eigenvalues are sorted at each sampled time; the k-th value is not a persistent factor with an economic identity.',
  'Reusing the seed replays the run on the same runtime; it says nothing about calibration to real data.',
];

/** Defaults overlaid by the caller's members, each keeping its int/float token kind. */
export function applyDysonParameters(request: DysonRequest): DysonParameters {
  const params = { ...DYSON_DEFAULTS };
  for (const key of ['dimension', 'steps', 'dt', 'seed'] as const) {
    if (Object.prototype.hasOwnProperty.call(request, key) && request[key] !== undefined) {
      copyMember(params, key, request, key);
    }
  }
  return params;
}

function floatArray(values: ArrayLike<number>): number[] {
  const out = Array.from(values);
  for (let i = 0; i < out.length; i++) if (Number.isInteger(out[i])) markFloat(out, i);
  return out;
}

/**
 * Simulates the matrix path. Per step the increments are drawn row by row: the diagonal
 * entry (variance 2·dt/N) and then the entries left of it (variance dt/N, mirrored). The
 * Gaussian cache of the generator carries over between steps, as in CPython.
 */
export function dysonReference(request: DysonRequest): DysonResult {
  const parameters = applyDysonParameters(request);
  const { dimension: n, steps, dt, seed } = parameters;
  const intTimes = !isFloatToken(parameters, 'dt');
  const sigmaOff = Math.sqrt(dt / n);
  const sigmaDiag = Math.sqrt((2 * dt) / n);
  const rng = new PyRandom(seed);
  const matrix = new Float64Array(n * n);

  const first: DysonPathEntry = { time: 0, eigenvalues: floatArray(new Float64Array(n)) };
  markFloat(first, 'time');
  const path: DysonPathEntry[] = [first];
  for (let k = 1; k <= steps; k++) {
    for (let i = 0; i < n; i++) {
      matrix[i * n + i] += rng.gauss(0, sigmaDiag);
      for (let j = 0; j < i; j++) {
        const g = rng.gauss(0, sigmaOff);
        matrix[i * n + j] += g;
        matrix[j * n + i] += g;
      }
    }
    let values: number[];
    try {
      values = jacobiEigen(matrix, n).values;
    } catch (e) {
      if (e instanceof JacobiError) {
        throw new AppError(AnalysisErrors.eigensolver_failed, `the symmetric eigensolver failed: ${e.message}`, { cause: e });
      }
      throw e;
    }
    const entry: DysonPathEntry = { time: k * dt, eigenvalues: floatArray(values) };
    if (!intTimes) markFloat(entry, 'time');
    path.push(entry);
  }

  const digestInput: Record<string, unknown> = {};
  for (const key of ['dimension', 'steps', 'dt', 'seed'] as const) copyMember(digestInput, key, parameters, key);

  return {
    schema: 'noisefloor.dyson-reference.v1',
    status: 'synthetic',
    maturity: 'research',
    validity: 'synthetic_reference',
    guarantee: null,
    parameters,
    beta: 1,
    path,
    initial_condition: 'zero_matrix',
    mean_reversion: false,
    normalization: NORMALIZATION,
    market_calibrated: false,
    is_covariance_model: false,
    execution_authority: false,
    request_sha256: sha256OfDigestJson(digestInput),
    limits: [...LIMITS],
  };
}
