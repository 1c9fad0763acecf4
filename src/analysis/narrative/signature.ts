// The wording signature: two titles may only be grouped when they state the same numbers,
// the same negations, the same direction words and the same units. A changed figure, a
// denial or "raises" versus "cuts" therefore always keeps reports apart, however similar
// the rest of the wording is.
import { hashText, type TitleTokens, type TokenDictionary } from './tokens.js';

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

const NEG_BIT = 1;
const UP_BIT = 2;
const DOWN_BIT = 4;
const UNIT_BIT = 8;

const CLASS = new Map<string, number>();
for (const [words, bit] of [[NEGATION, NEG_BIT], [UP, UP_BIT], [DOWN, DOWN_BIT], [UNITS, UNIT_BIT]] as const) {
  for (const word of words) CLASS.set(word, (CLASS.get(word) ?? 0) | bit);
}

// Hashes of every listed word: a token whose hash is not here cannot be one of them, which
// spares a string lookup for each of the (possibly 100 000s of) distinct tokens.
const CLASS_HASHES = new Set([...CLASS.keys()].map(hashText));

/** Which signature word lists a token belongs to (bit set). */
export function tokenClass(token: string): number {
  return CLASS.get(token) ?? 0;
}

function sortedJoin(items: readonly string[]): string {
  // Any fixed total order makes the key canonical; it is never shown.
  return [...items].sort().join(' ');
}

function build(tokens: Iterable<string>, digitTokens: readonly string[], classOf: (token: string) => number): Signature {
  const negation: string[] = [];
  const units: string[] = [];
  let up = false;
  let down = false;
  for (const token of tokens) {
    const c = classOf(token);
    if (c === 0) continue;
    if ((c & NEG_BIT) !== 0) negation.push(token);
    if ((c & UNIT_BIT) !== 0) units.push(token);
    if ((c & UP_BIT) !== 0) up = true;
    if ((c & DOWN_BIT) !== 0) down = true;
  }
  const key = [
    sortedJoin(digitTokens),
    sortedJoin(negation),
    (up ? 'u' : '') + (down ? 'd' : ''),
    sortedJoin(units),
  ].join('|');
  return { digitTokens, negation, up, down, units, key };
}

export function signatureOf(title: TitleTokens): Signature {
  return build(title.tokens, title.digitTokens, tokenClass);
}

/**
 * Signature keys for titles tokenised into one dictionary. Each distinct token is
 * classified once, and the key lists token ids instead of sorted token texts: within one
 * dictionary equal texts have equal ids, so the keys compare exactly like the signatures
 * (but are not comparable across dictionaries).
 */
export class SignatureBuilder {
  private readonly classes: number[] = [];

  constructor(private readonly dictionary: TokenDictionary) {}

  keyOf(ids: readonly number[]): string {
    const dictionary = this.dictionary;
    const classes = this.classes;
    for (let id = classes.length; id < dictionary.size; id++) {
      classes.push(CLASS_HASHES.has(dictionary.hashOf(id)) ? tokenClass(dictionary.texts[id]) : 0);
    }
    const digits: number[] = [];
    const negation: number[] = [];
    const units: number[] = [];
    let up = false;
    let down = false;
    for (const id of ids) {
      if (dictionary.hasDigit(id)) digits.push(id);
      const c = classes[id];
      if (c === 0) continue;
      if ((c & NEG_BIT) !== 0) negation.push(id);
      if ((c & UNIT_BIT) !== 0) units.push(id);
      if ((c & UP_BIT) !== 0) up = true;
      if ((c & DOWN_BIT) !== 0) down = true;
    }
    const byId = (a: number, b: number): number => a - b;
    return `${digits.sort(byId).join(',')}|${negation.sort(byId).join(',')}|${up ? 'u' : ''}${down ? 'd' : ''}|${units.sort(byId).join(',')}`;
  }
}
