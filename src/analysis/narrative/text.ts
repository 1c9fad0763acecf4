// Python-compatible text handling for narrative titles: NFKC, `str.casefold()`, and the
// `re` Unicode classes `\w` / `\d`, all pinned to the reference's Unicode 14.0 data.
//
// Why not the engine's own Unicode support: CPython 3.11 ships Unicode 14.0 while Node's
// ICU is newer. `toLowerCase` is not case folding at all (ß stays ß), `\p{L}` and friends
// grow with every Unicode release, and `normalize('NFKC')` decomposes characters that
// Unicode 14 did not have yet. The tables in unicode14.generated.ts come from CPython
// itself (scripts/gen-narrative-unicode.py).
import { CASEFOLD, DIGIT_RANGES, UNASSIGNED_RANGES, WORD_RANGES } from './unicode14.generated.js';

const WORD = 1;
const DIGIT = 2;
const UNASSIGNED = 4;
const FOLDS = 8;

// One byte of flags per code point (1.1 MB): the title loops look every code point up,
// and a flat typed array is the cheapest lookup there is.
const FLAGS = new Uint8Array(0x110000);
const FOLD = new Map<number, string>();

function eachRange(spec: string, fn: (from: number, to: number) => void): void {
  for (const part of spec.split(',')) {
    const dash = part.indexOf('-');
    const from = parseInt(dash === -1 ? part : part.slice(0, dash), 16);
    const to = dash === -1 ? from : parseInt(part.slice(dash + 1), 16);
    fn(from, to);
  }
}

// The three range sets are disjoint except digits ⊂ word characters, so plain fills
// in this order give every code point its complete flag byte.
eachRange(UNASSIGNED_RANGES, (a, b) => FLAGS.fill(UNASSIGNED, a, b + 1));
eachRange(WORD_RANGES, (a, b) => FLAGS.fill(WORD, a, b + 1));
eachRange(DIGIT_RANGES, (a, b) => FLAGS.fill(WORD | DIGIT, a, b + 1));
for (const entry of CASEFOLD.split(',')) {
  const colon = entry.indexOf(':');
  const cp = parseInt(entry.slice(0, colon), 16);
  const target = String.fromCodePoint(...entry.slice(colon + 1).split(' ').map((h) => parseInt(h, 16)));
  FOLD.set(cp, target);
  FLAGS[cp] |= FOLDS;
}

/** The code point starting at UTF-16 index `i` (a lone surrogate is its own code point). */
export function codePointAt(s: string, i: number): number {
  const c = s.charCodeAt(i);
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
    const d = s.charCodeAt(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff) return (c - 0xd800) * 0x400 + (d - 0xdc00) + 0x10000;
  }
  return c;
}

/** The code point that ends just before UTF-16 index `i` (`i` > 0). */
export function codePointBefore(s: string, i: number): number {
  const d = s.charCodeAt(i - 1);
  if (d >= 0xdc00 && d <= 0xdfff && i >= 2) {
    const c = s.charCodeAt(i - 2);
    if (c >= 0xd800 && c <= 0xdbff) return (c - 0xd800) * 0x400 + (d - 0xdc00) + 0x10000;
  }
  return d;
}

/** Python `re` Unicode `\w`: `str.isalnum()` or `_`. */
export function isWordCodePoint(cp: number): boolean {
  return (FLAGS[cp] & WORD) !== 0;
}

/** Python `re` Unicode `\d`: general category Nd. */
export function isDigitCodePoint(cp: number): boolean {
  return (FLAGS[cp] & DIGIT) !== 0;
}

/** True when the code point had no assignment in Unicode 14.0 (category Cn there). */
export function isUnassignedInReference(cp: number): boolean {
  return (FLAGS[cp] & UNASSIGNED) !== 0;
}

/** Python `str.casefold()` (full case folding, Unicode 14.0). */
export function casefold(s: string): string {
  let out = '';
  let last = 0;
  for (let i = 0; i < s.length; i++) {
    const cp = codePointAt(s, i);
    const width = cp > 0xffff ? 2 : 1;
    if ((FLAGS[cp] & FOLDS) !== 0) {
      out += s.slice(last, i) + FOLD.get(cp)!;
      last = i + width;
    }
    i += width - 1;
  }
  return last === 0 ? s : out + s.slice(last);
}

/**
 * `unicodedata.normalize('NFKC', s)` as CPython 3.11 computes it.
 *
 * Unicode's normalization stability policy makes ICU's NFKC agree with Unicode 14 on any
 * text made only of code points assigned in 14.0. A code point unassigned in 14.0 is, to
 * the reference, a starter with no decomposition that composes with nothing: it is left
 * as is and nothing reorders or composes across it. So the text is normalised in pieces
 * between such code points, which keep their place untouched — exactly what Python does,
 * even where ICU knows a newer decomposition or combining class for them.
 */
export function nfkc(s: string): string {
  let out = '';
  let last = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    // Fast path: BMP code units that are assigned in 14.0.
    if ((c < 0xd800 || c > 0xdbff) && (FLAGS[c] & UNASSIGNED) === 0) continue;
    const cp = codePointAt(s, i);
    const width = cp > 0xffff ? 2 : 1;
    if ((FLAGS[cp] & UNASSIGNED) !== 0) {
      out += s.slice(last, i).normalize('NFKC') + s.slice(i, i + width);
      last = i + width;
    }
    i += width - 1;
  }
  return last === 0 ? s.normalize('NFKC') : out + s.slice(last).normalize('NFKC');
}

/** Title normalisation before tokenising: NFKC, case folding, U+2212 MINUS SIGN → `-`. */
export function normaliseTitle(title: string): string {
  const folded = casefold(nfkc(title));
  return folded.includes('\u2212') ? folded.replaceAll('\u2212', '-') : folded;
}
