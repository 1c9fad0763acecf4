// Funding read benchmark: GET /v1/funding/latest answered 200 and answered 304
// (If-None-Match) on the real server (SQLite, one captured packet, the verified current
// packet in memory, every clock-dependent check, usage hook), against a bare node:http
// server returning the same bytes from memory, both measured in the same run.
//
// Besides requests/s it prints each server's CPU time per request (user + system, all
// threads, from process.cpuUsage in the server): on a shared machine other load moves
// requests/s a lot and CPU per request little, so the CPU ratio is the steadier figure.
//
// `--mixed` adds issue 13's mixed load: funding reads at 16 connections while 4 clients
// post the maximum spectral request (32×2048) to the analysis worker pool; the funding
// p50/p99 is the figure (goal p99 ≤ 20 ms). The posting clients run in a process of their
// own (`--posters-in-process` puts them beside autocannon, as bench/load.ts does).
// Usage: npm run bench -- funding [--duration 10] [--connections 32] [--mixed] [--only-mixed] [--posters-in-process]
import { askChild, forkChild } from './_fork.js';
import { SERVICE_BUILD_NOTE } from './_service.js';
import type { ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import os from 'node:os';
import { Agent, request } from 'undici';
import { seriesRequest } from '../test/helpers/analysis-requests.js';
import { startPosters } from './_posters.js';

interface CannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; max: number };
  errors: number;
  statusCodeStats?: Record<string, { count: number }>;
}
type Cannon = (options: Record<string, unknown>) => Promise<CannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Cannon;


function option(args: string[], name: string, fallback: number): number {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] !== undefined ? Number(args[i + 1]) : fallback;
}

interface Child { child: ChildProcess; port: number; checksMs?: number }

function start(args: string[]): Promise<Child> {
  const child = forkChild('_funding-server.ts', args);
  return new Promise((resolve, reject) => {
    child.once('message', (m) => resolve({ child, ...(m as { port: number; checksMs?: number }) }));
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
}

function cpuOf(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    const listener = (m: unknown) => {
      if (typeof m === 'object' && m !== null && 'cpuUs' in m) {
        child.off('message', listener);
        resolve((m as { cpuUs: number }).cpuUs);
      }
    };
    child.on('message', listener);
    child.send('cpu');
  });
}

interface Row { rps: number; p50: number; p99: number; max: number; cpuUsPerRequest: number }

async function measure(target: Child, url: string, headers: Record<string, string>, duration: number, connections: number, expect: number): Promise<Row> {
  const cpu0 = await cpuOf(target.child);
  const result = await autocannon({ url, headers, duration, connections, pipelining: 1 });
  const cpu1 = await cpuOf(target.child);
  const codes = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([k, v]) => [k, v.count]));
  const wrong = Object.entries(codes).filter(([code]) => Number(code) !== expect).reduce((n, [, c]) => n + c, 0);
  if (wrong > 0 || result.errors > 0) throw new Error(`unexpected answers from ${url}: ${JSON.stringify(codes)}, errors ${result.errors}`);
  const answered = Object.values(codes).reduce((n, c) => n + c, 0);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max, cpuUsPerRequest: (cpu1 - cpu0) / Math.max(1, answered) };
}

const load = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');

/**
 * Funding reads at `connections` while `clients` post the maximum spectral request in a
 * loop, from a process of their own (bench/_poster.ts) unless `sameProcess`: then the
 * posting shares autocannon's event loop, as in bench/load.ts, and its latencies include
 * the client's own waits.
 */
async function mixed(service: Child, latestUrl: string, duration: number, connections: number, clients: number, sameProcess: boolean) {
  if (sameProcess) return mixedInProcess(service, latestUrl, duration, connections, clients);
  const posters = await startPosters(service.port, clients);
  const reads = await measure(service, latestUrl, {}, duration, connections, 200);
  return { reads, statuses: await posters.stop(), bodyBytes: posters.bodyBytes };
}

async function mixedInProcess(service: Child, latestUrl: string, duration: number, connections: number, clients: number) {
  const body = JSON.stringify(seriesRequest({ series: 32, points: 2048, allFields: true }));
  const dispatcher = new Agent({ connections: clients });
  const statuses: Record<string, number> = {};
  let stop = false;
  const posting = Array.from({ length: clients }, async () => {
    while (!stop) {
      const res = await request(`http://127.0.0.1:${service.port}/v1/spectral/assess`, { method: 'POST', body, headers: { 'content-type': 'application/json' }, dispatcher });
      await res.body.arrayBuffer();
      statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
    }
  });
  // Let the analyses get going (and the worker start) before reads are measured.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const reads = await measure(service, latestUrl, {}, duration, connections, 200);
  stop = true;
  await Promise.all(posting);
  await dispatcher.close();
  return { reads, statuses, bodyBytes: Buffer.byteLength(body) };
}

