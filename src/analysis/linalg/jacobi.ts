// Cyclic Jacobi eigen-decomposition for small real symmetric matrices, following the
// NoiseFloor procedure step by step (scaling, thresholds, rotation and update order,
// stable descending sort) so that results match the Python service to the last bit
// wherever the inputs do.
import { exactlySymmetric, sweepsFull, sweepsUpper } from './jacobi-sweeps.js';

export type JacobiFailure = 'not_square' | 'not_finite' | 'not_symmetric' | 'not_converged';

export class JacobiError extends Error {
  readonly reason: JacobiFailure;
  constructor(reason: JacobiFailure, message: string) {
    super(message);
    this.name = 'JacobiError';
    this.reason = reason;
  }
}

export interface EigenDecomposition {
  /** Eigenvalues, descending (ties keep their diagonal order). */
  values: number[];
  /** vectors[j] is the unit eigenvector for values[j] (column j of V). */
  vectors: number[][];
}

export { JACOBI_MAX_SWEEPS, JACOBI_TOLERANCE } from './jacobi-sweeps.js';
import { JACOBI_MAX_SWEEPS } from './jacobi-sweeps.js';
export const SYMMETRY_TOLERANCE = 1e-12;

/**
 * `matrix` is either an array of rows or a row-major Float64Array of n*n entries
 * (pass `n` for the latter). The input is not modified.
 */
export function jacobiEigen(matrix: ArrayLike<number>[] | Float64Array, n?: number): EigenDecomposition {
  const size = matrix instanceof Float64Array ? (n ?? Math.round(Math.sqrt(matrix.length))) : matrix.length;
  if (size < 1) throw new JacobiError('not_square', 'the matrix must have at least one row');
  const a = new Float64Array(size * size);
  if (matrix instanceof Float64Array) {
    if (matrix.length !== size * size) throw new JacobiError('not_square', 'the matrix must be square');
    a.set(matrix);
  } else {
    for (let i = 0; i < size; i++) {
      const row = matrix[i];
      if (row.length !== size) throw new JacobiError('not_square', 'the matrix must be square');
      for (let j = 0; j < size; j++) a[i * size + j] = row[j];
    }
  }
  let scale = 0;
  for (let i = 0; i < a.length; i++) {
    const m = Math.abs(a[i]);
    if (!Number.isFinite(m)) throw new JacobiError('not_finite', 'the matrix has a non-finite entry');
    if (m > scale) scale = m;
  }
  if (scale === 0) scale = 1;
  for (let i = 0; i < a.length; i++) a[i] /= scale;
  for (let i = 0; i < size; i++) {
    for (let j = 0; j < i; j++) {
      if (Math.abs(a[i * size + j] - a[j * size + i]) > SYMMETRY_TOLERANCE) {
        throw new JacobiError('not_symmetric', 'the matrix is not symmetric');
      }
    }
  }
  // Exactly symmetric input (every correlation matrix) keeps its mirror images equal
  // through every rotation, so one triangle and V^T, both walked along rows, carry the
  // same numbers as the full update; slightly asymmetric input takes the full update.
  const packed = exactlySymmetric(a, size);
  const v = new Float64Array(size * size);
  for (let i = 0; i < size; i++) v[i * size + i] = 1;
  const converged = packed ? sweepsUpper(a, v, size) : sweepsFull(a, v, size);
  if (!converged) {
    throw new JacobiError('not_converged', `no convergence within ${JACOBI_MAX_SWEEPS} sweeps`);
  }

  const order = Array.from({ length: size }, (_, i) => i);
  // Array.prototype.sort is stable, so equal diagonals keep their index order.
  order.sort((i, j) => a[j * size + j] - a[i * size + i]);
  const values = new Array<number>(size);
  const vectors = new Array<number[]>(size);
  for (let r = 0; r < size; r++) {
    const col = order[r];
    values[r] = a[col * size + col] * scale;
    const vec = new Array<number>(size);
    if (packed) for (let k = 0; k < size; k++) vec[k] = v[col * size + k];
    else for (let k = 0; k < size; k++) vec[k] = v[k * size + col];
    vectors[r] = vec;
  }
  return { values, vectors };
}
