// Python-compatible text handling for narrative titles: NFKC, `str.casefold()`, the `re`
// Unicode classes `\w` / `\d` and `str.isdigit()`, all pinned to the reference's Unicode
// 14.0 data.
//
// Why not the engine's own Unicode support: CPython 3.11 ships Unicode 14.0 while Node's
// ICU is newer. `toLowerCase` is not case folding at all (ß stays ß), `\p{L}` and friends
// grow with every Unicode release, and `normalize('NFKC')` decomposes characters that
// Unicode 14 did not have yet. The tables in unicode14.generated.ts come from CPython
// itself (scripts/gen-narrative-unicode.py).
import { CASEFOLD, DIGIT_RANGES, ISDIGIT_RANGES, UNASSIGNED_RANGES, WORD_RANGES } from './unicode14.generated.js';

export const WORD = 1;
export const DIGIT = 2;
const UNASSIGNED = 4;
export const FOLDS = 8;
/**
 * A code point whose fold changes the word/digit class of some character (İ → i + U+0307,
 * ΰ → υ + two marks; 28 in Unicode 14). Only around these do token boundaries in the
 * folded text differ from those in the unfolded text.
 */
export const IRREGULAR_FOLD = 16;
/**
 * `str.isdigit()`: what the number signature counts as a digit. Wider than `\d` (DIGIT),
 * which decides where number tokens start: Ethiopic, Kharoshthi and other digits that are
 * not decimal digits (and superscripts or circled digits, though NFKC maps most of those
 * to ASCII first) sit inside word tokens, and still mark them as stating a number.
 */
export const SIGNATURE_DIGIT = 32;

// One byte of flags per code point (1.1 MB): the title loops look every code point up,
// and a flat typed array is the cheapest lookup there is.
const FLAGS = new Uint8Array(0x110000);
const FOLD = new Map<number, string>();
// The same folds for BMP code units, as the fast loop reads them: 0 = folds to itself,
// > 0 = folds to that one code unit, < 0 = folds to FOLD_LONG[-value - 1].
const FOLD_BMP = new Int32Array(0x10000);
const FOLD_LONG: string[] = [];

function eachRange(spec: string, fn: (from: number, to: number) => void): void {
  for (const part of spec.split(',')) {
    const dash = part.indexOf('-');
    const from = parseInt(dash === -1 ? part : part.slice(0, dash), 16);
    const to = dash === -1 ? from : parseInt(part.slice(dash + 1), 16);
    fn(from, to);
  }
}

// The range sets are disjoint except `\d` ⊂ isdigit ⊂ word characters, so plain fills in
// this order give every code point its complete flag byte.
eachRange(UNASSIGNED_RANGES, (a, b) => FLAGS.fill(UNASSIGNED, a, b + 1));
eachRange(WORD_RANGES, (a, b) => FLAGS.fill(WORD, a, b + 1));
eachRange(ISDIGIT_RANGES, (a, b) => FLAGS.fill(WORD | SIGNATURE_DIGIT, a, b + 1));
eachRange(DIGIT_RANGES, (a, b) => FLAGS.fill(WORD | SIGNATURE_DIGIT | DIGIT, a, b + 1));
for (const entry of CASEFOLD.split(',')) {
  const colon = entry.indexOf(':');
  const cp = parseInt(entry.slice(0, colon), 16);
  const target = String.fromCodePoint(...entry.slice(colon + 1).split(' ').map((h) => parseInt(h, 16)));
  FOLD.set(cp, target);
  FLAGS[cp] |= FOLDS;
  if (cp <= 0xffff) {
    if (target.length === 1) FOLD_BMP[cp] = target.charCodeAt(0);
    else FOLD_BMP[cp] = -FOLD_LONG.push(target);
  }
}

// Sign and number punctuation must not appear in or disappear through a fold either.
const NUMBER_PUNCTUATION = new Set([0x2b, 0x2d, 0x2e, 0x2c, 0x25, 0x2212]);
for (const [cp, target] of FOLD) {
  const own = FLAGS[cp] & (WORD | DIGIT | SIGNATURE_DIGIT);
  for (const ch of target) {
    const t = ch.codePointAt(0)!;
    if ((FLAGS[t] & (WORD | DIGIT | SIGNATURE_DIGIT)) !== own || NUMBER_PUNCTUATION.has(t)) FLAGS[cp] |= IRREGULAR_FOLD;
  }
}

/** Fold targets for hot loops elsewhere (see `characterFlags` for why they are handed out). */
export function foldTables(): { bmp: Int32Array; long: readonly string[]; all: ReadonlyMap<number, string> } {
  return { bmp: FOLD_BMP, long: FOLD_LONG, all: FOLD };
}

