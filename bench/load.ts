// Load benchmark of issue 13 §1, side by side with a bare node:http server in the same run,
// printed as one table and written to bench/results.json:
//   - GET /v1/funding/latest answered 200 and 304, requests/s against the bare server;
//   - a burst of N connections opened at once, one request each: slowest answer;
//   - mixed load: funding reads while maximum-size analyses run (funding p99);
//   - every analysis size: end-to-end HTTP median against the compute median in process,
//     both warmed first (five runs each), and the floor: the bare server receiving the same
//     body, reading it with JSON.parse and answering as many bytes;
//   - peak RSS of the service process (worker threads included), and of a real
//     `evidence-desk serve --mode sample` process (what `npm run demo` runs, without the
//     benchmark child's transpiler and fixtures) under the same mixed load.
// Usage: npm run bench -- load [--duration 5] [--connections 32] [--burst 256] [--no-write]
import { askChild, forkChild } from './_fork.js';
import { SERVICE_BUILD, SERVICE_BUILD_NOTE } from './_service.js';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';
import { assessMarket } from '../src/analysis/market.js';
import { triageNarrative } from '../src/analysis/narrative/triage.js';
import { assessSpectral } from '../src/analysis/spectral.js';
import { narrativeRequest, seriesRequest } from '../test/helpers/analysis-requests.js';
import { startPosters } from './_posters.js';
import { PHASE_NAMES, type AnalysisPhases } from './_phases.js';

interface CannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; max: number };
  errors: number;
  statusCodeStats?: Record<string, { count: number }>;
}
type Cannon = (options: Record<string, unknown>) => Promise<CannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Cannon;
const here = path.dirname(fileURLToPath(import.meta.url));

function option(args: string[], name: string, fallback: number): number {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] !== undefined ? Number(args[i + 1]) : fallback;
}

