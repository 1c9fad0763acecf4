// Title tokens: every match, left to right, of "a number, or else a run of word
// characters", kept as a set. A hand-written scanner rather than a RegExp so that the word
// and digit classes are the reference's (Unicode 14.0, see text.ts), not the engine's.
//
// The scanner reproduces the leftmost-first regex
//   (?:(?<!\w)[+-])?\d+(?:[.,]\d+)*%?  |  \w+
// at each position: the number alternative wins when it can match; its sign is taken only
// when the character before the sign is not a word character; the digit runs and the
// `[.,]digits` groups are greedy and nothing after them can force backtracking.
//
// The loop is the hottest code of narrative triage (up to a million characters per
// request), so it reads the tables through module-local constants and decodes surrogate
// pairs inline instead of calling helpers from another module. It can also fold case on
// the fly (see `TokenDictionary.tokenizeTitle`), which saves building a folded copy of
// every title.
import {
  DIGIT as DIGIT_BIT,
  FOLDS as FOLDS_BIT,
  IRREGULAR_FOLD as IRREGULAR_BIT,
  SIGNATURE_DIGIT as SIGNATURE_DIGIT_BIT,
  WORD as WORD_BIT,
  characterFlags,
  foldTables,
  foldTitleText,
  nfkc,
  normaliseTitle,
} from './text.js';

export interface TitleTokens {
  /** Distinct tokens in order of first appearance. */
  readonly tokens: readonly string[];
  /**
   * The tokens that contain at least one digit in the sense of `str.isdigit()`, which is
   * wider than `\d` (order of first appearance).
   */
  readonly digitTokens: readonly string[];
}

const FLAGS = characterFlags();
const WORD = WORD_BIT;
const DIGIT = DIGIT_BIT;
const SIGNATURE_DIGIT = SIGNATURE_DIGIT_BIT;
const FOLDS = FOLDS_BIT;
const IRREGULAR = IRREGULAR_BIT;
const { bmp: FOLD_BMP, long: FOLD_LONG, all: FOLD_ALL } = foldTables();
const MINUS_SIGN = 0x2212;
const ASCII_ONLY = /^[\u0000-\u007f]*$/;

const PLUS = 0x2b;
const MINUS = 0x2d;
const COMMA = 0x2c;
const DOT = 0x2e;
const PERCENT = 0x25;

/** Code point at `i`; a lone surrogate stands for itself. */
function cpAt(s: string, i: number): number {
  const c = s.charCodeAt(i);
  if (c < 0xd800 || c > 0xdbff || i + 1 >= s.length) return c;
  const d = s.charCodeAt(i + 1);
  return d >= 0xdc00 && d <= 0xdfff ? (c - 0xd800) * 0x400 + (d - 0xdc00) + 0x10000 : c;
}

/** Code point ending just before `i` (`i` > 0). */
function cpBefore(s: string, i: number): number {
  const d = s.charCodeAt(i - 1);
  if (d < 0xdc00 || d > 0xdfff || i < 2) return d;
  const c = s.charCodeAt(i - 2);
  return c >= 0xd800 && c <= 0xdbff ? (c - 0xd800) * 0x400 + (d - 0xdc00) + 0x10000 : d;
}

/** Index after the run of `\d` characters starting at `i`. */
function skipDigits(s: string, i: number): number {
  const n = s.length;
  while (i < n) {
    const cp = cpAt(s, i);
    if ((FLAGS[cp] & DIGIT) === 0) break;
    i += cp > 0xffff ? 2 : 1;
  }
  return i;
}

function digitAt(s: string, i: number): boolean {
  return i < s.length && (FLAGS[cpAt(s, i)] & DIGIT) !== 0;
}

const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;

/** FNV-1a over the UTF-16 code units of a text: the hash the dictionary keys tokens by. */
export function hashText(text: string): number {
  let hash = FNV_OFFSET;
  for (let k = 0; k < text.length; k++) hash = Math.imul(hash ^ text.charCodeAt(k), FNV_PRIME);
  return hash;
}

