// The rotation sweeps of the cyclic Jacobi method (see jacobi.ts), in two storage layouts
// that produce the same numbers bit for bit on exactly symmetric input.
import { hypotOne } from '../numeric/hypot.js';

export const JACOBI_MAX_SWEEPS = 50;
export const JACOBI_TOLERANCE = 1e-14;

/** Every mirrored pair is the same double (signed zeros included). */
export function exactlySymmetric(a: Float64Array, n: number): boolean {
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < i; j++) if (!Object.is(a[i * n + j], a[j * n + i])) return false;
  }
  return true;
}

/**
 * Rotation parameters for the pivot (p, q), written to `rotation` as [t, c, s]: the
 * NoiseFloor formulas, shared by both layouts so they cannot drift apart.
 */
function rotate(app: number, aqq: number, apq: number, rotation: Float64Array): void {
  const tau = (aqq - app) / (2 * apq);
  // copysign(1, tau), as the reference takes it: the sign bit decides, so tau = -0 (equal
  // diagonal entries and a negative pivot, e.g. the first pivot of a correlation matrix
  // whose first pair is negatively correlated) rotates by t = -1, and +0 by t = +1.
  const t = (tau > 0 || Object.is(tau, 0) ? 1 : -1) / (Math.abs(tau) + hypotOne(tau));
  const c = 1 / Math.sqrt(1 + t * t);
  rotation[0] = t;
  rotation[1] = c;
  rotation[2] = t * c;
}

const rotation = new Float64Array(3);

/**
 * Sweeps over the full row-major matrix `a` and V (`v[k*n + j]` is row k of V), keeping
 * both triangles of `a`. Returns whether the off-diagonal part fell below tolerance.
 */
export function sweepsFull(a: Float64Array, v: Float64Array, size: number): boolean {
  for (let sweep = 0; sweep < JACOBI_MAX_SWEEPS; sweep++) {
    let off = 0;
    for (let i = 1; i < size; i++) {
      for (let j = 0; j < i; j++) {
        const m = Math.abs(a[i * size + j]);
        if (m > off) off = m;
      }
    }
    if (off <= JACOBI_TOLERANCE) return true;
    for (let p = 0; p < size - 1; p++) {
      const pRow = p * size;
      for (let q = p + 1; q < size; q++) {
        const qRow = q * size;
        const apq = a[pRow + q];
        if (!(Math.abs(apq) > JACOBI_TOLERANCE)) continue;
        const app = a[pRow + p];
        const aqq = a[qRow + q];
        rotate(app, aqq, apq, rotation);
        const t = rotation[0];
        const c = rotation[1];
        const s = rotation[2];
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
  return false;
}

/**
 * The same sweeps for exactly symmetric `a`, keeping only the diagonal and the upper
 * triangle (entry (i, j), i < j, at i*n + j; the lower triangle goes stale) and V
 * transposed (`vt[j*n + k]` is component k of vector j), so that rows p and q are
 * contiguous. Each entry is updated from the same two operands as in `sweepsFull`.
 */
export function sweepsUpper(a: Float64Array, vt: Float64Array, n: number): boolean {
  for (let sweep = 0; sweep < JACOBI_MAX_SWEEPS; sweep++) {
    // The largest off-diagonal magnitude, from the triangle whose mirror `sweepsFull` reads.
    let off = 0;
    for (let i = 0; i < n - 1; i++) {
      const row = i * n;
      for (let j = i + 1; j < n; j++) {
        const m = Math.abs(a[row + j]);
        if (m > off) off = m;
      }
    }
    if (off <= JACOBI_TOLERANCE) return true;
    for (let p = 0; p < n - 1; p++) {
      const pRow = p * n;
      for (let q = p + 1; q < n; q++) {
        const qRow = q * n;
        const apq = a[pRow + q];
        if (!(Math.abs(apq) > JACOBI_TOLERANCE)) continue;
        const app = a[pRow + p];
        const aqq = a[qRow + q];
        rotate(app, aqq, apq, rotation);
        const t = rotation[0];
        const c = rotation[1];
        const s = rotation[2];
        a[pRow + p] = app - t * apq;
        a[qRow + q] = aqq + t * apq;
        a[pRow + q] = 0;
        // (k, p) and (k, q) for k < p: both in column form above the diagonal.
        for (let kRow = 0; kRow < pRow; kRow += n) {
          const akp = a[kRow + p];
          const akq = a[kRow + q];
          a[kRow + p] = c * akp - s * akq;
          a[kRow + q] = s * akp + c * akq;
        }
        // p < k < q: (p, k) along row p, (k, q) down column q.
        for (let k = p + 1, kRow = pRow + n; k < q; k++, kRow += n) {
          const akp = a[pRow + k];
          const akq = a[kRow + q];
          a[pRow + k] = c * akp - s * akq;
          a[kRow + q] = s * akp + c * akq;
        }
        // k > q: rows p and q.
        for (let k = q + 1; k < n; k++) {
          const akp = a[pRow + k];
          const akq = a[qRow + k];
          a[pRow + k] = c * akp - s * akq;
          a[qRow + k] = s * akp + c * akq;
        }
        for (let k = 0; k < n; k++) {
          const vkp = vt[pRow + k];
          const vkq = vt[qRow + k];
          vt[pRow + k] = c * vkp - s * vkq;
          vt[qRow + k] = s * vkp + c * vkq;
        }
      }
    }
  }
  return false;
}
