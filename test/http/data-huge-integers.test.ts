// Integer literals beyond the double range in source documents (upstream §8 item 3): Python
// keeps them as ints, so a document holding them stays readable. Wherever such a literal
// sits — a value, a clock, a label, a count copied into a context, a rights flag — every
// route of group C still answers 200 with valid JSON and CSV: a number field reads as no
// finite number (null, `unavailable`), a text field as the digits, and where the value itself
// is copied (a context, what a source reports) it is written as its digits. The documents are the
// bundled sample sources with their scalars replaced, all of them or a seeded share.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SOURCE_KEYS, type SourceKey } from '../../src/core/config.js';
import { parseStrictJson } from '../../src/core/json.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { prng } from '../helpers/analysis-requests.js';
import { liveConfig, serveJson, startSourceServer, testClock, type SourceServer, type TestClock } from '../data/support.js';

const HUGE = `1${'0'.repeat(400)}`;
const MARK = '\u0000huge\u0000';
const DATASETS = ['money_markets', 'money_market_history', 'capital_markets', 'bank_risk', 'market_liquidity', 'china_economy', 'source_health'];

/** A sample source document, parsed; undefined for the one each edition makes unreadable on purpose. */
function sampleDocument(key: SourceKey): { text: string; document?: unknown } {
  const text = fs.readFileSync(path.resolve('samples/sources/edition-1', `${key}.json`), 'utf8');
  try {
    return { text, document: parseStrictJson(text) };
  } catch {
    return { text };
  }
}

/** The document's text with the chosen scalars written as HUGE (a `schema` member kept, so the source is still read). */
function withHugeIntegers(document: unknown, pick: (value: unknown) => boolean, negative: boolean): string {
  const walk = (value: unknown, key: string): unknown => {
    if (Array.isArray(value)) return value.map((v) => walk(v, ''));
    if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, k)]));
    return key !== 'schema' && pick(value) ? MARK : value;
  };
  return JSON.stringify(walk(document, '')).replaceAll(JSON.stringify(MARK), negative ? `-${HUGE}` : HUGE);
}

const isScalar = (v: unknown) => v !== null && typeof v !== 'object';
const VARIANTS: [string, (value: unknown) => boolean, boolean][] = [
  ['every number', (v) => typeof v === 'number', false],
  ['every scalar, negative', isScalar, true],
  ...[11, 23, 37, 41, 59].map((seed): [string, (value: unknown) => boolean, boolean] => {
    const next = prng(seed);
    return [`a seeded third of the scalars (seed ${seed})`, (v) => isScalar(v) && next() < 0.33, seed % 2 === 0];
  }),
];

let server: SourceServer;
let clock: TestClock;
let t: TestApp;

beforeAll(async () => {
  server = await startSourceServer();
  clock = testClock('2026-09-25T12:00:00Z');
  t = await makeTestApp(liveConfig(server, { maxEventLoopDelay: 0 }), { clock });
});
afterAll(async () => {
  await t?.close();
  await server?.close();
});

describe('integer literals beyond the double range in source documents', () => {
  it.each(VARIANTS)('%s: every group C route answers 200 with readable bodies', async (_name, pick, negative) => {
    for (const key of SOURCE_KEYS) {
      const sample = sampleDocument(key);
      serveJson(server, key, sample.document === undefined ? sample.text : withHugeIntegers(sample.document, pick, negative));
    }
    // Past the source cache: every source is read again.
    clock.advance(120);
    const urls = [
      ...DATASETS.flatMap((d) => [`/api/v1/query?dataset=${d}`, `/api/v1/query?dataset=${d}&format=csv`]),
      '/api/v1/sources', '/api/v1/agent-query?dataset=bank_risk', '/api/v1/agent-review', '/api/v1/datasets',
    ];
    for (const url of urls) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, `${url}: ${res.body.slice(0, 300)}`).toBe(200);
      // A huge integer a source reports about itself is written back as its digits, as Python
      // writes an int: the body is JSON a reader keeping such integers takes.
      if (!url.includes('format=csv')) expect(() => parseStrictJson(res.rawPayload, { hugeIntegers: true }), url).not.toThrow();
    }
    // Over MCP the same answer is the tool's text and, byte for byte, its structuredContent
    // (not a lossy re-encoding: a huge integer stays its digits, 30.0 stays a float).
    for (const [id, name, args] of [[1, 'data_sources', {}], [2, 'data_query', { dataset: 'source_health' }]] as const) {
      const res = await t.app.inject({
        method: 'POST', url: '/mcp', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        payload: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } }),
      });
      expect(res.statusCode, name).toBe(200);
      const reply = parseStrictJson(res.rawPayload, { hugeIntegers: true }) as { result: { content: { text: string }[]; isError?: boolean } };
      expect(reply.result.isError, name).toBeFalsy();
      expect(res.body, name).toContain(`"structuredContent":${reply.result.content[0].text}`);
    }
    // The sources were read, not refused as malformed JSON.
    const sources = (await t.app.inject({ url: '/api/v1/sources' })).json<{ sources: { ok: boolean; error?: string }[] }>().sources;
    const readable = SOURCE_KEYS.filter((key) => sampleDocument(key).document !== undefined).length;
    expect(sources.filter((s) => s.ok)).toHaveLength(readable);
  });
});
