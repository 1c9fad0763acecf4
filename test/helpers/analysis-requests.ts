// Deterministic generators of analysis requests, from tiny to the documented maxima. Used
// by the HTTP tests and by bench/analysis.ts.

/** A small seeded PRNG (mulberry32), so generated requests are identical run to run. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const HOUR_MS = 3_600_000;
const START_MS = Date.UTC(2026, 0, 1);

function clock(ms: number): string {
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}

export interface SeriesOptions {
  series: number;
  points: number;
  /** Include every optional member (available_at, sample_size, url, max_gap_seconds, group). */
  allFields?: boolean;
  seed?: number;
}

/**
 * A panel of hourly price series sharing one clock grid, with a common factor so the
 * spectral panel has structure. Valid for market_assessment and spectral_assessment.
 */
export function seriesRequest(options: SeriesOptions): { series: Record<string, unknown>[]; as_of: string } {
  const random = prng(options.seed ?? 7);
  const clocks: string[] = [];
  const later: string[] = [];
  for (let i = 0; i < options.points; i++) {
    clocks.push(clock(START_MS + i * HOUR_MS));
    later.push(clock(START_MS + i * HOUR_MS + 300_000));
  }
  const factor: number[] = [];
  for (let i = 0; i < options.points; i++) factor.push(random() - 0.5);
  const series: Record<string, unknown>[] = [];
  for (let s = 0; s < options.series; s++) {
    let price = 50 + 100 * random();
    const loading = random();
    const observations: Record<string, unknown>[] = [];
    for (let i = 0; i < options.points; i++) {
      price *= 1 + 0.01 * (loading * factor[i] + (random() - 0.5));
      const observation: Record<string, unknown> = { observed_at: clocks[i], value: Math.round(price * 10000) / 10000 };
      if (options.allFields) {
        observation.available_at = later[i];
        observation.sample_size = 900 + Math.floor(random() * 200);
      }
      observations.push(observation);
    }
    const entry: Record<string, unknown> = {
      id: `series-${String(s).padStart(2, '0')}`,
      kind: 'price',
      unit: 'USD',
      source: options.allFields
        ? { id: `source-${s % 4}`, rights: 'permitted', url: `https://data.example.org/series/${s}` }
        : { id: `source-${s % 4}`, rights: 'permitted' },
      max_age_seconds: 7200,
    };
    if (options.allFields) {
      entry.max_gap_seconds = 3600;
      entry.group = `group-${s % 3}`;
    }
    entry.observations = observations;
    series.push(entry);
  }
  const asOf = clock(START_MS + Math.max(0, options.points - 1) * HOUR_MS + 1_800_000);
  return { series, as_of: asOf };
}

const WORDS = [
  'central', 'bank', 'raises', 'cuts', 'rates', 'policy', 'inflation', 'outlook', 'markets', 'bond', 'yields',
  'treasury', 'auction', 'demand', 'funding', 'liquidity', 'repo', 'reserves', 'balance', 'sheet', 'growth',
  'labour', 'payrolls', 'surprise', 'guidance', 'officials', 'signal', 'pause', 'hike', 'percent', 'basis', 'points',
];

export interface EventOptions {
  events: number;
  /** Title length in characters (code points); titles are words, trimmed to length. */
  titleLength: number;
  seed?: number;
}

/** Headlines with deliberate repeats (every fourth event copies an earlier title). */
export function narrativeRequest(options: EventOptions): Record<string, unknown> {
  const random = prng(options.seed ?? 11);
  const events: Record<string, unknown>[] = [];
  const titles: string[] = [];
  const kinds = ['primary', 'reporting', 'commentary'];
  for (let i = 0; i < options.events; i++) {
    let title: string;
    if (i % 4 === 3) {
      title = titles[Math.floor(random() * titles.length)];
    } else {
      const parts: string[] = [];
      let length = 0;
      while (length < options.titleLength) {
        const word = WORDS[Math.floor(random() * WORDS.length)];
        parts.push(word);
        length += word.length + 1;
      }
      title = parts.join(' ').slice(0, options.titleLength).trimEnd().padEnd(options.titleLength, 'x');
    }
    titles.push(title);
    const published = START_MS + i * 60_000;
    events.push({
      id: `event-${String(i).padStart(3, '0')}`,
      title,
      published_at: clock(published),
      available_at: clock(published + 30_000),
      entities: [`entity-${i % 7}`],
      source: { id: `outlet-${i % 9}`, kind: kinds[i % 3], url: `https://news.example.org/${i}`, family: `family-${i % 5}` },
      event_key: `key-${i % 13}`,
    });
  }
  return {
    events,
    as_of: clock(START_MS + options.events * 60_000 + 60_000),
    focus: ['entity-1', 'entity-2'],
    policy: { max_age_seconds: 10 * 86400, max_items: 20 },
  };
}
