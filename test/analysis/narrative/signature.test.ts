import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SignatureBuilder, signatureOf } from '../../../src/analysis/narrative/signature.js';
import { isDigitCodePoint, isSignatureDigitCodePoint, nfkc, normaliseTitle } from '../../../src/analysis/narrative/text.js';
import { TokenDictionary, titleTokens } from '../../../src/analysis/narrative/tokens.js';
import { fixtures } from './fixtures.js';

describe('wording signature', () => {
  it('collects digit tokens, negations, direction flags and units exactly', () => {
    const s = signatureOf(titleTokens('Bank NOT raising: shares fall 5% and 2 bps, up 3 million; no x-7 a1'));
    expect([...s.digitTokens].sort()).toEqual(['2', '5%', '7', '3', 'a1'].sort());
    expect(s.negation).toEqual(['not', 'no']);
    expect(s.up).toBe(true); // "up" (not "raising", which is not listed)
    expect(s.down).toBe(true);
    expect(s.units).toEqual(['bps', 'million']);
  });

  it('counts as digits what str.isdigit() counts, not only decimal digits', () => {
    // U+1369 ETHIOPIC DIGIT ONE and U+10A40 KHAROSHTHI DIGIT ONE survive NFKC, are word
    // characters but not `\d`: the token is a word, and it states a number.
    for (const title of ['Output up \u1369 percent', 'Output up \u{10A40} percent', 'Output up a\u1369b percent']) {
      const s = signatureOf(titleTokens(title));
      expect(s.digitTokens.length, title).toBe(1);
      expect(s.key).not.toBe(signatureOf(titleTokens('Output up percent')).key);
    }
    expect(signatureOf(titleTokens('Output \u1369')).key).not.toBe(signatureOf(titleTokens('Output \u136A')).key);
    // Superscripts and circled digits reach the signature as ASCII digits after NFKC.
    expect(signatureOf(titleTokens('Output \u00B2')).digitTokens).toEqual(['2']);
    expect(signatureOf(titleTokens('Output \u2460')).digitTokens).toEqual(['1']);
  });

  it(`agrees with CPython on every code point that is a digit but not a decimal digit (${fixtures.non_decimal_digits.length})`, () => {
    expect(fixtures.non_decimal_digits.length).toBe(128);
    for (const cp of fixtures.non_decimal_digits) {
      expect(isSignatureDigitCodePoint(cp), cp.toString(16)).toBe(true);
      expect(isDigitCodePoint(cp), cp.toString(16)).toBe(false);
    }
    // Every `\d` character is a digit to str.isdigit() as well.
    for (let cp = 0; cp < 0x110000; cp++) if (isDigitCodePoint(cp)) expect(isSignatureDigitCodePoint(cp)).toBe(true);
    const listed = new Set(fixtures.non_decimal_digits);
    let others = 0;
    for (let cp = 0; cp < 0x110000; cp++) if (isSignatureDigitCodePoint(cp) && !isDigitCodePoint(cp) && !listed.has(cp)) others++;
    expect(others).toBe(0);
  });

  it('separates any title from the same title with a non-decimal digit added (property)', () => {
    // The digits NFKC keeps as they are (Ethiopic, Kharoshthi, dingbat digits, ...): the
    // others become ASCII digits, possibly with punctuation, before tokenising.
    const kept = fixtures.non_decimal_digits.filter((cp) => nfkc(String.fromCodePoint(cp)) === String.fromCodePoint(cp));
    expect(kept.length).toBeGreaterThan(50);
    const word = fc.constantFrom('bank', 'rates', 'up', 'cut', '5', '5%', 'million', 'no', 'déjà');
    fc.assert(
      fc.property(fc.array(word, { maxLength: 8 }), fc.constantFrom(...kept), (words, cp) => {
        const title = words.join(' ');
        const plain = signatureOf(titleTokens(`${title} x`));
        const withDigit = signatureOf(titleTokens(`${title} x${String.fromCodePoint(cp)}`));
        expect(withDigit.digitTokens.length).toBe(plain.digitTokens.length + 1);
        expect(withDigit.key).not.toBe(plain.key);
      }),
      { numRuns: 400, seed: 6 },
    );
  });

  it('treats direction words as flags, so "raises" and "rises" share a signature', () => {
    expect(signatureOf(titleTokens('Bank raises rate')).key).toBe(signatureOf(titleTokens('Bank rises rate')).key);
    expect(signatureOf(titleTokens('Bank raises rate')).key).not.toBe(signatureOf(titleTokens('Bank cuts rate')).key);
  });

  it('gives id-based keys that are equal exactly when the text signatures are equal', () => {
    const word = fc.constantFrom('no', 'not', 'up', 'rose', 'cut', 'fell', 'million', 'bps', 'usd', 'x', 'y', '5', '5%', '-5', 'a1', '1,000', 'déjà');
    fc.assert(
      fc.property(fc.array(fc.array(word, { maxLength: 8 }).map((w) => w.join(' ')), { minLength: 2, maxLength: 12 }), (titles) => {
        const dictionary = new TokenDictionary();
        const builder = new SignatureBuilder(dictionary);
        const idKeys = titles.map((t) => builder.keyOf(dictionary.tokenize(normaliseTitle(t))));
        const textKeys = titles.map((t) => signatureOf(titleTokens(t)).key);
        for (let i = 0; i < titles.length; i++) {
          for (let j = 0; j < titles.length; j++) expect(idKeys[i] === idKeys[j]).toBe(textKeys[i] === textKeys[j]);
        }
      }),
      { numRuns: 300, seed: 99 },
    );
  });
});
