// The tools' finiteness guard. Every intermediate the reference checks is checked here in
// the same order, and anything else that could come out non-finite goes through it too, so a
// caller whose numbers outgrow double arithmetic gets a 422 naming the quantity, never a
// 500 or a result with no JSON spelling.
import { AppError } from '../../core/errors.js';
import { AnalysisErrors } from '../errors.js';

/** `v` when finite; otherwise a 422 `derived_statistic_overflow` pointing at `path`. */
export function fin(v: number, quantity: string, path: string): number {
  if (Number.isFinite(v)) return v;
  throw new AppError(
    AnalysisErrors.derived_statistic_overflow,
    `the ${quantity} is not a finite number for these inputs (the arithmetic overflows or divides by zero); rescale the values`,
    { path },
  );
}