type Child = { child: ChildProcess; port: number };
/** `v8` defaults to the setting `npm start` runs the service with (package.json). */
function start(args: string[], v8: string[] = ['--max-semi-space-size=4']): Promise<Child> {
  const child = forkChild('_funding-server.ts', args, v8);
  return new Promise((resolve, reject) => {
    child.once('message', (m) => resolve({ child, port: (m as { port: number }).port }));
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
}

function phasesOf(child: ChildProcess): Promise<AnalysisPhases[]> {
  return new Promise((resolve) => {
    const on = (m: unknown) => {
      if (typeof m !== 'object' || m === null || !('phases' in m)) return;
      child.off('message', on);
      resolve((m as { phases: AnalysisPhases[] }).phases);
    };
    child.on('message', on);
    child.send('phases');
  });
}

function rssOf(child: ChildProcess): Promise<{ maxRssMiB: number; rssMiB: number }> {
  return new Promise((resolve) => {
    child.once('message', (m) => resolve(m as { maxRssMiB: number; rssMiB: number }));
    child.send('rss');
  });
}

/** How many clients post the maximum analysis at once in the hammer phase of `demoProcessRss`. */
const HAMMER_CLIENTS = 16;

interface DemoRss {
  idleMiB: number;
  peakMiB: number;
  afterMiB: number;
  /** The same process once HAMMER_CLIENTS clients post maximum analyses as fast as they are answered. */
  hammer: { clients: number; peakMiB: number; statuses: Record<string, number> };
}

/**
 * Peak resident memory of `evidence-desk serve --mode sample` started as `npm run demo`
 * starts it: idle; after `seconds` of funding reads while 4 clients post the maximum
 * analysis (plus one pass of every analysis size); then with funding reads while
 * HAMMER_CLIENTS clients post it, most of them refused (503) by the bounded queue. Read
 * from /proc (VmHWM), so Linux only.
 */
/** `body` run against a fresh `evidence-desk serve --mode sample` started as `npm run demo` starts it; Linux only (/proc). */
async function withDemoProcess<T>(body: (port: number, vm: (field: 'VmHWM' | 'VmRSS') => number) => Promise<T>): Promise<T | undefined> {
  if (process.platform !== 'linux') return undefined;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-demo-'));
  const bin = path.join(here, '..', 'bin', 'evidence-desk.js');
  const child = spawn(process.execPath, ['--max-semi-space-size=4', bin, 'serve', '--mode', 'sample', '--host', '127.0.0.1', '--port', '0'], { cwd: dir, stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      let text = '';
      child.stdout.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        const m = /Server listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(text);
        if (m) resolve(Number(m[1]));
      });
      child.once('exit', (code) => reject(new Error(`evidence-desk serve exited with ${code}`)));
    });
    child.stdout.resume();
    const vm = (field: 'VmHWM' | 'VmRSS') => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(fs.readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;
    return await body(port, vm);
  } finally {
    child.kill();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Distinct query URLs walked in `queryWalkRss`: each a new answer for the answer cache. */
const QUERY_WALK = 20_000;

/**
 * Resident memory of a demo process paging through QUERY_WALK distinct `/api/v1/query` URLs
 * (8 clients): the pattern that once held 221–259 MiB (V8 kept a heap several times the live size).
 */
function queryWalkRss(): Promise<{ urls: number; idleMiB: number; peakMiB: number; afterMiB: number; seconds: number } | undefined> {
  return withDemoProcess(async (port, vm) => {
    const idleMiB = vm('VmRSS');
    const dispatcher = new Agent({ connections: 8 });
    let next = 0;
    const t0 = performance.now();
    const client = async () => {
      while (next < QUERY_WALK) {
        const i = next++;
        const res = await request(`http://127.0.0.1:${port}/api/v1/query?dataset=money_market_history&entity=e${i}`, { dispatcher });
        await res.body.dump();
        if (res.statusCode !== 200) throw new Error(`query answered ${res.statusCode}`);
      }
    };
    await Promise.all(Array.from({ length: 8 }, client));
    const seconds = (performance.now() - t0) / 1000;
    await dispatcher.close();
    return { urls: QUERY_WALK, idleMiB, peakMiB: vm('VmHWM'), afterMiB: vm('VmRSS'), seconds };
  });
}

async function demoProcessRss(seconds: number, connections: number): Promise<DemoRss | undefined> {
  return withDemoProcess(async (port, vm) => {
    await autocannon({ url: `http://127.0.0.1:${port}/v1/funding/latest`, duration: 1, connections });
    const idleMiB = vm('VmRSS');
    const posters = await startPosters(port, 4);
    await autocannon({ url: `http://127.0.0.1:${port}/v1/funding/latest`, duration: seconds, connections: Math.min(connections, 16) });
    await posters.stop();
    const dispatcher = new Agent({ connections: 4 });
    for (const c of analysisCases()) {
      const res = await request(`http://127.0.0.1:${port}${c.path}`, { method: 'POST', body: c.bytes, headers: { 'content-type': 'application/json' }, dispatcher });
      await res.body.dump();
    }
    await dispatcher.close();
    const peakMiB = vm('VmHWM');
    const afterMiB = vm('VmRSS');
    const hammer = await startPosters(port, HAMMER_CLIENTS);
    await autocannon({ url: `http://127.0.0.1:${port}/v1/funding/latest`, duration: seconds, connections: Math.min(connections, 16) });
    const statuses = await hammer.stop();
    return { idleMiB, peakMiB, afterMiB, hammer: { clients: HAMMER_CLIENTS, peakMiB: vm('VmHWM'), statuses } };
  });
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function cannon(url: string, headers: Record<string, string>, duration: number, connections: number, expect: number) {
  const r = await autocannon({ url, headers, duration, connections, pipelining: 1 });
  const codes = Object.fromEntries(Object.entries(r.statusCodeStats ?? {}).map(([k, v]) => [k, v.count]));
  const wrong = Object.entries(codes).filter(([code]) => Number(code) !== expect).reduce((n, [, c]) => n + c, 0);
  if (wrong > 0 || r.errors > 0) throw new Error(`unexpected answers from ${url}: ${JSON.stringify(codes)}, errors ${r.errors}`);
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, max: r.latency.max };
}

/** N connections opened at once, one GET each; the slowest answer and how many came within 1 s. */
async function burst(port: number, n: number) {
  const t0 = performance.now();
  const times = await Promise.all(
    Array.from({ length: n }, () => new Promise<number>((resolve) => {
      const req = http.get({ host: '127.0.0.1', port, path: '/v1/funding/latest', agent: false }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode === 200 ? performance.now() - t0 : Infinity));
      });
      req.setTimeout(10_000, () => req.destroy());
      req.on('error', () => resolve(Infinity));
    })),
  );
  return { slowestMs: Math.max(...times), within1s: times.filter((t) => t <= 1000).length, of: n };
}

// `bytes`: the body encoded once, as a client holding a request to send would have it
// (encoding a 7 MB string per request is the benchmark client's cost, not the service's).
/** Runs of each analysis, in process and over HTTP, before any is measured. */
const WARM_UP = 5;

