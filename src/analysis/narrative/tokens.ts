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
// request), so it reads the flag table through a local constant and decodes surrogate
// pairs inline instead of calling helpers from another module.
import { DIGIT as DIGIT_BIT, WORD as WORD_BIT, characterFlags, normaliseTitle } from './text.js';

export interface TitleTokens {
  /** Distinct tokens in order of first appearance. */
  readonly tokens: readonly string[];
  /** The tokens that contain at least one `\d` character (order of first appearance). */
  readonly digitTokens: readonly string[];
}

const FLAGS = characterFlags();
const WORD = WORD_BIT;
const DIGIT = DIGIT_BIT;

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

/** FNV-1a over UTF-16 code units. */
function hashUnits(text: string, from: number, to: number): number {
  let hash = FNV_OFFSET;
  for (let k = from; k < to; k++) hash = Math.imul(hash ^ text.charCodeAt(k), FNV_PRIME);
  return hash;
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
  // Open addressing, two Int32 per slot: the token's hash and its id + 1 (0 = free), so a
  // probe mostly touches one cache line.
  private slots = new Int32Array(2048);
  private titles = 0;

  get size(): number {
    return this.texts.length;
  }

  /** Whether the token contains a `\d` character. */
  hasDigit(id: number): boolean {
    return this.digitFlags[id] === 1;
  }

  /** Distinct token ids of an already normalised title, in order of first appearance. */
  tokenize(text: string): number[] {
    const serial = ++this.titles;
    const out: number[] = [];
    const n = text.length;
    let i = 0;
    while (i < n) {
      const cp = cpAt(text, i);
      const flags = FLAGS[cp];
      let end = -1;
      let hasDigit = false;
      let digitsFrom = -1;
      if (cp === PLUS || cp === MINUS) {
        if ((i === 0 || (FLAGS[cpBefore(text, i)] & WORD) === 0) && digitAt(text, i + 1)) digitsFrom = i + 1;
      } else if ((flags & DIGIT) !== 0) {
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
        end = j;
        hasDigit = true;
      } else if ((flags & WORD) !== 0) {
        // The common case: scan the word and hash its code units in the same pass.
        let j = i;
        let hash = FNV_OFFSET;
        while (j < n) {
          const u = text.charCodeAt(j);
          let c = u;
          if (u >= 0xd800 && u <= 0xdbff && j + 1 < n) {
            const d = text.charCodeAt(j + 1);
            if (d >= 0xdc00 && d <= 0xdfff) c = (u - 0xd800) * 0x400 + (d - 0xdc00) + 0x10000;
          }
          const f = FLAGS[c];
          if ((f & WORD) === 0) break;
          if ((f & DIGIT) !== 0) hasDigit = true;
          hash = Math.imul(hash ^ u, FNV_PRIME);
          if (c > 0xffff) hash = Math.imul(hash ^ text.charCodeAt(j + 1), FNV_PRIME);
          j += c > 0xffff ? 2 : 1;
        }
        const id = this.intern(text, i, j, hasDigit, hash);
        if (this.lastTitle[id] !== serial) {
          this.lastTitle[id] = serial;
          out.push(id);
        }
        i = j;
        continue;
      }
      if (end === -1) {
        i += cp > 0xffff ? 2 : 1;
        continue;
      }
      const id = this.intern(text, i, end, hasDigit, hashUnits(text, i, end));
      if (this.lastTitle[id] !== serial) {
        this.lastTitle[id] = serial;
        out.push(id);
      }
      i = end;
    }
    return out;
  }

  /** The id of `text.slice(from, to)`, whose `hashUnits` is `hash`; new ids are added. */
  private intern(text: string, from: number, to: number, hasDigit: boolean, hash: number): number {
    const length = to - from;
    const texts = this.texts;
    const slots = this.slots;
    const mask = (slots.length >> 1) - 1;
    let slot = hash & mask;
    for (;;) {
      const entry = slots[2 * slot + 1];
      if (entry === 0) break;
      if (slots[2 * slot] === hash) {
        const known = texts[entry - 1];
        if (known.length === length && sameText(known, text, from)) return entry - 1;
      }
      slot = (slot + 1) & mask;
    }
    const id = texts.length;
    texts.push(text.slice(from, to));
    if (id === this.lastTitle.length) {
      this.lastTitle = grow(this.lastTitle, new Int32Array(id * 2));
      this.digitFlags = grow(this.digitFlags, new Uint8Array(id * 2));
    }
    this.digitFlags[id] = hasDigit ? 1 : 0;
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
