import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareCodePoints } from '../../../src/core/strings.js';
import { casefold, isDigitCodePoint, isWordCodePoint, nfkc, normaliseTitle } from '../../../src/analysis/narrative/text.js';
import { TokenDictionary, hashText, titleTokens } from '../../../src/analysis/narrative/tokens.js';
import { UNICODE_VERSION } from '../../../src/analysis/narrative/unicode14.generated.js';
import { fixtures } from './fixtures.js';

const sorted = (xs: Iterable<string>): string[] => [...xs].sort(compareCodePoints);

describe('Python-compatible case folding', () => {
  it('folds what toLowerCase does not: ß, ligatures, final sigma, Cherokee, dotted I, astral letters', () => {
    expect(casefold('Straße')).toBe('strasse');
    expect(casefold('ẞ')).toBe('ss');
    expect(casefold('ﬁnance ﬄ')).toBe('finance ffl');
    expect(casefold('ΣΊΣΥΦΟΣ ς')).toBe('σίσυφοσ σ');
    // Cherokee small letters fold to the capitals (the reverse of lower-casing).
    expect(casefold('ꭰꭱ ᏸ')).toBe('ᎠᎡ Ᏸ');
    expect(casefold('İ')).toBe('i\u0307');
    expect(casefold('𐐀𞤀')).toBe('𐐨𞤢');
    expect(casefold('ΐ')).toBe('\u03b9\u0308\u0301');
    expect(casefold('plain ascii 123')).toBe('plain ascii 123');
  });

  it('matches CPython str.casefold and NFKC on random text from every plane', () => {
    expect(fixtures.unicode).toBe(UNICODE_VERSION);
    for (const c of fixtures.text) {
      expect(casefold(c.text)).toBe(c.casefold);
      expect(nfkc(c.text)).toBe(c.nfkc);
    }
  });

  it('keeps code points that Unicode 14 lacked exactly as CPython 3.11 does, whatever ICU knows', () => {
    // U+1E030 MODIFIER LETTER CYRILLIC SMALL A (Unicode 15) has a compatibility
    // decomposition in newer ICU; to the reference it is an unassigned, non-word character.
    expect(nfkc('a\u{1E030}b')).toBe('a\u{1E030}b');
    expect(isWordCodePoint(0x1e030)).toBe(false);
    // Garay digits (Unicode 16) are not digits to the reference.
    expect(isDigitCodePoint(0x10d40)).toBe(false);
    // Text around such a code point is still normalised.
    expect(nfkc('ﬁ\u{1E030}e\u0301')).toBe('fi\u{1E030}é');
  });
});

describe('title tokens', () => {
  it('reproduces the worked example of the contract', () => {
    const t = titleTokens('Straße −5.5% déjà-vu 1,000,000 +3 x-5');
    expect(sorted(t.tokens)).toEqual(sorted(['strasse', '-5.5%', 'déjà', 'vu', '1,000,000', '+3', 'x', '5']));
    expect(sorted(t.digitTokens)).toEqual(sorted(['-5.5%', '1,000,000', '+3', '5']));
  });

  it('takes a sign only after a non-word character (not after `_`), and splits a number from a following word', () => {
    expect(sorted(titleTokens('a-5 _+5 (-5) 5-3 --7 +x').tokens)).toEqual(sorted(['a', '5', '_', '-5', '3', '-7', 'x']));
    expect(sorted(titleTokens('5abc abc5 1.5.6 5. ,5 5%% 5_000').tokens)).toEqual(
      sorted(['5', 'abc', 'abc5', '1.5.6', '5%', '_000']),
    );
  });

  it(`equals the Python reference tokeniser on ${fixtures.tokens.length} varied titles`, () => {
    expect(fixtures.tokens.length).toBeGreaterThanOrEqual(300);
    for (const c of fixtures.tokens) {
      expect(normaliseTitle(c.title), c.title).toBe(c.normalised);
      const t = titleTokens(c.title);
      expect(new Set(t.tokens).size, c.title).toBe(t.tokens.length);
      expect(sorted(t.tokens), c.title).toEqual(c.tokens);
      expect(sorted(t.digitTokens), c.title).toEqual(c.digit_tokens);
    }
  });

  it('gives the same sets when one dictionary interns every title (growth, rehashing, reuse of ids)', () => {
    const dictionary = new TokenDictionary();
    // Twice, so the second round finds every token already interned.
    for (const round of [0, 1]) {
      for (const c of fixtures.tokens) {
        const ids = dictionary.tokenize(c.normalised);
        expect(new Set(ids).size, `${round}: ${c.title}`).toBe(ids.length);
        expect(sorted(ids.map((id) => dictionary.texts[id])), c.title).toEqual(c.tokens);
        expect(sorted(ids.filter((id) => dictionary.hasDigit(id)).map((id) => dictionary.texts[id]))).toEqual(c.digit_tokens);
      }
    }
    // Many distinct tokens force the table to grow several times.
    const many = Array.from({ length: 5000 }, (_, i) => `t${i.toString(36)}x`).join(' ');
    const ids = dictionary.tokenize(many);
    expect(ids.map((id) => dictionary.texts[id])).toEqual(many.split(' '));
    expect(dictionary.tokenize(many)).toEqual(ids);
  });

  it('folds on the fly exactly as folding first would (fixtures and random text)', () => {
    const direct = new TokenDictionary();
    const viaNormalised = new TokenDictionary();
    const texts = (d: TokenDictionary, ids: number[]) => ids.map((id) => d.texts[id]);
    const shared = new TokenDictionary();
    for (const c of fixtures.tokens) {
      expect(texts(direct, direct.tokenizeTitle(c.title)), c.title).toEqual(texts(viaNormalised, viaNormalised.tokenize(c.normalised)));
      // Both routes into one dictionary must agree on ids, not only on texts.
      expect(shared.tokenizeTitle(c.title), c.title).toEqual(shared.tokenize(c.normalised));
    }
    for (let id = 0; id < shared.size; id++) expect(shared.hashOf(id)).toBe(hashText(shared.texts[id]));
    const alphabet = fc.constantFrom(
      'A', 'z', 'ß', 'ẞ', 'İ', 'ΰ', 'Σ', 'ς', 'ﬁ', 'ǅ', '𐐀', '𞤀', 'Ꭰ', 'ꭰ', '5', '٣', '５', '𝟓', '_', ' ', '-', '+', '\u2212',
      '\u207b', '.', ',', '%', 'e\u0301', '\u0301', '\u{1E030}', '中', '😀', 'x',
    );
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 30 }).map((xs) => xs.join('')), (title) => {
        const a = new TokenDictionary();
        const b = new TokenDictionary();
        expect(texts(a, a.tokenizeTitle(title))).toEqual(texts(b, b.tokenize(normaliseTitle(title))));
      }),
      { numRuns: 2000, seed: 5 },
    );
  });
});
