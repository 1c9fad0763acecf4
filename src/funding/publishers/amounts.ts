// What an amount or rate a publisher prints can be. Each amount is written in a documented
// unit (H.4.1 and the DTS in millions of dollars, SOFR volume in billions, operation awards
// in dollars) and the publishers print whole units; a balance is never negative; and each
// series has lived within wide, known bounds for years. An amount breaking one of these is a
// changed unit or format (a decimal point where a thousands separator was, billions or
// thousands where millions were, dollars where millions were) or a field other than the one
// meant, so its date is rejected rather than published a thousand times off. The upstream
// caught these by cross-checking its reference desk, which does not exist here
// (docs/funding.md lists every bound and why).
import type { Decimal } from '../decimal.js';
import { compareDecimals, isIntegralDecimal, isNegativeDecimal, parseDecimalText } from '../decimal.js';

export interface AmountRule {
  /** The unit the amount is written in, for messages. */
  unit: string;
  /** Whether the publisher prints whole units only. */
  whole: boolean;
  /** The smallest and largest plausible amount (inclusive, in `unit`); zero is checked apart. */
  min: string;
  max: string;
  /** Whether zero is a real value (SOFR volume, operation awards) rather than an impossible one. */
  zero: boolean;
  /** What the bounds stand for, in words. */
  range: string;
  /** `min` and `max` as decimals, parsed once. */
  bounds: { min: Decimal; max: Decimal };
}

const decimal = (text: string): Decimal => parseDecimalText(text)!;
const amountRule = (r: Omit<AmountRule, 'bounds'>): AmountRule => ({ ...r, bounds: { min: decimal(r.min), max: decimal(r.max) } });

/** Reserve balances (H.4.1): above $1.4 trillion since 2011; $100 billion to $100 trillion accepted. */
export const RESERVES_RULE = amountRule({ unit: 'millions of dollars', whole: true, min: '100000', max: '100000000', zero: false, range: '$100 billion to $100 trillion' });
/** TGA opening balance (DTS): $5 billion to $1.9 trillion since 2008; $1 billion to $10 trillion accepted. */
export const TGA_RULE = amountRule({ unit: 'millions of dollars', whole: true, min: '1000', max: '10000000', zero: false, range: '$1 billion to $10 trillion' });
/** SOFR volume (billions, whole): $0.3–3.5 trillion a day since 2018; at most $100 trillion accepted. */
export const SOFR_VOLUME_RULE = amountRule({ unit: 'billions of dollars', whole: true, min: '0', max: '100000', zero: true, range: 'up to $100 trillion' });
/**
 * One operation's award (dollars): at most $10 trillion (ON RRP peaked at $2.55 trillion).
 * Bids are made in millions of dollars, so a nonzero award under $100,000 is an amount in
 * another unit (millions written where dollars belong); zero is a real value (no use).
 */
export const OPERATION_AWARD_RULE = amountRule({ unit: 'dollars', whole: true, min: '100000', max: '10000000000000', zero: true, range: '$100,000 to $10 trillion (or zero)' });

export interface AmountProblem {
  reason: 'document_negative_amount' | 'document_not_whole_units' | 'document_implausible_amount';
  /** Completes "<field> for <date> is <value>, …". */
  why: string;
}

export function amountProblem(value: Decimal, rule: AmountRule): AmountProblem | undefined {
  if (isNegativeDecimal(value)) return { reason: 'document_negative_amount', why: 'negative, which no such amount can be' };
  if (rule.whole && !isIntegralDecimal(value)) {
    return { reason: 'document_not_whole_units', why: `not a whole number of ${rule.unit}, as the publisher prints them: the unit or format has changed` };
  }
  if (value.units === 0n && rule.zero) return undefined;
  if (compareDecimals(value, rule.bounds.min) < 0 || compareDecimals(value, rule.bounds.max) > 0) {
    return { reason: 'document_implausible_amount', why: `outside ${rule.range} (${rule.min} to ${rule.max} ${rule.unit}): the unit has changed or another field was read` };
  }
  return undefined;
}

/**
 * Rates in percent (SOFR, its 99th percentile, EFFR, IORB): from -5 to 20. Money-market
 * rates have stayed within 0–10 % for decades (SOFR's 99th percentile touched 9 % in
 * September 2019); a value outside is basis points, a volume, or another field.
 */
export const RATE_MIN = -5;
export const RATE_MAX = 20;

const RATE_BOUNDS = { min: decimal(String(RATE_MIN)), max: decimal(String(RATE_MAX)) };

export function rateProblem(value: Decimal): string | undefined {
  if (compareDecimals(value, RATE_BOUNDS.min) < 0 || compareDecimals(value, RATE_BOUNDS.max) > 0) {
    return `outside ${RATE_MIN} to ${RATE_MAX} percent: not a rate in percent (basis points, or another field)`;
  }
  return undefined;
}