/**
 * FNV-1a over the UTF-16 code units of a number token, reading U+2212 as `-` (it can only
 * be the sign, and only when folding on the fly; normalised text has none).
 */
function hashNumber(text: string, from: number, to: number): number {
  let hash = FNV_OFFSET;
  for (let k = from; k < to; k++) {
    const u = text.charCodeAt(k);
    hash = Math.imul(hash ^ (u === MINUS_SIGN ? MINUS : u), FNV_PRIME);
  }
  return hash;
}

// Where intern() finds the folded text of a token (see there).
const AS_IS = 0;
const FROM_UNITS = 1;
const FOLD_SLICE = 2;

// The folded code units of the word being scanned (grown on demand; a fold can turn one
// unit into three).
let units = new Uint16Array(8192);

/** The first `length` units of `buffer` as a string. */
function unitsText(b: Uint16Array, length: number): string {
  // Explicit arguments for the usual short words: no view object, no spread.
  switch (length) {
    case 1: return String.fromCharCode(b[0]);
    case 2: return String.fromCharCode(b[0], b[1]);
    case 3: return String.fromCharCode(b[0], b[1], b[2]);
    case 4: return String.fromCharCode(b[0], b[1], b[2], b[3]);
    case 5: return String.fromCharCode(b[0], b[1], b[2], b[3], b[4]);
    case 6: return String.fromCharCode(b[0], b[1], b[2], b[3], b[4], b[5]);
    case 7: return String.fromCharCode(b[0], b[1], b[2], b[3], b[4], b[5], b[6]);
    case 8: return String.fromCharCode(b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]);
    default: return String.fromCharCode.apply(null, b.subarray(0, length) as unknown as number[]);
  }
}

/** `token` equals the first `token.length` units of `buffer`. */
function sameUnits(token: string, buffer: Uint16Array): boolean {
  for (let q = 0; q < token.length; q++) if (token.charCodeAt(q) !== buffer[q]) return false;
  return true;
}

/** `token === text.slice(from, from + token.length)` without cutting the slice. */
function sameText(token: string, text: string, from: number): boolean {
  for (let q = 0; q < token.length; q++) if (token.charCodeAt(q) !== text.charCodeAt(from + q)) return false;
  return true;
}

/**
 * Token interning shared by all titles of one request: each distinct token text gets a
 * dense integer id, so the clustering works on integer sets. Ids are in order of first
 * appearance across the titles tokenised so far.
 *
 * The lookup is an open-addressing table keyed by a hash of the token's code units that
 * compares candidates in place, code unit by code unit, so a token string is
 * only cut out of the title the first time it is seen. A `Map<string, number>` would
 * allocate and hash a fresh string for every occurrence — the dominant cost at 500
 * titles of 2000 characters.
 */
export class TokenDictionary {
  /** Token text per id. */
  readonly texts: string[] = [];
  private digitFlags = new Uint8Array(1024);
  private lastTitle = new Int32Array(1024);
  private hashes = new Int32Array(1024);
  // Open addressing, two Int32 per slot: the token's hash and its id + 1 (0 = free), so a
  // probe mostly touches one cache line. Grown by doubling: a table sized for the worst
  // case up front spreads the common words over megabytes and was measured slower.
  private slots = new Int32Array(2048);
  private titles = 0;

  get size(): number {
    return this.texts.length;
  }

  /** `hashText` of the token's text. */
  hashOf(id: number): number {
    return this.hashes[id];
  }

  /** Whether the token contains a character for which `str.isdigit()` is true. */
  hasDigit(id: number): boolean {
    return this.digitFlags[id] === 1;
  }

  /** Distinct token ids of an already normalised title, in order of first appearance. */
  tokenize(normalised: string): number[] {
    return this.scan(normalised, false)!;
  }

