// Caller-declared measurement coverage (sample sizes) over a series' contiguous tail.
// Reported only: nothing is reweighted or adjusted for it.
import { copyMember, rawIntegerOf } from '../../core/json.js';
import { type PyNumber, pyCompare, pyNumberOf } from '../numeric/py-number.js';
import type { MeasurementCoverage, SpectralObservation } from './types.js';

const hasOwnProperty = Object.prototype.hasOwnProperty;
const TWO_53 = 9007199254740992;

export function measurementCoverage(tail: readonly SpectralObservation[]): MeasurementCoverage {
  let keyed = false;
  let declared = 0;
  let minIndex = -1;
  let maxIndex = -1;
  // Only "more than one distinct size" is reported, so remembering the first size and
  // whether any other differs from it is enough (=== equates 0 and -0, as a Set does).
  let firstSize = 0;
  let variable = false;
  let min = 0;
  let max = 0;
  // Doubles compare sizes exactly unless an int token was too large for its double.
  let inexact = false;
  for (let i = 0; i < tail.length; i++) {
    const o = tail[i];
    // Reading the member first spares the own-property lookup wherever it holds a value
    // (observations are plain data objects: a member that reads as defined is their own).
    const size = o.sample_size;
    if (size === undefined && !hasOwnProperty.call(o, 'sample_size')) continue;
    keyed = true;
    if (size === null || size === undefined) continue;
    if (size >= TWO_53 && rawIntegerOf(o, 'sample_size') !== undefined) inexact = true;
    if (declared === 0) firstSize = size;
    else if (size !== firstSize) variable = true;
    declared++;
    // First occurrence wins on ties, like Python's min/max.
    if (minIndex < 0 || size < min) {
      minIndex = i;
      min = size;
    }
    if (maxIndex < 0 || size > max) {
      maxIndex = i;
      max = size;
    }
  }
  if (inexact) ({ variable, minIndex, maxIndex } = exactExtremes(tail));
  const coverage: MeasurementCoverage = {
    status: !keyed
      ? 'not_supplied'
      : declared !== tail.length
        ? 'incomplete'
        : variable
          ? 'variable'
          : 'constant_declared_count',
    declared_points: declared,
    tail_points: tail.length,
    minimum: null,
    maximum: null,
    sampling_adjustment_applied: false,
  };
  // Echo the declared sizes with the caller's number kind (100 stays 100, 100.0 stays 100.0).
  if (minIndex >= 0) copyMember(coverage, 'minimum', tail[minIndex], 'sample_size');
  if (maxIndex >= 0) copyMember(coverage, 'maximum', tail[maxIndex], 'sample_size');
  return coverage;
}

/**
 * Distinctness and first minimum/maximum over the exact values, as Python's `set`, `min`
 * and `max` see int tokens: 100000000000000000 and 100000000000000001 are two sizes even
 * though they share a double, and 1e17 (a float) equals the first of them.
 */
function exactExtremes(tail: readonly SpectralObservation[]): { variable: boolean; minIndex: number; maxIndex: number } {
  let first: PyNumber | null = null;
  let variable = false;
  let minIndex = -1;
  let maxIndex = -1;
  let min: PyNumber = 0;
  let max: PyNumber = 0;
  for (let i = 0; i < tail.length; i++) {
    const o = tail[i];
    if (o.sample_size === undefined || o.sample_size === null) continue;
    const size = pyNumberOf(o, 'sample_size');
    if (first === null) first = size;
    else if (pyCompare(size, first) !== 0) variable = true;
    if (minIndex < 0 || pyCompare(size, min) < 0) {
      minIndex = i;
      min = size;
    }
    if (maxIndex < 0 || pyCompare(size, max) > 0) {
      maxIndex = i;
      max = size;
    }
  }
  return { variable, minIndex, maxIndex };
}

/** Coverage states that ask the reader to review the declared sample sizes. */
export function coverageNeedsReview(coverage: MeasurementCoverage): boolean {
  return coverage.status === 'variable' || coverage.status === 'incomplete';
}
