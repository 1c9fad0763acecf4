// What an amount published in millions of dollars can be. The H.4.1 and the Daily Treasury
// Statement print whole millions; balances are never negative; and no balance here reaches
// 100 trillion dollars. An amount breaking one of these is a changed unit or format (a
// decimal point where a thousands separator was, billions where millions were, dollars
// where millions were) or a column other than the one meant, so its date is rejected rather
// than published a thousand or a million times off. The upstream caught these by
// cross-checking a reference desk, which does not exist here (docs/funding.md).
import type { Decimal } from '../decimal.js';
import { isIntegralDecimal, isNegativeDecimal } from '../decimal.js';

/** The largest balance accepted, in millions of dollars (100 trillion dollars). */
export const MAX_BALANCE_MILLIONS = 100_000_000n;

export interface AmountProblem {
  reason: 'document_negative_amount' | 'document_not_whole_millions' | 'document_implausible_amount';
  /** Completes "<field> for <date> is <value>, …". */
  why: string;
}

export function millionsProblem(value: Decimal): AmountProblem | undefined {
  if (isNegativeDecimal(value)) return { reason: 'document_negative_amount', why: 'negative, which no balance can be' };
  if (!isIntegralDecimal(value)) {
    return { reason: 'document_not_whole_millions', why: 'not a whole number of millions of dollars, as the publisher prints them: the unit or format has changed' };
  }
  if (value.units > MAX_BALANCE_MILLIONS * 10n ** BigInt(value.scale)) {
    return { reason: 'document_implausible_amount', why: `more than ${MAX_BALANCE_MILLIONS} millions of dollars: the amount is not in millions` };
  }
  return undefined;
}
