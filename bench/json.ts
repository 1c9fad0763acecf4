// Reading and digesting analysis request bodies, in process: per request shape, the median
// of JSON.parse (the floor: no strictness, no number kinds), parseStrictJson (what the
// service runs on every analysis body) and request_sha256 (market, spectral), with their
// ratio to JSON.parse. Runs interleaved, so the columns of one row share the machine's load.
// Usage: npm run bench -- json [--quick] [--only medium,max,…]
import os from 'node:os';
import { parseStrictJson } from '../src/core/json.js';
import { seriesRequestSha256 } from '../src/analysis/request-digest.js';
import { narrativeRequest, seriesRequest } from '../test/helpers/analysis-requests.js';

interface Case {
  name: string;
  body: unknown;
  digest: boolean;
}

function cases(): Case[] {
  return [
    { name: 'series small 2×64', body: seriesRequest({ series: 2, points: 64, allFields: true }), digest: true },
    { name: 'series medium 8×512', body: seriesRequest({ series: 8, points: 512, allFields: true }), digest: true },
    { name: 'series max 32×2048', body: seriesRequest({ series: 32, points: 2048, allFields: true }), digest: true },
    { name: 'narrative medium 100×300ch', body: narrativeRequest({ events: 100, titleLength: 300 }), digest: false },
    { name: 'narrative 500×250ch', body: narrativeRequest({ events: 500, titleLength: 250 }), digest: false },
    { name: 'narrative max 500×2000ch', body: narrativeRequest({ events: 500, titleLength: 2000 }), digest: false },
  ];
}

const median = (samples: number[]) => [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)];
const ms = (n: number) => n.toFixed(n < 10 ? 3 : 1);
const kb = (n: number) => `${(n / 1000).toFixed(0)} kB`;

export default function run(args: string[]): Promise<void> {
  const quick = args.includes('--quick');
  const onlyIndex = args.indexOf('--only');
  const only = onlyIndex >= 0 ? args[onlyIndex + 1]?.split(',') : undefined;
  console.log(`node ${process.version}, ${os.cpus().length} CPU(s); load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}; medians in ms`);
  const header = ['input', 'bytes', 'JSON.parse', 'strict', 'strict/parse', 'digest', 'digest/parse'];
  const rows: string[][] = [header];
  for (const c of cases()) {
    if (only && !only.some((o) => c.name.includes(o))) continue;
    const bytes = Buffer.from(JSON.stringify(c.body), 'utf8');
    const parsed = parseStrictJson(bytes);
    const rounds = Math.max(5, Math.round((quick ? 4e6 : 2e7) / bytes.length));
    const parse: number[] = [];
    const strict: number[] = [];
    const digest: number[] = [];
    for (let i = 0; i < rounds + 5; i++) {
      let t0 = performance.now();
      JSON.parse(bytes.toString('utf8'));
      const t1 = performance.now();
      parseStrictJson(bytes);
      const t2 = performance.now();
      if (c.digest) seriesRequestSha256(parsed as never);
      const t3 = performance.now();
      if (i < 5) continue; // warm-up
      parse.push(t1 - t0);
      strict.push(t2 - t1);
      digest.push(t3 - t2);
      t0 = t3;
    }
    const p = median(parse);
    const s = median(strict);
    const d = c.digest ? median(digest) : NaN;
    rows.push([c.name, kb(bytes.length), ms(p), ms(s), `${(s / p).toFixed(2)}×`, c.digest ? ms(d) : '-', c.digest ? `${(d / p).toFixed(2)}×` : '-']);
  }
  const widths = header.map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  for (const [i, r] of rows.entries()) {
    console.log(r.map((cell, j) => (j === 0 ? cell.padEnd(widths[j]) : cell.padStart(widths[j]))).join('  '));
    if (i === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  }
  console.log(`load average after: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  return Promise.resolve();
}
