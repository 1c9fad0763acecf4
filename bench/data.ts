// Data query benchmark: requests per second for a 200-row GET /api/v1/query with the
// source cache warm — the current snapshot (200) and a chosen snapshot (200, and 304 on its
// ETag) — on the real server (SQLite, live mode, local source server; per request: store
// lookups of the current retrieval and snapshot, projection, paging, Python-style encoding,
// SHA-256 ETag, usage measurement), against a bare node:http server and a bare Fastify
// route returning the same bytes from memory, all in the same run with the same load.
// A revalidation of the pinned answer (If-None-Match naming its tag, no other header that
// matters) is answered ahead of the router (src/http/revalidation.ts) once the route has
// served that URL: the run prints how many of its 304s were.
// Besides requests/s it reports each server's CPU time per request (user + system, read
// from the server process around the run): on a shared machine that figure moves much
// less than requests/s, so its ratios are printed too. The load average is printed first.
// Usage: npm run bench -- data [--duration 10] [--connections 10]
import { askChild, forkChild } from './_fork.js';
import { SERVICE_BUILD_NOTE } from './_service.js';
import type { ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import os from 'node:os';

interface CannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  errors: number;
  statusCodeStats?: Record<string, { count: number }>;
}
type Cannon = (options: Record<string, unknown>) => Promise<CannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Cannon;


function option(args: string[], name: string, fallback: number): number {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] !== undefined ? Number(args[i + 1]) : fallback;
}

function start(args: string[], body?: Buffer): Promise<{ child: ChildProcess; port: number }> {
  const child = forkChild('_data-server.ts', args);
  if (body) child.send(body.toString('base64'));
  return new Promise((resolve, reject) => {
    child.once('message', (m) => resolve({ child, ...(m as { port: number }) }));
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
}

interface Row { rps: number; p50: number; p99: number; cpuUs: number; total: number }

function cpuOf(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    const onMessage = (m: unknown) => {
      if (typeof m === 'object' && m !== null && 'cpu' in m) {
        child.off('message', onMessage);
        const { user, system } = (m as { cpu: NodeJS.CpuUsage }).cpu;
        resolve(user + system);
      }
    };
    child.on('message', onMessage);
    child.send('cpu');
  });
}

async function measure(child: ChildProcess, url: string, headers: Record<string, string>, duration: number, connections: number, expect: number): Promise<Row> {
  const before = await cpuOf(child);
  const result = await autocannon({ url, headers, duration, connections, pipelining: 1 });
  const cpu = (await cpuOf(child)) - before;
  const codes = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([k, v]) => [k, v.count]));
  const wrong = Object.entries(codes).filter(([code]) => Number(code) !== expect).reduce((n, [, c]) => n + c, 0);
  if (wrong > 0 || result.errors > 0) throw new Error(`unexpected answers from ${url}: ${JSON.stringify(codes)}, errors ${result.errors}`);
  const total = result.requests.total;
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, cpuUs: cpu / Math.max(1, total), total };
}

export default async function run(args: string[]): Promise<void> {
  const duration = option(args, 'duration', 10);
  const connections = option(args, 'connections', 10);
  const service = await start(['service']);
  const children = [service.child];
  try {
    const base = `http://127.0.0.1:${service.port}/api/v1/query?dataset=money_market_history&limit=200`;
    const first = await fetch(base);
    if (first.status !== 200) throw new Error(`query answered ${first.status}: ${await first.text()}`);
    const current = (await first.json()) as { returned_rows: number; snapshot_id: string };
    if (current.returned_rows !== 200) throw new Error(`expected 200 rows, got ${current.returned_rows}`);
    const pinnedUrl = `${base}&snapshot=${current.snapshot_id}`;
    const pinned = await fetch(pinnedUrl);
    const body = Buffer.from(await pinned.arrayBuffer());
    const etag = pinned.headers.get('etag')!;
    const bare = await start(['bare'], body);
    const fastify = await start(['fastify'], body);
    children.push(bare.child, fastify.child);
    const bareUrl = `http://127.0.0.1:${bare.port}/`;
    const fastifyUrl = `http://127.0.0.1:${fastify.port}/`;

    console.log(SERVICE_BUILD_NOTE);
    console.log(`data query benchmark: 200 rows, body ${body.length} bytes, ${connections} connections, ${duration} s per run, autocannon, Node ${process.version}`);
    console.log(`load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')} on ${os.cpus().length} CPU(s)`);
    for (const url of [base, pinnedUrl, bareUrl, fastifyUrl]) await autocannon({ url, duration: 2, connections });

    const inm = { 'if-none-match': etag };
    const rows: [string, Row][] = [
      ['evidence-desk query 200 (current)', await measure(service.child, base, {}, duration, connections, 200)],
      ['evidence-desk query 200 (snapshot=)', await measure(service.child, pinnedUrl, {}, duration, connections, 200)],
      ['bare node:http 200', await measure(bare.child, bareUrl, {}, duration, connections, 200)],
      ['bare fastify 200', await measure(fastify.child, fastifyUrl, {}, duration, connections, 200)],
    ];
    const revalidatedBefore = await askChild<number>(service.child, 'revalidated', 'revalidated');
    rows.push(['evidence-desk query 304 (snapshot=)', await measure(service.child, pinnedUrl, inm, duration, connections, 304)]);
    const revalidated = (await askChild<number>(service.child, 'revalidated', 'revalidated')) - revalidatedBefore;
    rows.push(['bare node:http 304', await measure(bare.child, bareUrl, inm, duration, connections, 304)]);
    rows.push(['bare fastify 304', await measure(fastify.child, fastifyUrl, inm, duration, connections, 304)]);
    for (const [name, r] of rows) {
      console.log(`${name.padEnd(38)} ${r.rps.toFixed(0).padStart(8)} req/s   p50 ${r.p50} ms   p99 ${r.p99} ms   server CPU ${r.cpuUs.toFixed(0).padStart(5)} µs/request`);
    }
    const by = Object.fromEntries(rows);
    console.log(`evidence-desk 304s answered ahead of the router (src/http/revalidation.ts): ${revalidated} (autocannon counted ${by['evidence-desk query 304 (snapshot=)'].total} responses in its window)`);
    const ratio = (a: string, b: string) => (by[a].rps / by[b].rps).toFixed(3);
    const cpuRatio = (a: string, b: string) => (by[b].cpuUs / by[a].cpuUs).toFixed(3);
    console.log(`ratio to bare node:http: 200 current ${ratio('evidence-desk query 200 (current)', 'bare node:http 200')}   200 pinned ${ratio('evidence-desk query 200 (snapshot=)', 'bare node:http 200')}   304 ${ratio('evidence-desk query 304 (snapshot=)', 'bare node:http 304')}   (goal ≥ 0.3 for 200, ≥ 0.5 for 304)`);
    console.log(`ratio to bare fastify:   200 current ${ratio('evidence-desk query 200 (current)', 'bare fastify 200')}   200 pinned ${ratio('evidence-desk query 200 (snapshot=)', 'bare fastify 200')}   304 ${ratio('evidence-desk query 304 (snapshot=)', 'bare fastify 304')}`);
    console.log(`CPU/request ratio, bare node:http ÷ evidence-desk: 200 current ${cpuRatio('evidence-desk query 200 (current)', 'bare node:http 200')}   200 pinned ${cpuRatio('evidence-desk query 200 (snapshot=)', 'bare node:http 200')}   304 ${cpuRatio('evidence-desk query 304 (snapshot=)', 'bare node:http 304')}`);
  } finally {
    for (const child of children) child.disconnect?.();
  }
}
