// Analysis benchmark: per operation and input size, the median and p90 of
//   read     — the strict JSON reader on the body bytes,
//   validate — the request schema check on the parsed body,
//   compute  — the domain function alone on the parsed, validated body,
//   digest   — of which request_sha256 (market, spectral: canonical JSON of the 7 MB body),
//   encode   — Python-compatible serialisation of the result,
//   http     — a real POST over 127.0.0.1 (undici) to a server listening in a child
//              process (default configuration): body upload, strict JSON parse,
//              validation, compute, encoding and download.
// Usage: npm run bench -- analysis [--quick] [--only market,spectral,…]
import { forkChild } from './_fork.js';
import { SERVICE_BUILD_NOTE } from './_service.js';
import os from 'node:os';
import { Agent, request } from 'undici';
import { encodePythonBody, parseStrictJson } from '../src/core/json.js';
import { compileValidator } from '../src/analysis/validate.js';
import { DysonRequestSchema, MarketRequestSchema, NarrativeRequestSchema, SpectralRequestSchema } from '../src/analysis/schemas/index.js';
import { assessMarket } from '../src/analysis/market.js';
import { triageNarrative } from '../src/analysis/narrative/triage.js';
import { assessSpectral } from '../src/analysis/spectral.js';
import { dysonReference } from '../src/analysis/dyson.js';
import { seriesRequestSha256 } from '../src/analysis/request-digest.js';
import { narrativeRequest, seriesRequest } from '../test/helpers/analysis-requests.js';

interface Case {
  op: string;
  size: string;
  path: string;
  body: unknown;
  schema: object;
  run(parsed: unknown): unknown;
  digest?(parsed: unknown): unknown;
}

const digestOf = (b: unknown) => seriesRequestSha256(b as never);

/**
 * The generated panels share one clock grid, as aligned market data does (and as the
 * spectral panel needs). This variant moves each series' clocks by its own offset, so no
 * two series share a timestamp text: the worst case for the caches keyed by position.
 */
function unaligned(body: { series: Record<string, unknown>[]; as_of: string }) {
  const shift = (text: unknown, minutes: number) => new Date(Date.parse(text as string) + minutes * 60_000).toISOString().replace('.000Z', 'Z');
  for (const [k, s] of body.series.entries()) {
    for (const o of s.observations as Record<string, unknown>[]) {
      o.observed_at = shift(o.observed_at, k);
      if (o.available_at !== undefined) o.available_at = shift(o.available_at, k);
    }
  }
  return body;
}

function cases(): Case[] {
  const market = (size: string, series: number, points: number, shifted = false): Case => {
    const body = seriesRequest({ series, points, allFields: true });
    return {
      op: 'market', size: `${size} ${series}×${points}${shifted ? ' unaligned' : ''}`, path: '/v1/market/assess',
      body: shifted ? unaligned(body) : body,
      schema: MarketRequestSchema, run: (b) => assessMarket(b as never), digest: digestOf,
    };
  };
  const spectral = (size: string, series: number, points: number, policy?: object): Case => ({
    op: 'spectral', size: `${size} ${series}×${points}${policy ? ' 512×8' : ''}`, path: '/v1/spectral/assess',
    body: { ...seriesRequest({ series, points, allFields: true }), ...(policy ? { policy } : {}) },
    schema: SpectralRequestSchema, run: (b) => assessSpectral(b as never, b), digest: digestOf,
  });
  const narrative = (size: string, events: number, titleLength: number): Case => ({
    op: 'narrative', size: `${size} ${events}×${titleLength}ch`, path: '/v1/narrative/triage', body: narrativeRequest({ events, titleLength }),
    schema: NarrativeRequestSchema, run: (b) => triageNarrative(b as never),
  });
  const dyson = (size: string, dimension: number, steps: number): Case => ({
    op: 'dyson', size: `${size} ${dimension}×${steps}`, path: '/v1/research/dyson', body: { dimension, steps, dt: 0.05, seed: 6116 },
    schema: DysonRequestSchema, run: (b) => dysonReference(b as never),
  });
  return [
    market('small', 2, 64), market('medium', 8, 512), market('max', 32, 2048), market('max', 32, 2048, true),
    spectral('small', 4, 121), spectral('medium', 8, 512), spectral('max', 32, 2048),
    spectral('max', 32, 2048, { window_points: 512, step_points: 192, max_windows: 8 }),
    narrative('small', 10, 80), narrative('medium', 100, 300), narrative('max', 500, 2000),
    dyson('small', 3, 5), dyson('medium', 6, 40), dyson('max', 16, 100),
  ];
}

