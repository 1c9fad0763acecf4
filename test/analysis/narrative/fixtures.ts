// Loads the Python-generated parity fixtures (scripts/gen-narrative-unicode.py).
import { readFileSync } from 'node:fs';

export interface TokenCase {
  title: string;
  normalised: string;
  tokens: string[];
  digit_tokens: string[];
}

export interface TextCase {
  text: string;
  casefold: string;
  nfkc: string;
}

export interface UrlCase {
  url: string;
  hostname: string | null;
  folded: string | null;
  /** The declared family the reference derives from this URL for source id `source-id`. */
  family: string;
  error: boolean;
}

export interface TextFixtures {
  python: string;
  unicode: string;
  token_regex: string;
  /** Every code point for which `str.isdigit()` is true but `\d` does not match. */
  non_decimal_digits: number[];
  tokens: TokenCase[];
  text: TextCase[];
  urls: UrlCase[];
}

export const fixtures: TextFixtures = JSON.parse(
  readFileSync(new URL('./text-fixtures.json', import.meta.url), 'utf8'),
) as TextFixtures;
