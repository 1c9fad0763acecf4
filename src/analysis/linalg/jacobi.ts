// Cyclic Jacobi eigen-decomposition for small real symmetric matrices, following the
// NoiseFloor procedure step by step (scaling, thresholds, rotation and update order,
// stable descending sort) so that results match the Python service to the last bit
// wherever the inputs do.
import { hypotOne } from '../numeric/hypot.js';

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

export const JACOBI_MAX_SWEEPS = 50;
export const JACOBI_TOLERANCE = 1e-14;
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
  const v = new Float64Array(size * size);
  for (let i = 0; i < size; i++) v[i * size + i] = 1;

  let converged = false;
  for (let sweep = 0; sweep < JACOBI_MAX_SWEEPS; sweep++) {
    let off = 0;
    for (let i = 1; i < size; i++) {
      for (let j = 0; j < i; j++) {
        const m = Math.abs(a[i * size + j]);
        if (m > off) off = m;
      }
    }
    if (off <= JACOBI_TOLERANCE) {
      converged = true;
      break;
    }
    for (let p = 0; p < size - 1; p++) {
      const pRow = p * size;
      for (let q = p + 1; q < size; q++) {
        const qRow = q * size;
        const apq = a[pRow + q];
        if (!(Math.abs(apq) > JACOBI_TOLERANCE)) continue;
        const app = a[pRow + p];
        const aqq = a[qRow + q];
        const tau = (aqq - app) / (2 * apq);
        // sign(0) counts as +1; -0 compares >= 0 and is treated the same way.
        const t = (tau >= 0 ? 1 : -1) / (Math.abs(tau) + hypotOne(tau));
        const c = 1 / Math.sqrt(1 + t * t);
        const s = t * c;
        a[pRow + p] = app - t * apq;
        a[qRow + q] = aqq + t * apq;
        a[pRow + q] = 0;
        a[qRow + p] = 0;
        // One pass over k updates both the matrix (off the p/q entries, mirrored) and V.
        for (let k = 0, kRow = 0; k < size; k++, kRow += size) {
          if (k !== p && k !== q) {
            const akp = a[kRow + p];
            const akq = a[kRow + q];
            const np = c * akp - s * akq;
            const nq = s * akp + c * akq;
            a[kRow + p] = np;
            a[pRow + k] = np;
            a[kRow + q] = nq;
            a[qRow + k] = nq;
          }
          const vkp = v[kRow + p];
          const vkq = v[kRow + q];
          v[kRow + p] = c * vkp - s * vkq;
          v[kRow + q] = s * vkp + c * vkq;
        }
      }
    }
  }
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
    for (let k = 0; k < size; k++) vec[k] = v[k * size + col];
    vectors[r] = vec;
  }
  return { values, vectors };
}