/**
 * The per-code-point flag table (`WORD`, `DIGIT`, `FOLDS`, `IRREGULAR_FOLD` bits). Hot
 * loops in other modules copy it into a module-local constant once: some loaders (vitest's
 * among them) turn every access to an imported binding into a getter call, which costs
 * more than the lookup itself.
 */
export function characterFlags(): Uint8Array {
  return FLAGS;
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

/** Python `re` Unicode `\w`: `str.isalnum()` or `_`. */
export function isWordCodePoint(cp: number): boolean {
  return (FLAGS[cp] & WORD) !== 0;
}

/** Python `re` Unicode `\d`: general category Nd. */
export function isDigitCodePoint(cp: number): boolean {
  return (FLAGS[cp] & DIGIT) !== 0;
}

/** Python `str.isdigit()` for one code point: the number signature's digits. */
export function isSignatureDigitCodePoint(cp: number): boolean {
  return (FLAGS[cp] & SIGNATURE_DIGIT) !== 0;
}

let scratch = new Uint16Array(8192);

/** Case folding plus U+2212 → `-`: the text-level part of title normalisation after NFKC. */
export function foldTitleText(s: string): string {
  return fold(s, true);
}

function fold(s: string, minusToHyphen: boolean): string {
  const n = s.length;
  let i = 0;
  // Most titles need no change after a short prefix; find the first unit that does.
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) {
      if (c >= 0x41 && c <= 0x5a) break;
    } else if (FOLD_BMP[c] !== 0 || (c >= 0xd800 && c <= 0xdbff) || (minusToHyphen && c === 0x2212)) {
      break;
    }
  }
  if (i === n) return s;
  // A fold turns one UTF-16 unit into at most three.
  if (scratch.length < n * 3 + 8) scratch = new Uint16Array(n * 3 + 8);
  const out = scratch;
  let k = 0;
  for (let j = 0; j < i; j++) out[k++] = s.charCodeAt(j);
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) {
      out[k++] = c >= 0x41 && c <= 0x5a ? c + 32 : c;
      continue;
    }
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < n) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        const cp = (c - 0xd800) * 0x400 + (d - 0xdc00) + 0x10000;
        const target = (FLAGS[cp] & FOLDS) !== 0 ? FOLD.get(cp)! : null;
        if (target === null) {
          out[k++] = c;
          out[k++] = d;
        } else {
          for (let t = 0; t < target.length; t++) out[k++] = target.charCodeAt(t);
        }
        i++;
        continue;
      }
    }
    if (minusToHyphen && c === 0x2212) {
      out[k++] = 0x2d;
      continue;
    }
    const f = FOLD_BMP[c];
    if (f === 0) out[k++] = c;
    else if (f > 0) out[k++] = f;
    else {
      const target = FOLD_LONG[-f - 1];
      for (let t = 0; t < target.length; t++) out[k++] = target.charCodeAt(t);
    }
  }
  return unitsToString(out, k);
}

// Buffer's UCS-2 decoding copies the units as they are (lone surrogates included, where
// a UTF-16 TextDecoder would substitute U+FFFD) and is several times faster than
// String.fromCharCode over the array. It reads little-endian, so it needs a host whose
// typed arrays are little-endian too.
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

function unitsToString(units: Uint16Array, length: number): string {
  // Short texts (single tokens) are cheaper without the Buffer wrapper.
  if (length <= 64) return String.fromCharCode.apply(null, units.subarray(0, length) as unknown as number[]);
  if (LITTLE_ENDIAN) return Buffer.from(units.buffer, units.byteOffset, length * 2).toString('ucs2');
  let result = '';
  for (let from = 0; from < length; from += 8192) {
    result += String.fromCharCode.apply(null, units.subarray(from, Math.min(length, from + 8192)) as unknown as number[]);
  }
  return result;
}

/** Python `str.casefold()` (full case folding, Unicode 14.0). */
export function casefold(s: string): string {
  return fold(s, false);
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
    // Fast path: BMP code units that are assigned in 14.0. (A RegExp class of the
    // unassigned ranges was measured slower than this loop.)
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
  // ASCII text is its own NFKC form, folds exactly like toLowerCase and has no U+2212.
  if (ASCII_ONLY.test(title)) return title.toLowerCase();
  // Case folding never produces U+2212, so the replacement can ride along in one pass.
  return fold(nfkc(title), true);
}

const ASCII_ONLY = /^[\u0000-\u007f]*$/;
