// Title tokens: every match, left to right, of "a number, or else a run of word
// characters", kept as a set. A hand-written scanner rather than a RegExp so that the word
// and digit classes are the reference's (Unicode 14.0, see text.ts), not the engine's.
//
// The scanner reproduces the leftmost-first regex
//   (?:(?<!\w)[+-])?\d+(?:[.,]\d+)*%?  |  \w+
// at each position: the number alternative wins when it can match; its sign is taken only
// when the character before the sign is not a word character; the digit runs and the
// `[.,]digits` groups are greedy and nothing after them can force backtracking.
import { codePointAt, codePointBefore, isDigitCodePoint, isWordCodePoint, normaliseTitle } from './text.js';

export interface TitleTokens {
  /** Distinct tokens in order of first appearance. */
  readonly tokens: readonly string[];
  /** The tokens that contain at least one `\d` character (order of first appearance). */
  readonly digitTokens: readonly string[];
}

const PLUS = 0x2b;
const MINUS = 0x2d;
const COMMA = 0x2c;
const DOT = 0x2e;
const PERCENT = 0x25;

function width(cp: number): number {
  return cp > 0xffff ? 2 : 1;
}

function skipDigits(s: string, i: number): number {
  while (i < s.length) {
    const cp = codePointAt(s, i);
    if (!isDigitCodePoint(cp)) break;
    i += width(cp);
  }
  return i;
}

function digitAt(s: string, i: number): boolean {
  return i < s.length && isDigitCodePoint(codePointAt(s, i));
}

/** Tokenises an already normalised title (see `normaliseTitle`). */
export function tokenize(text: string): TitleTokens {
  const seen = new Set<string>();
  const digitTokens: string[] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    const cp = codePointAt(text, i);
    let digitsFrom = -1;
    if (cp === PLUS || cp === MINUS) {
      if ((i === 0 || !isWordCodePoint(codePointBefore(text, i))) && digitAt(text, i + 1)) digitsFrom = i + 1;
    } else if (isDigitCodePoint(cp)) {
      digitsFrom = i;
    }
    if (digitsFrom !== -1) {
      let j = skipDigits(text, digitsFrom);
      for (;;) {
        const sep = j < n ? text.charCodeAt(j) : -1;
        if ((sep === DOT || sep === COMMA) && digitAt(text, j + 1)) j = skipDigits(text, j + 1);
        else break;
      }
      if (j < n && text.charCodeAt(j) === PERCENT) j++;
      const token = text.slice(i, j);
      if (!seen.has(token)) {
        seen.add(token);
        digitTokens.push(token);
      }
      i = j;
      continue;
    }
    if (isWordCodePoint(cp)) {
      let j = i;
      let hasDigit = false;
      while (j < n) {
        const c = codePointAt(text, j);
        if (!isWordCodePoint(c)) break;
        if (!hasDigit && isDigitCodePoint(c)) hasDigit = true;
        j += width(c);
      }
      const token = text.slice(i, j);
      if (!seen.has(token)) {
        seen.add(token);
        if (hasDigit) digitTokens.push(token);
      }
      i = j;
      continue;
    }
    i += width(cp);
  }
  return { tokens: [...seen], digitTokens };
}

/** Normalises and tokenises a raw title. */
export function titleTokens(title: string): TitleTokens {
  return tokenize(normaliseTitle(title));
}
