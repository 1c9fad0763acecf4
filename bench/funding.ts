// Funding read benchmark: requests per second for GET /v1/funding/latest answered 200 and
// answered 304 (If-None-Match), on the real server (SQLite, one captured packet, every
// check re-run per request: newest attempt, freshness, SHA-256 of all three artifacts,
// canonical body and ETag, usage hook), against a bare node:http server returning the
// same bytes from memory — both measured in the same run with the same load.
// Usage: npm run bench -- funding [--duration 10] [--connections 10]
import { fork, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

interface CannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  non2xx: number;
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

function start(args: string[]): Promise<{ child: ChildProcess; port: number; checksMs?: number }> {
  const child = fork(path.join(here, '_funding-server.ts'), args, { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    child.once('message', (m) => resolve({ child, ...(m as { port: number; checksMs?: number }) }));
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
}

async function measure(url: string, headers: Record<string, string>, duration: number, connections: number, expect: number) {
  const result = await autocannon({ url, headers, duration, connections, pipelining: 1 });
  const codes = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([k, v]) => [k, v.count]));
  const wrong = Object.entries(codes).filter(([code]) => Number(code) !== expect).reduce((n, [, c]) => n + c, 0);
  if (wrong > 0 || result.errors > 0) throw new Error(`unexpected answers from ${url}: ${JSON.stringify(codes)}, errors ${result.errors}`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

export default async function run(args: string[]): Promise<void> {
  const duration = option(args, 'duration', 10);
  const connections = option(args, 'connections', 10);
  const service = await start(['service']);
  const children = [service.child];
  try {
    const latestUrl = `http://127.0.0.1:${service.port}/v1/funding/latest`;
    const first = await fetch(latestUrl);
    if (first.status !== 200) throw new Error(`latest answered ${first.status}: ${await first.text()}`);
    const body = Buffer.from(await first.arrayBuffer());
    const etag = first.headers.get('etag')!;
    const bare = await start(['bare', body.toString('base64')]);
    children.push(bare.child);
    const bareUrl = `http://127.0.0.1:${bare.port}/`;

    console.log(`funding latest benchmark: body ${body.length} bytes, ${connections} connections, ${duration} s per run, autocannon, Node ${process.version}`);
    // A short warm-up of each target so JIT and caches are in the same state for both.
    for (const [url, h] of [[latestUrl, {}], [bareUrl, {}]] as const) await autocannon({ url, headers: h, duration: 2, connections });

    const rows: [string, { rps: number; p50: number; p99: number }][] = [];
    rows.push(['evidence-desk latest 200', await measure(latestUrl, {}, duration, connections, 200)]);
    rows.push(['bare node:http 200', await measure(bareUrl, {}, duration, connections, 200)]);
    rows.push(['evidence-desk latest 304', await measure(latestUrl, { 'if-none-match': etag }, duration, connections, 304)]);
    rows.push(['bare node:http 304', await measure(bareUrl, { 'if-none-match': etag }, duration, connections, 304)]);
    for (const [name, r] of rows) console.log(`${name.padEnd(28)} ${r.rps.toFixed(0).padStart(8)} req/s   p50 ${r.p50} ms   p99 ${r.p99} ms`);
    const ratio200 = rows[0][1].rps / rows[1][1].rps;
    const ratio304 = rows[2][1].rps / rows[3][1].rps;
    console.log(`ratio evidence-desk / bare: 200 ${ratio200.toFixed(3)}   304 ${ratio304.toFixed(3)}`);
    console.log(`read checks + body alone (in process, no HTTP, no usage recording): ${service.checksMs?.toFixed(3)} ms per request`);
  } finally {
    for (const child of children) child.disconnect?.();
  }
}