export default async function run(args: string[]): Promise<void> {
  const duration = option(args, 'duration', 10);
  const connections = option(args, 'connections', 32);
  const onlyMixed = args.includes('--only-mixed');
  const service = await start(['service']);
  const children = [service.child];
  try {
    const latestUrl = `http://127.0.0.1:${service.port}/v1/funding/latest`;
    const first = await fetch(latestUrl);
    if (first.status !== 200) throw new Error(`latest answered ${first.status}: ${await first.text()}`);
    const body = Buffer.from(await first.arrayBuffer());
    const etag = first.headers.get('etag')!;
    console.log(SERVICE_BUILD_NOTE);
    console.log(`funding latest benchmark: body ${body.length} bytes, ${connections} connections, ${duration} s per run, autocannon, Node ${process.version}, ${os.availableParallelism()} cores, load average at start ${load()}`);
    if (!onlyMixed) {
      const bare = await start(['bare', body.toString('base64')]);
      children.push(bare.child);
      const bareUrl = `http://127.0.0.1:${bare.port}/`;
      // A short warm-up of each target so JIT and caches are in the same state for both.
      for (const [url, h] of [[latestUrl, {}], [bareUrl, {}], [latestUrl, { 'if-none-match': etag }]] as const) await autocannon({ url, headers: h, duration: 2, connections });

      const rows: [string, Row][] = [];
      rows.push(['evidence-desk latest 200', await measure(service, latestUrl, {}, duration, connections, 200)]);
      rows.push(['bare node:http 200', await measure(bare, bareUrl, {}, duration, connections, 200)]);
      const revalidatedBefore = await askChild<number>(service.child, 'revalidated', 'revalidated');
      rows.push(['evidence-desk latest 304', await measure(service, latestUrl, { 'if-none-match': etag }, duration, connections, 304)]);
      const revalidated = (await askChild<number>(service.child, 'revalidated', 'revalidated')) - revalidatedBefore;
      rows.push(['bare node:http 304', await measure(bare, bareUrl, { 'if-none-match': etag }, duration, connections, 304)]);
      for (const [name, r] of rows) {
        console.log(`${name.padEnd(28)} ${r.rps.toFixed(0).padStart(8)} req/s   p50 ${r.p50} ms   p99 ${r.p99} ms   server CPU ${r.cpuUsPerRequest.toFixed(1).padStart(6)} µs/request`);
      }
      const ratio = (a: number, b: number) => rows[a][1].rps / rows[b][1].rps;
      const cpuRatio = (a: number, b: number) => rows[b][1].cpuUsPerRequest / rows[a][1].cpuUsPerRequest;
      console.log(`ratio evidence-desk / bare, requests/s: 200 ${ratio(0, 1).toFixed(3)}   304 ${ratio(2, 3).toFixed(3)}   (goal ≥ 0.5)`);
      console.log(`ratio bare / evidence-desk, CPU per request: 200 ${cpuRatio(0, 1).toFixed(3)}   304 ${cpuRatio(2, 3).toFixed(3)}`);
      console.log(`evidence-desk 304s answered ahead of the router (src/http/revalidation.ts): ${revalidated}`);
      console.log(`read checks + body alone (in process, no HTTP, no usage recording): ${service.checksMs?.toFixed(4)} ms per request`);
      console.log(`load average at end ${load()}`);
    }
    if (onlyMixed || args.includes('--mixed')) {
      const sameProcess = args.includes('--posters-in-process');
      const m = await mixed(service, latestUrl, duration, 16, 4, sameProcess);
      console.log(
        `mixed (funding reads at 16 connections + 4 clients ${sameProcess ? 'in the measuring process' : 'in their own process'} posting spectral max, ${(m.bodyBytes / 2 ** 20).toFixed(1)} MiB): ` +
          `funding ${m.reads.rps.toFixed(0)} req/s, p50 ${m.reads.p50} ms, p99 ${m.reads.p99} ms (goal ≤ 20), max ${m.reads.max} ms; analysis answers ${JSON.stringify(m.statuses)}; load average ${load()}`,
      );
    }
  } finally {
    for (const child of children) child.disconnect?.();
  }
}