interface AnalysisCase { name: string; path: string; body: string; bytes: Buffer; compute(parsed: unknown): unknown }

function analysisCases(): AnalysisCase[] {
  const series = (s: number, p: number) => JSON.stringify(seriesRequest({ series: s, points: p, allFields: true }));
  const medium = series(8, 512);
  const max = series(32, 2048);
  const list: Omit<AnalysisCase, 'bytes'>[] = [
    { name: 'market medium 8×512', path: '/v1/market/assess', body: medium, compute: (b) => assessMarket(b as never) },
    { name: 'spectral medium 8×512', path: '/v1/spectral/assess', body: medium, compute: (b) => assessSpectral(b as never, b) },
    { name: 'narrative 120 events', path: '/v1/narrative/triage', body: JSON.stringify(narrativeRequest({ events: 120, titleLength: 300 })), compute: (b) => triageNarrative(b as never) },
    { name: 'narrative max 500×2000ch', path: '/v1/narrative/triage', body: JSON.stringify(narrativeRequest({ events: 500, titleLength: 2000 })), compute: (b) => triageNarrative(b as never) },
    { name: 'market max 32×2048', path: '/v1/market/assess', body: max, compute: (b) => assessMarket(b as never) },
    { name: 'spectral max 32×2048', path: '/v1/spectral/assess', body: max, compute: (b) => assessSpectral(b as never, b) },
  ];
  return list.map((c) => ({ ...c, bytes: Buffer.from(c.body, 'utf8') }));
}