  /**
   * Distinct token ids of a raw title: the same as `tokenize(normaliseTitle(title))`, but
   * case is folded while scanning. That is exact because folding works code point by
   * code point and, except for the few IRREGULAR_FOLD code points, never changes whether
   * a character is a word character or a digit, nor touches signs and separators: the
   * token boundaries are the same before and after folding, and each token folds on its
   * own. A title with an irregular code point takes the plain route.
   */
  tokenizeTitle(title: string): number[] {
    // ASCII text is its own NFKC form.
    const composed = ASCII_ONLY.test(title) ? title : nfkc(title);
    return this.scan(composed, true) ?? this.scan(foldTitleText(composed), false)!;
  }

  /** The scanner; with `folding`, returns null on meeting an IRREGULAR_FOLD code point. */
  private scan(text: string, folding: boolean): number[] | null {
    const serial = ++this.titles;
    const out: number[] = [];
    const n = text.length;
    let i = 0;
    while (i < n) {
      const cp = cpAt(text, i);
      const flags = FLAGS[cp];
      if (folding && (flags & IRREGULAR) !== 0) return null;
      let digitsFrom = -1;
      if (cp === PLUS || cp === MINUS || (folding && cp === MINUS_SIGN)) {
        if ((i === 0 || (FLAGS[cpBefore(text, i)] & WORD) === 0) && digitAt(text, i + 1)) digitsFrom = i + 1;
      } else if ((flags & DIGIT) !== 0) {
        digitsFrom = i;
      }
      if (digitsFrom !== -1) {
        // Digits and number punctuation have no case, so folding leaves them alone.
        let j = skipDigits(text, digitsFrom);
        for (;;) {
          const sep = j < n ? text.charCodeAt(j) : -1;
          if ((sep === DOT || sep === COMMA) && digitAt(text, j + 1)) j = skipDigits(text, j + 1);
          else break;
        }
        if (j < n && text.charCodeAt(j) === PERCENT) j++;
        const mode = folding && text.charCodeAt(i) === MINUS_SIGN ? FOLD_SLICE : AS_IS;
        this.record(this.intern(text, i, j, true, hashNumber(text, i, j), j - i, mode), serial, out);
        i = j;
        continue;
      }
      if ((flags & WORD) === 0) {
        i += cp > 0xffff ? 2 : 1;
        continue;
      }
      // A word: scan it, hash its (folded) code units and keep them in `units`, in one pass.
      if (units.length < 3 * (n - i) + 2) units = new Uint16Array(3 * n + 2);
      const buffer = units;
      let j = i;
      let hash = FNV_OFFSET;
      let length = 0;
      let hasDigit = false;
      let changed = false; // whether folding altered any unit of this token
      while (j < n) {
        const u = text.charCodeAt(j);
        if (u < 0x80) {
          const f = FLAGS[u];
          if ((f & WORD) === 0) break;
          if ((f & SIGNATURE_DIGIT) !== 0) hasDigit = true;
          if (folding && u >= 0x41 && u <= 0x5a) {
            hash = Math.imul(hash ^ (u + 32), FNV_PRIME);
            buffer[length++] = u + 32;
            changed = true;
          } else {
            hash = Math.imul(hash ^ u, FNV_PRIME);
            buffer[length++] = u;
          }
          j++;
          continue;
        }
        let c = u;
        if (u >= 0xd800 && u <= 0xdbff && j + 1 < n) {
          const d = text.charCodeAt(j + 1);
          if (d >= 0xdc00 && d <= 0xdfff) c = (u - 0xd800) * 0x400 + (d - 0xdc00) + 0x10000;
        }
        const f = FLAGS[c];
        if ((f & WORD) === 0) break;
        if ((f & SIGNATURE_DIGIT) !== 0) hasDigit = true;
        if (folding && (f & FOLDS) !== 0) {
          if ((f & IRREGULAR) !== 0) return null;
          changed = true;
          const single = c > 0xffff ? 0 : FOLD_BMP[c];
          if (single > 0) {
            hash = Math.imul(hash ^ single, FNV_PRIME);
            buffer[length++] = single;
          } else {
            const target = c > 0xffff ? FOLD_ALL.get(c)! : FOLD_LONG[-single - 1];
            for (let t = 0; t < target.length; t++) {
              const unit = target.charCodeAt(t);
              hash = Math.imul(hash ^ unit, FNV_PRIME);
              buffer[length++] = unit;
            }
          }
        } else {
          hash = Math.imul(hash ^ u, FNV_PRIME);
          buffer[length++] = u;
          if (c > 0xffff) {
            const low = text.charCodeAt(j + 1);
            hash = Math.imul(hash ^ low, FNV_PRIME);
            buffer[length++] = low;
          }
        }
        j += c > 0xffff ? 2 : 1;
      }
      this.record(this.intern(text, i, j, hasDigit, hash, length, changed ? FROM_UNITS : AS_IS), serial, out);
      i = j;
    }
    return out;
  }

