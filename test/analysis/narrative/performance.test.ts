import { describe, expect, it } from 'vitest';
import { triageNarrative } from '../../../src/analysis/narrative/triage.js';
import type { NarrativeEvent, NarrativeRequest } from '../../../src/analysis/narrative/types.js';

// Deterministic pseudo-random text (xorshift), so the workload is the same on every run.
function rng(seed: number): () => number {
  let x = seed;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

const LATIN = 'abcdefghijklmnopqrstuvwxyz';
const MIXED = ['ka', 'lo', 'mi', 'ne', 'su', 'ra', 'to', 'vi', 'ße', 'dé', 'jà', 'ök', 'ΣΙ', 'фу', '中', '𐐀', 'e\u0301', '５'];

/** Exactly 2000 code points of words from `word`, separated by spaces and punctuation. */
function title(next: () => number, word: () => string): string {
  const parts: string[] = [];
  let length = 0;
  while (length < 2000) {
    const w = word() + (next() < 0.1 ? ', ' : ' ');
    parts.push(w);
    length += [...w].length;
  }
  return [...parts.join('')].slice(0, 2000).join('');
}

/**
 * 500 events, 2000-code-point titles drawn from a 3000-word vocabulary with a skewed
 * (Zipf-like) frequency, as running text has. English-like: ASCII words, some capitalised,
 * some numbers. Multilingual: words built from Latin, Greek, Cyrillic, CJK, astral and
 * combining-mark syllables plus full-width digits, so every title takes the NFKC and
 * full case-folding route.
 */
function request(kind: 'english' | 'multilingual', seed: number): NarrativeRequest {
  const next = rng(seed);
  const vocabulary = Array.from({ length: 3000 }, () =>
    kind === 'english'
      ? Array.from({ length: 2 + Math.floor(next() * 8) }, () => LATIN[Math.floor(next() * 26)]).join('')
      : Array.from({ length: 1 + Math.floor(next() * 4) }, () => MIXED[Math.floor(next() * MIXED.length)]).join(''),
  );
  const word = (): string => {
    const r = next();
    if (r < 0.03) return `${Math.floor(next() * 1000)}${next() < 0.3 ? '.5%' : ''}`;
    const w = vocabulary[Math.floor(vocabulary.length * next() ** 3)];
    return r < 0.15 ? w[0].toUpperCase() + w.slice(1) : w;
  };
  const events: NarrativeEvent[] = [];
  for (let i = 0; i < 500; i++) {
    events.push({
      id: `e${String(i).padStart(3, '0')}`,
      title: title(next, word),
      published_at: `2026-10-08T0${Math.floor(i / 60) % 10}:${String(i % 60).padStart(2, '0')}:00Z`,
      entities: ['bank-a'],
      source: { id: `s${i % 7}`, kind: (['primary', 'reporting', 'commentary'] as const)[i % 3], url: `https://www.src${i % 7}.example/a` },
      ...(i % 11 === 0 ? { event_key: 'k' } : {}),
    });
  }
  // The lowest threshold the schema allows makes the most candidate pairs to check.
  return { events, as_of: '2026-10-08T10:00:00Z', policy: { similarity_threshold: 0.5 } };
}

/** Best and median wall time of `runs` calls after a warm-up. */
function timings(req: NarrativeRequest, runs: number): { best: number; median: number } {
  for (let i = 0; i < 3; i++) triageNarrative(req); // warm-up: JIT and the Unicode tables
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    triageNarrative(req);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { best: times[0], median: times[Math.floor(times.length / 2)] };
}

describe('performance at the documented maxima', () => {
  // Best of nine, so that a busy test machine (other suites share the CPU) measures the
  // code rather than the scheduler; the medians are printed alongside.
  it('triages 500 events with 2000-character titles well inside 50 ms (English-like text)', () => {
    const english = request('english', 1);
    expect(english.events.every((e) => [...e.title].length === 2000)).toBe(true);
    const t = timings(english, 9);
    console.log(`narrative triage, 500 × 2000 English-like characters: best ${t.best.toFixed(1)} ms, median ${t.median.toFixed(1)} ms`);
    expect(t.best).toBeLessThan(50);
  });

  it('stays in the same range for multi-script text that needs NFKC and full case folding', () => {
    const multilingual = request('multilingual', 2);
    expect(multilingual.events.every((e) => [...e.title].length === 2000)).toBe(true);
    const t = timings(multilingual, 9);
    console.log(`narrative triage, 500 × 2000 multi-script characters: best ${t.best.toFixed(1)} ms, median ${t.median.toFixed(1)} ms`);
    // About 45 ms on the development machine, a fifth of it in the request digest; the
    // bound only guards against regressions of the algorithm.
    expect(t.best).toBeLessThan(75);
  });
});
