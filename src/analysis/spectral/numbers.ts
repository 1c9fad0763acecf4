// Number plumbing for spectral output: float-kind marking (so 1.0 prints as `1.0`) and
// the mapping of numeric failures to the analysis error codes.
import { AppError } from '../../core/errors.js';
import { markFloat } from '../../core/json.js';
import { AnalysisErrors } from '../errors.js';
import { FsumInvalidError, FsumOverflowError } from '../numeric/fsum.js';
import { NonFiniteStatisticError } from '../numeric/round15.js';
import { JacobiError } from '../linalg/jacobi.js';

/** A plain array of floats; integral entries are marked so they print as floats. */
export function floatArray(values: ArrayLike<number>, start = 0, length = values.length - start): number[] {
  const out = new Array<number>(length);
  for (let i = 0; i < length; i++) {
    const v = values[start + i];
    out[i] = v;
    if (Number.isInteger(v)) markFloat(out, i);
  }
  return out;
}

/** Rows of a row-major n x n matrix as float arrays. */
export function floatMatrix(values: Float64Array, n: number): number[][] {
  const rows = new Array<number[]>(n);
  for (let i = 0; i < n; i++) rows[i] = floatArray(values, i * n, n);
  return rows;
}

/** Sets `target[key] = value` as a float-kind member. */
export function putFloat<T extends object>(target: T, key: string, value: number): void {
  (target as Record<string, unknown>)[key] = value;
  if (Number.isInteger(value)) markFloat(target, key);
}

export function overflowError(cause?: unknown): AppError {
  return new AppError(
    AnalysisErrors.derived_statistic_overflow,
    'a derived statistic overflowed the double range; rescale the input units',
    { cause },
  );
}

/** Runs `fn`, translating numeric library failures into client-facing AppErrors. */
export function withNumericErrors<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof FsumOverflowError || e instanceof FsumInvalidError || e instanceof NonFiniteStatisticError) {
      throw overflowError(e);
    }
    if (e instanceof JacobiError) {
      throw new AppError(AnalysisErrors.eigensolver_failed, `the symmetric eigensolver failed: ${e.message}`, { cause: e });
    }
    throw e;
  }
}