  private record(id: number, serial: number, out: number[]): void {
    if (this.lastTitle[id] !== serial) {
      this.lastTitle[id] = serial;
      out.push(id);
    }
  }

  /**
   * The id of a token whose folded form has `length` code units and hash `hash`; new
   * tokens are added. Where its folded text is: `text[from, to)` itself (AS_IS), the first
   * `length` entries of `units` (FROM_UNITS), or the fold of `text[from, to)` (FOLD_SLICE).
   */
  private intern(text: string, from: number, to: number, hasDigit: boolean, hash: number, length: number, mode: number): number {
    const texts = this.texts;
    const slots = this.slots;
    const mask = (slots.length >> 1) - 1;
    let slot = hash & mask;
    for (;;) {
      const entry = slots[2 * slot + 1];
      if (entry === 0) break;
      if (slots[2 * slot] === hash) {
        const known = texts[entry - 1];
        if (
          known.length === length &&
          (mode === AS_IS
            ? sameText(known, text, from)
            : mode === FROM_UNITS
              ? sameUnits(known, units)
              : known === foldTitleText(text.slice(from, to)))
        ) {
          return entry - 1;
        }
      }
      slot = (slot + 1) & mask;
    }
    const id = texts.length;
    texts.push(
      mode === AS_IS
        ? text.slice(from, to)
        : mode === FROM_UNITS
          ? unitsText(units, length)
          : foldTitleText(text.slice(from, to)),
    );
    if (id === this.lastTitle.length) {
      this.lastTitle = grow(this.lastTitle, new Int32Array(id * 2));
      this.hashes = grow(this.hashes, new Int32Array(id * 2));
      this.digitFlags = grow(this.digitFlags, new Uint8Array(id * 2));
    }
    this.digitFlags[id] = hasDigit ? 1 : 0;
    this.hashes[id] = hash;
    slots[2 * slot] = hash;
    slots[2 * slot + 1] = id + 1;
    // Keep the table at most half full.
    if ((id + 1) * 4 > slots.length) this.rehash();
    return id;
  }

  private rehash(): void {
    const old = this.slots;
    const slots = (this.slots = new Int32Array(old.length * 2));
    const mask = (slots.length >> 1) - 1;
    for (let s = 0; s < old.length; s += 2) {
      if (old[s + 1] === 0) continue;
      let slot = old[s] & mask;
      while (slots[2 * slot + 1] !== 0) slot = (slot + 1) & mask;
      slots[2 * slot] = old[s];
      slots[2 * slot + 1] = old[s + 1];
    }
  }
}

function grow<T extends Int32Array | Uint8Array>(from: T, to: T): T {
  to.set(from);
  return to;
}

/** Tokenises an already normalised title (see `normaliseTitle`). */
export function tokenize(text: string): TitleTokens {
  const dictionary = new TokenDictionary();
  const ids = dictionary.tokenize(text);
  return {
    tokens: ids.map((id) => dictionary.texts[id]),
    digitTokens: ids.filter((id) => dictionary.hasDigit(id)).map((id) => dictionary.texts[id]),
  };
}

/** Normalises and tokenises a raw title. */
export function titleTokens(title: string): TitleTokens {
  return tokenize(normaliseTitle(title));
}