function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[i];
}

function summary(samples: number[]): { p50: number; p90: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: quantile(sorted, 0.5), p90: quantile(sorted, 0.9) };
}

function timeIt(iterations: number, warmup: number, f: () => unknown): number[] {
  for (let i = 0; i < warmup; i++) f();
  const samples: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const t0 = performance.now();
    f();
    samples.push(performance.now() - t0);
  }
  return samples;
}

function iterationsFor(bytes: number, quick: boolean): number {
  const base = bytes > 4_000_000 ? 15 : bytes > 500_000 ? 30 : 100;
  return quick ? Math.max(5, Math.floor(base / 3)) : base;
}

const ms = (n: number) => (Number.isFinite(n) ? n.toFixed(n < 10 ? 2 : 1) : '-');
const mb = (n: number) => (n >= 1e6 ? `${(n / 1e6).toFixed(2)} MB` : n >= 1e3 ? `${(n / 1e3).toFixed(1)} kB` : `${n} B`);

export default async function run(args: string[]): Promise<void> {
  const quick = args.includes('--quick');
  const onlyIndex = args.indexOf('--only');
  const only = onlyIndex >= 0 ? new Set(args[onlyIndex + 1]?.split(',')) : undefined;

  // The server runs in its own process: the in-process timings below block this event
  // loop for seconds, which would otherwise trip the server's load shedding.
  const server = forkChild('_server.ts', []);
  const port = await new Promise<number>((resolve, reject) => {
    server.once('message', (m) => resolve((m as { port: number }).port));
    server.once('exit', (code) => reject(new Error(`benchmark server exited with ${code}`)));
  });
  const dispatcher = new Agent({ keepAliveTimeout: 30_000, connections: 1 });

  console.log(SERVICE_BUILD_NOTE);
  console.log(`node ${process.version}, ${os.cpus().length} CPU(s) ${os.cpus()[0]?.model ?? ''}; times in ms (p50 / p90)`);
  const header = ['operation', 'input', 'request', 'response', 'read', 'validate', 'compute', 'of which digest', 'encode', 'http end-to-end'];
  const rows: string[][] = [header];
  try {
    for (const c of cases()) {
      if (only && !only.has(c.op)) continue;
      const text = JSON.stringify(c.body);
      const bytes = Buffer.from(text, 'utf8');
      const parsed = parseStrictJson(bytes);
      const validator = compileValidator(c.schema);
      const n = iterationsFor(bytes.length, quick);
      const read = summary(timeIt(n, 3, () => parseStrictJson(bytes)));
      const validate = summary(timeIt(n, 3, () => validator.assert(parsed)));
      let result: unknown;
      const compute = summary(timeIt(n, 3, () => (result = c.run(parsed))));
      const digest = c.digest ? summary(timeIt(n, 3, () => c.digest?.(parsed))) : undefined;
      let encoded = '';
      const encode = summary(timeIt(n, 3, () => (encoded = encodePythonBody(result))));

      const post = async () => {
        const res = await request(`http://127.0.0.1:${port}${c.path}`, {
          method: 'POST', body: bytes, headers: { 'content-type': 'application/json' }, dispatcher,
        });
        const out = await res.body.text();
        if (res.statusCode !== 200) throw new Error(`${c.op} ${c.size}: HTTP ${res.statusCode} ${out.slice(0, 200)}`);
        return out;
      };
      for (let i = 0; i < 3; i++) await post();
      const samples: number[] = [];
      let responseBytes = 0;
      for (let i = 0; i < n; i++) {
        const t0 = performance.now();
        const out = await post();
        samples.push(performance.now() - t0);
        responseBytes = Buffer.byteLength(out);
      }
      if (Buffer.byteLength(encoded) !== responseBytes) throw new Error(`${c.op} ${c.size}: HTTP body differs in size from the direct encoding`);
      const http = summary(samples);
      const pair = (s: { p50: number; p90: number }) => `${ms(s.p50)} / ${ms(s.p90)}`;
      rows.push([c.op, c.size, mb(bytes.length), mb(responseBytes), pair(read), pair(validate), pair(compute), digest ? pair(digest) : '-', pair(encode), pair(http)]);
      console.log(rows[rows.length - 1].join('  '));
    }
  } finally {
    await dispatcher.close();
    server.disconnect();
  }

  const widths = header.map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  console.log('');
  for (const [i, r] of rows.entries()) {
    console.log(r.map((cell, j) => (j < 2 ? cell.padEnd(widths[j]) : cell.padStart(widths[j]))).join('  '));
    if (i === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  }
}
