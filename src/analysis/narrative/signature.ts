// The wording signature: two titles may only be grouped when they state the same numbers,
// the same negations, the same direction words and the same units. A changed figure, a
// denial or "raises" versus "cuts" therefore always keeps reports apart, however similar
// the rest of the wording is.
import type { TitleTokens } from './tokens.js';

export const NEGATION: ReadonlySet<string> = new Set([
  'no', 'not', 'never', 'denies', 'denied', 'without', 'false', 'unconfirmed',
]);

export const UP: ReadonlySet<string> = new Set([
  'up', 'rise', 'rises', 'rising', 'rose', 'raise', 'raises', 'raised', 'increase', 'increases',
  'increased', 'gain', 'gains', 'upgrade', 'upgrades',
]);

export const DOWN: ReadonlySet<string> = new Set([
  'down', 'fall', 'falls', 'falling', 'fell', 'cut', 'cuts', 'decrease', 'decreases', 'decreased',
  'loss', 'losses', 'downgrade', 'downgrades',
]);

export const UNITS: ReadonlySet<string> = new Set([
  'thousand', 'thousands', 'million', 'millions', 'billion', 'billions', 'trillion', 'trillions',
  'lakh', 'lakhs', 'crore', 'crores', 'percent', 'percentage', 'bps', 'bp', 'points', 'usd', 'eur',
  'inr', 'gbp',
]);

export interface Signature {
  readonly digitTokens: readonly string[];
  readonly negation: readonly string[];
  readonly up: boolean;
  readonly down: boolean;
  readonly units: readonly string[];
  /**
   * A canonical string equal for two titles exactly when their signatures are equal.
   * Tokens never contain a space or `|` (neither is a word character, digit, sign,
   * separator or `%`), so joining sorted sets with them is unambiguous.
   */
  readonly key: string;
}

function sortedJoin(items: readonly string[]): string {
  // Any fixed total order makes the key canonical; it is never shown.
  return [...items].sort().join(' ');
}

export function signatureOf(title: TitleTokens): Signature {
  const negation: string[] = [];
  const units: string[] = [];
  let up = false;
  let down = false;
  for (const token of title.tokens) {
    if (NEGATION.has(token)) negation.push(token);
    if (UNITS.has(token)) units.push(token);
    if (UP.has(token)) up = true;
    if (DOWN.has(token)) down = true;
  }
  const key = [
    sortedJoin(title.digitTokens),
    sortedJoin(negation),
    (up ? 'u' : '') + (down ? 'd' : ''),
    sortedJoin(units),
  ].join('|');
  return { digitTokens: title.digitTokens, negation, up, down, units, key };
}
