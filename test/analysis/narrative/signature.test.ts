import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SignatureBuilder, signatureOf } from '../../../src/analysis/narrative/signature.js';
import { normaliseTitle } from '../../../src/analysis/narrative/text.js';
import { TokenDictionary, titleTokens } from '../../../src/analysis/narrative/tokens.js';

describe('wording signature', () => {
  it('collects digit tokens, negations, direction flags and units exactly', () => {
    const s = signatureOf(titleTokens('Bank NOT raising: shares fall 5% and 2 bps, up 3 million; no x-7 a1'));
    expect([...s.digitTokens].sort()).toEqual(['2', '5%', '7', '3', 'a1'].sort());
    expect(s.negation).toEqual(['not', 'no']);
    expect(s.up).toBe(true); // "up" (not "raising", which is not listed)
    expect(s.down).toBe(true);
    expect(s.units).toEqual(['bps', 'million']);
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
