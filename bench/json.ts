// Reading and digesting analysis request bodies, in process: per request shape, the median
// of
//   JSON.parse(text)  — V8's parser on a string already in memory (no strictness, no kinds),
//   JSON.parse(bytes) — the same from the body's bytes (decode + parse), the fair floor,
//   strict            — parseStrictJson on the bytes, what the service runs on every body,
//   digest            — request_sha256 (market, spectral) of the parsed request,
// with strict and digest as multiples of JSON.parse(bytes). The four run in alternating
// batches, so one row shares the machine's load; the load average is printed.
// Usage: npm run bench -- json [--quick] [--only series,narrative,…]
import os from 'node:os';
import { parseStrictJson } from '../src/core/json.js';
import { seriesRequestSha256 } from '../src/analysis/request-digest.js';
import { narrativeRequest, seriesRequest } from '../test/helpers/analysis-requests.js';

interface Case {
  name: string;
  text: string;
  digest: boolean;
}

/** Narrative titles with accented and non-Latin words: the body is UTF-8 beyond ASCII. */
function accented(body: Record<string, unknown>): Record<string, unknown> {
  for (const event of body.events as { title: string }[]) {
    event.title = event.title.replace(/rates/g, 'tarifs é').replace(/bank/g, 'банк').replace(/yields/g, '利回り');
  }
  return body;
}

function cases(): Case[] {
  const series = (name: string, s: number, points: number): Case => ({
    name, text: JSON.stringify(seriesRequest({ series: s, points, allFields: true })), digest: true,
  });
  const narrative = (name: string, body: Record<string, unknown>): Case => ({ name, text: JSON.stringify(body), digest: false });
  return [
    series('series small 2×64', 2, 64),
    series('series medium 8×512', 8, 512),
    series('series max 32×2048', 32, 2048),
    narrative('narrative medium 100×300ch', narrativeRequest({ events: 100, titleLength: 300 })),
    narrative('narrative max 500×2000ch', narrativeRequest({ events: 500, titleLength: 2000 })),
    narrative('narrative max, non-ASCII', accented(narrativeRequest({ events: 500, titleLength: 2000 }))),
  ];
}

const median = (samples: number[]) => [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)];
const ms = (n: number) => (Number.isFinite(n) ? n.toFixed(n < 10 ? 2 : 1) : '-');
const kb = (n: number) => `${(n / 1000).toFixed(0)} kB`;
const load = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');

export default function run(args: string[]): Promise<void> {
  const quick = args.includes('--quick');
  const onlyIndex = args.indexOf('--only');
  const only = onlyIndex >= 0 ? args[onlyIndex + 1]?.split(',') : undefined;
  console.log(`node ${process.version}, ${os.cpus().length} CPU(s); load average ${load()}; medians in ms`);
  const header = ['input', 'bytes', 'JSON.parse(text)', 'JSON.parse(bytes)', 'strict', 'strict/parse', 'digest', 'digest/parse'];
  const rows: string[][] = [header];
  for (const c of cases()) {
    if (only && !only.some((o) => c.name.includes(o))) continue;
    const bytes = Buffer.from(c.text, 'utf8');
    const parsed = parseStrictJson(bytes);
    const steps: Record<string, (() => unknown) | undefined> = {
      text: (): unknown => JSON.parse(c.text),
      bytes: (): unknown => JSON.parse(bytes.toString('utf8')),
      strict: () => parseStrictJson(bytes),
      digest: c.digest ? () => seriesRequestSha256(parsed as never) : undefined,
    };
    const samples: Record<string, number[]> = { text: [], bytes: [], strict: [], digest: [] };
    const calls = Math.max(10, Math.round((quick ? 3e7 : 1.5e8) / bytes.length));
    const batch = 5;
    for (let round = 0; round * batch < calls + batch; round++) {
      for (const [name, step] of Object.entries(steps)) {
        if (step === undefined) continue;
        for (let i = 0; i < batch; i++) {
          const t0 = performance.now();
          step();
          if (round > 0) samples[name].push(performance.now() - t0); // round 0 warms up
        }
      }
    }
    const [text, fromBytes, strict] = [median(samples.text), median(samples.bytes), median(samples.strict)];
    const digest = c.digest ? median(samples.digest) : NaN;
    rows.push([
      c.name, kb(bytes.length), ms(text), ms(fromBytes), ms(strict), `${(strict / fromBytes).toFixed(2)}×`,
      ms(digest), c.digest ? `${(digest / fromBytes).toFixed(2)}×` : '-',
    ]);
  }
  const widths = header.map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  for (const [i, r] of rows.entries()) {
    console.log(r.map((cell, j) => (j === 0 ? cell.padEnd(widths[j]) : cell.padStart(widths[j]))).join('  '));
    if (i === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  }
  console.log(`load average after: ${load()}`);
  return Promise.resolve();
}