export default async function run(args: string[]): Promise<void> {
  const duration = option(args, 'duration', 5);
  const connections = option(args, 'connections', 32);
  const burstSize = option(args, 'burst', 256);
  const reps = option(args, 'reps', 15);
  const service = await start(['service']);
  const children = [service.child];
  const results: Record<string, unknown> = { node: process.version, cores: os.availableParallelism(), load_average_at_start: os.loadavg()[0], duration_s: duration, connections };
  try {
    const latestUrl = `http://127.0.0.1:${service.port}/v1/funding/latest`;
    const first = await fetch(latestUrl);
    if (first.status !== 200) throw new Error(`latest answered ${first.status}: ${await first.text()}`);
    const body = Buffer.from(await first.arrayBuffer());
    const etag = first.headers.get('etag')!;
    const bare = await start(['bare', body.toString('base64')]);
    children.push(bare.child);
    const bareUrl = `http://127.0.0.1:${bare.port}/`;
    // The analysis floor's server runs with Node's default heap settings, its fastest for
    // JSON.parse of a large body (the service's own 4 MB semi-spaces would slow it).
    const floorServer = await start(['bare', body.toString('base64')], []);
    children.push(floorServer.child);
    const floorUrl = `http://127.0.0.1:${floorServer.port}/`;
    for (const url of [latestUrl, bareUrl]) await autocannon({ url, duration: 2, connections });

    const servedBefore = await askChild<number>(service.child, 'served', 'served');
    const latest200 = await cannon(latestUrl, {}, duration, connections, 200);
    const served = (await askChild<number>(service.child, 'served', 'served')) - servedBefore;
    const bare200 = await cannon(bareUrl, {}, duration, connections, 200);
    const revalidatedBefore = await askChild<number>(service.child, 'revalidated', 'revalidated');
    const latest304 = await cannon(latestUrl, { 'if-none-match': etag }, duration, connections, 304);
    const revalidated = (await askChild<number>(service.child, 'revalidated', 'revalidated')) - revalidatedBefore;
    const bare304 = await cannon(bareUrl, { 'if-none-match': etag }, duration, connections, 304);
    results.funding = {
      latest_200: latest200, bare_200: bare200, ratio_200: latest200.rps / bare200.rps,
      latest_304: latest304, bare_304: bare304, ratio_304: latest304.rps / bare304.rps,
      // How many of the service's 304s were answered ahead of its router (src/http/revalidation.ts).
      latest_304_answered_ahead_of_router: revalidated,
      latest_200_sent_ahead_of_router: served,
    };

    results.burst = { service: await burst(service.port, burstSize), bare: await burst(bare.port, burstSize) };

    const dispatcher = new Agent({ connections: 64 });
    const post = async (c: AnalysisCase, to = `http://127.0.0.1:${service.port}${c.path}`, headers: Record<string, string> = {}) => {
      const t0 = performance.now();
      const res = await request(to, { method: 'POST', body: c.bytes, headers: { 'content-type': 'application/json', ...headers }, dispatcher });
      const answer = await res.body.arrayBuffer();
      return { ms: performance.now() - t0, status: res.statusCode, bytes: answer.byteLength };
    };

    // Mixed: funding reads at the same connections while 4 clients post maximum analyses,
    // from a process of their own (bench/_poster.ts): in this one, writing 7 MB bodies
    // would hold autocannon's event loop and add the client's waits to the latencies.
    const heavy = analysisCases().find((c) => c.name.startsWith('spectral max'))!;
    const posters = await startPosters(service.port, 4);
    const mixed = await cannon(latestUrl, {}, duration, Math.min(connections, 16), 200);
    const analysisStatuses = await posters.stop();
    results.mixed = { funding: mixed, analysis_statuses: analysisStatuses };

    const rows: Record<string, unknown>[] = [];
    for (const c of analysisCases()) {
      // Both sides warmed alike. Compute is timed in two halves, before and after the HTTP
      // samples, so a drift in the shared machine's speed touches both; not in alternation,
      // because this process's collector threads, busy with the parsed bodies, would then run
      // beside the service's worker during its requests.
      const computeOnce = () => {
        const parsed = JSON.parse(c.body) as unknown;
        const t0 = performance.now();
        c.compute(parsed);
        return performance.now() - t0;
      };
      let answerBytes = 0;
      const postOnce = async () => {
        const r = await post(c);
        if (r.status !== 200) throw new Error(`${c.name} answered ${r.status}`);
        answerBytes = r.bytes;
        return r.ms;
      };
      // The floor: the bare server receives the same body, reads it with JSON.parse and
      // answers as many bytes as the service did, by the same client.
      const floorOnce = async () => (await post(c, floorUrl, { 'x-answer-bytes': String(answerBytes) })).ms;
      const computeMs: number[] = [];
      const e2e: number[] = [];
      for (let i = 0; i < WARM_UP; i++) computeOnce();
      for (let i = 0; i < Math.ceil(reps / 2); i++) computeMs.push(computeOnce());
      for (let i = 0; i < WARM_UP; i++) await postOnce();
      await phasesOf(service.child);
      for (let i = 0; i < reps; i++) e2e.push(await postOnce());
      const floorMs: number[] = [];
      for (let i = 0; i < WARM_UP; i++) await floorOnce();
      for (let i = 0; i < reps; i++) floorMs.push(await floorOnce());
      for (let i = 0; i < Math.floor(reps / 2); i++) computeMs.push(computeOnce());
      const compute = median(computeMs);
      const http = median(e2e);
      const floor = median(floorMs);
      const phases = await phasesOf(service.child);
      const split = Object.fromEntries(PHASE_NAMES.map((name) => [name, median(phases.map((p) => p[name]))]));
      rows.push({ case: c.name, body_bytes: Buffer.byteLength(c.body), compute_median_ms: compute, e2e_median_ms: http, e2e_over_compute: http / compute,
        floor_median_ms: floor, floor_plus_compute_over_compute: (floor + compute) / compute, split_median_ms: { ...split, client: http - split.server } });
    }
    results.analysis = rows;
    await dispatcher.close();
    results.rss = await rssOf(service.child);
    // The service child above is the benchmark's own process (transpiler hooks, fixtures):
    // the product's figure comes from a real demo process, stopped first so they do not overlap.
    for (const child of children.splice(0)) child.disconnect?.();
    results.rss_demo_process = await demoProcessRss(duration, connections);
    results.rss_query_walk = await queryWalkRss();

    const f = results.funding as Record<string, { rps: number; p50: number; p99: number } | number>;
    const line = (name: string, r: { rps: number; p50: number; p99: number }) => `${name.padEnd(34)} ${r.rps.toFixed(0).padStart(8)} req/s   p50 ${r.p50} ms   p99 ${r.p99} ms`;
    console.log(SERVICE_BUILD_NOTE);
    console.log(`load benchmark: Node ${process.version}, ${os.availableParallelism()} cores, load average ${os.loadavg()[0].toFixed(1)}, ${connections} connections, ${duration} s per run`);
    console.log(line('evidence-desk latest 200', f.latest_200 as never));
    console.log(line('bare node:http 200', f.bare_200 as never));
    console.log(line('evidence-desk latest 304', f.latest_304 as never));
    console.log(line('bare node:http 304', f.bare_304 as never));
    console.log(`ratio to bare: 200 ${(f.ratio_200 as number).toFixed(2)}   304 ${(f.ratio_304 as number).toFixed(2)}   (goal ≥ 0.5)`);
    console.log(`evidence-desk answers ahead of the router (src/http/revalidation.ts): 200 ${f.latest_200_sent_ahead_of_router as number}, 304 ${f.latest_304_answered_ahead_of_router as number}`);
    const b = results.burst as { service: ReturnType<typeof burst> extends Promise<infer T> ? T : never; bare: { slowestMs: number } };
    console.log(`burst of ${burstSize} connections: ${b.service.within1s}/${b.service.of} answered within 1 s, slowest ${b.service.slowestMs.toFixed(0)} ms (bare: ${b.bare.slowestMs.toFixed(0)} ms)`);
    console.log(`mixed (funding reads + 4 clients posting ${heavy.name}): funding p50 ${mixed.p50} ms, p99 ${mixed.p99} ms (goal ≤ 20); analysis answers ${JSON.stringify(analysisStatuses)}`);
    // floor: a bare node:http server receiving the same body, reading it with JSON.parse and
    // answering as many bytes; (floor + compute) ÷ compute is the best ratio a server that
    // adds nothing but the computation could reach.
    console.log('analysis, medians:                 compute ms   end-to-end ms   ratio (goal ≤ 2)   floor ms   (floor + compute) ÷ compute');
    for (const r of rows as { case: string; compute_median_ms: number; e2e_median_ms: number; e2e_over_compute: number; floor_median_ms: number; floor_plus_compute_over_compute: number }[]) {
      console.log(`  ${r.case.padEnd(32)} ${r.compute_median_ms.toFixed(2).padStart(10)} ${r.e2e_median_ms.toFixed(2).padStart(15)} ${r.e2e_over_compute.toFixed(2).padStart(9)} ${r.floor_median_ms.toFixed(2).padStart(18)} ${r.floor_plus_compute_over_compute.toFixed(2).padStart(12)}`);
    }
    // Inside the server: body received, hand-off to the worker (queue + message), strict
    // reading, validation + computation + digest, encoding, hand-back, response written.
    console.log('analysis split per operation, server-side medians in ms (client = end-to-end less server):');
    const columns = [...PHASE_NAMES, 'client'];
    console.log(`  ${''.padEnd(32)}${columns.map((n) => n.padStart(11)).join('')}`);
    for (const r of rows as { case: string; split_median_ms: Record<string, number> }[]) {
      console.log(`  ${r.case.padEnd(32)}${columns.map((n) => r.split_median_ms[n].toFixed(2).padStart(11)).join('')}`);
    }
    const rss = results.rss as { maxRssMiB: number };
    console.log(`service peak RSS over the whole run: ${rss.maxRssMiB.toFixed(0)} MiB (the benchmark child, transpiler and fixtures included)`);
    const demo = results.rss_demo_process as DemoRss | undefined;
    if (demo) {
      console.log(`evidence-desk serve --mode sample under the mixed load: idle ${demo.idleMiB.toFixed(0)} MiB, peak ${demo.peakMiB.toFixed(0)} MiB, after ${demo.afterMiB.toFixed(0)} MiB (goal: peak ≤ 200)`);
      console.log(`  then ${demo.hammer.clients} clients posting the maximum analysis: peak ${demo.hammer.peakMiB.toFixed(0)} MiB (goal ≤ 200); answers ${JSON.stringify(demo.hammer.statuses)}`);
    } else console.log('evidence-desk serve peak RSS: not measured (needs /proc, Linux only)');
    const walk = results.rss_query_walk as Awaited<ReturnType<typeof queryWalkRss>>;
    if (walk) console.log(`a fresh demo process paging through ${walk.urls} distinct query URLs (8 clients, ${walk.seconds.toFixed(0)} s): idle ${walk.idleMiB.toFixed(0)} MiB, peak ${walk.peakMiB.toFixed(0)} MiB, after ${walk.afterMiB.toFixed(0)} MiB (goal: peak ≤ 200)`);
    if (!args.includes('--no-write')) {
      fs.writeFileSync(path.join(here, 'results.json'), `${JSON.stringify({ measured_at: new Date().toISOString(), service_build: SERVICE_BUILD, ...results }, null, 2)}\n`);
      console.log('written to bench/results.json');
    }
  } finally {
    for (const child of children) child.disconnect?.();
  }
}
