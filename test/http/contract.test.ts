// The contract test: every operation of /openapi.json, every documented status, against
// real answers. For each status a scenario (test/http/contract-scenarios.ts) drives the
// app in sample mode; the body — pre-encoded bytes included — is parsed and validated
// with ajv (strict, JSON Schema 2020-12) against the schema documented for that status
// and media type. Response objects are closed with complete `required` lists, so a
// member added in code and not in the schema fails; a documented optional member that no
// success body ever carries fails too.
import { setTimeout as sleep } from 'node:timers/promises';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lookupError } from '../../src/core/errors.js';
import { parseStrictJson } from '../../src/core/json.js';
import { isUtcTimestamp } from '../../src/core/time.js';
import { MAX_GUARDED_HEADER, maxQueryLengthFor } from '../../src/http/app.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { exchange, parseResponses, portOf } from '../helpers/raw-http.js';
import { sqliteBackend } from '../helpers/storage.js';
import { declareOptional, markSeen, newCoverage } from '../helpers/schema-coverage.js';
import { openFundingHarness } from '../funding/harness.js';
import { enrolled } from '../applications/support.js';
import { SCENARIOS, UNREACHABLE, type FixtureApp, type Fixtures, type Scenario } from './contract-scenarios.js';

type Schema = Record<string, unknown>;
interface MediaObject { schema: Schema }
interface ResponseObject { description: string; content?: Record<string, MediaObject> }
interface Operation { operationId: string; responses: Record<string, ResponseObject>; requestBody?: { content: Record<string, MediaObject> } }
interface Documented { method: string; path: string; operation: Operation }

const START = '2026-11-20T15:30:00Z';

// The document as any instance serves it (the scenarios' fixtures are built below).
const documentApp = await makeTestApp({ mode: 'sample' });
const openapi = (await documentApp.app.inject({ url: '/openapi.json' })).json<{ paths: Record<string, Record<string, Operation>> }>();
await documentApp.close();

const OPERATIONS: Documented[] = Object.entries(openapi.paths).flatMap(([path, methods]) =>
  Object.entries(methods).map(([method, operation]) => ({ method: method.toUpperCase(), path, operation })),
);

const ajv = new Ajv2020({ strict: true, allErrors: true });
ajv.addFormat('utc-date-time', { type: 'string', validate: isUtcTimestamp });
const compiled = new WeakMap<Schema, ValidateFunction>();
const validator = (schema: Schema): ValidateFunction => {
  let fn = compiled.get(schema);
  if (!fn) compiled.set(schema, (fn = ajv.compile(schema)));
  return fn;
};

const coverage = newCoverage();
const answered = new Map<string, Set<number>>();

let f: Fixtures;
let shed: TestApp;
const closers: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  const main = await openFundingHarness({ mode: 'sample', start: START });
  closers.push(() => main.close());
  const packets: string[] = [];
  for (let i = 0; i < 3; i++) {
    if (i > 0) main.clock.advance(900);
    packets.push((await main.captured()).packet_id!);
  }
  const sampleApp = async (overrides: Parameters<typeof makeTestApp>[0], options: Parameters<typeof makeTestApp>[1] = {}) => {
    const t = await makeTestApp({ mode: 'sample', ...overrides }, options);
    closers.push(() => t.close());
    return t;
  };
  const stale = await sampleApp({}, { storage: main.storage, clock: () => main.clock() + 7_200_000_000n });
  const closedStore = await sqliteBackend.open();
  await closedStore.cleanup();
  const broken = await sampleApp({}, { storage: closedStore.storage, clock: main.clock });
  const small = await sampleApp({ bodyLimit: 1024 });
  const full = await sampleApp({}, { clock: main.clock });
  const hosts = await sampleApp({ allowedHosts: ['evidence.example'] });
  const today = START.slice(0, 10);
  await full.storage.db
    .insertInto('applications')
    .values(Array.from({ length: 100 }, (_, i) => ({
      id: i.toString(16).padStart(32, '0'), token_hash: i.toString(16).padStart(64, '0'),
      created_day: today, last_seen_day: today, traffic_class: 'unverified' as const, evidence_sha256: null,
    })))
    .execute();
  shed = await sampleApp({ maxEventLoopDelay: 40 });
  const enroll = async () => (await enrolled(main.app)).token;
  f = { main, packets: packets as Fixtures['packets'], token: await enroll(), stale, broken, small, full, hosts, enroll };
});

afterAll(async () => {
  for (const close of closers.reverse()) await close();
});

function appFor(name: FixtureApp = 'main') {
  return name === 'main' ? f.main.app : f[name].app;
}

function withQuery(url: string, query: string): string {
  return url + (url.includes('?') ? '&' : '?') + query;
}

/**
 * Saturates the event loop, then sends the request: the shell sheds it with 503. The
 * shedding decision samples the loop delay on a timer, so a request may slip in before
 * the sampler has seen the block; it is sent again (to an app whose store nothing else
 * reads) until the shed answer comes.
 */
async function whileSaturated(options: InjectOptions): Promise<LightMyRequestResponse> {
  let res: LightMyRequestResponse | undefined;
  for (let attempt = 0; attempt < 10; attempt++) {
    for (let i = 0; i < 60 && (await shed.app.inject({ url: '/healthz' })).statusCode !== 200; i++) await sleep(50);
    const until = Date.now() + 300;
    while (Date.now() < until) { /* block the loop on purpose */ }
    await sleep(1); // the overdue sampler usually runs first and sees the delay
    res = await shed.app.inject(options);
    if (res.statusCode === 503 && (JSON.parse(res.body) as { code?: string }).code === 'overloaded') return res;
  }
  return res!;
}

/** Scenarios every operation shares: the shell's guards, in front of every route. */
function sharedScenarios(method: string, url: (f: Fixtures) => string): Record<number, Scenario[]> {
  return {
    400: [
      { name: 'credentials in the URL', request: (x) => ({ method: method as 'GET', url: withQuery(url(x), 'token=secret') }) },
      { name: 'a Host the instance does not answer for', app: 'hosts', request: (x) => ({ method: method as 'GET', url: url(x), headers: { host: 'attacker.example' } }) },
    ],
    414: [{ name: 'over-long query', request: (x) => ({ method: method as 'GET', url: withQuery(url(x), `q=${'a'.repeat(maxQueryLengthFor(url(x).split('?')[0]))}`) }) }],
    431: [{ name: 'over-long If-None-Match', request: (x) => ({ method: method as 'GET', url: url(x), headers: { 'if-none-match': 'x'.repeat(MAX_GUARDED_HEADER + 1) } }) }],
  };
}

function parseBody(mediaType: string, res: LightMyRequestResponse): unknown {
  return mediaType === 'application/json' || mediaType.endsWith('+json') ? parseStrictJson(res.rawPayload) : res.body;
}

/** Checks one real answer against the documented response for its status. */
function checkAnswer(op: Documented, status: number, res: LightMyRequestResponse, where: string): void {
  const documented = op.operation.responses[String(status)];
  expect(documented, `${where}: status ${status} is not documented`).toBeDefined();
  if (!documented.content) {
    expect(res.rawPayload.length, `${where}: a ${status} has no body`).toBe(0);
    return;
  }
  const mediaType = String(res.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  const media = documented.content[mediaType];
  expect(media, `${where}: ${mediaType} is not documented for ${status} (${Object.keys(documented.content).join(', ')})`).toBeDefined();
  const body = parseBody(mediaType, res);
  const validate = validator(media.schema);
  expect(validate(body), `${where}: the body breaks its schema: ${ajv.errorsText(validate.errors)}\n${res.body.slice(0, 400)}`).toBe(true);
  if (status < 300) markSeen(coverage, `${op.operation.operationId} ${status} ${mediaType}`, media.schema, body, validator);
}

/** The request body of a success scenario must satisfy the documented request schema. */
function checkRequest(op: Documented, options: InjectOptions, where: string): void {
  const schema = op.operation.requestBody?.content['application/json']?.schema;
  if (!schema || typeof options.payload !== 'string') return;
  const validate = validator(schema);
  expect(validate(parseStrictJson(options.payload)), `${where}: the request breaks the documented request schema: ${ajv.errorsText(validate.errors)}`).toBe(true);
}

describe('the OpenAPI document', () => {
  it('documents every operation with its success and error answers', () => {
    expect(OPERATIONS.length).toBeGreaterThan(0);
    for (const { operation } of OPERATIONS) {
      expect(Object.keys(operation.responses).some((s) => Number(s) < 300), operation.operationId).toBe(true);
      expect(Object.keys(operation.responses).some((s) => Number(s) >= 400), operation.operationId).toBe(true);
    }
  });

  it('has a schema ajv compiles strictly for every documented body', () => {
    for (const { operation } of OPERATIONS) {
      for (const [status, response] of Object.entries(operation.responses)) {
        for (const [type, media] of Object.entries(response.content ?? {})) {
          expect(() => validator(media.schema), `${operation.operationId} ${status} ${type}`).not.toThrow();
          if (Number(status) < 300) declareOptional(coverage, `${operation.operationId} ${status} ${type}`, media.schema);
        }
      }
    }
  });

  it('lists, for each error status, registry codes of exactly that status', () => {
    for (const { operation } of OPERATIONS) {
      for (const [status, response] of Object.entries(operation.responses)) {
        if (Number(status) < 400) continue;
        type Body = { properties?: { code?: { enum?: string[] } } };
        const schema = response.content?.['application/json']?.schema as (Body & { anyOf?: Body[] }) | undefined;
        // One body schema, or (431) the alternatives the status can come in: each lists the codes.
        for (const body of schema?.anyOf ?? [schema]) {
          const codes = body?.properties?.code?.enum;
          expect(codes?.length, `${operation.operationId} ${status}`).toBeGreaterThan(0);
          for (const code of codes ?? []) expect(lookupError(code)?.status, `${operation.operationId} ${status} ${code}`).toBe(Number(status));
        }
      }
    }
  });

  it('documents the 431 the HTTP parser gives a header section beyond its limit, for every operation', async () => {
    await f.small.app.listen({ host: '127.0.0.1', port: 0 });
    const port = portOf(f.small.app);
    for (const op of OPERATIONS) {
      const path = SCENARIOS[op.operation.operationId].url(f);
      const got = await exchange(port, `${op.method} ${path} HTTP/1.1\r\nHost: x\r\nX-Padding: ${'a'.repeat(20_000)}\r\nConnection: close\r\n\r\n`, { limitMs: 3000 });
      const [answer] = parseResponses(got.bytes);
      expect(answer.status, path).toBe(431);
      const validate = validator(op.operation.responses['431'].content!['application/json'].schema);
      const body = parseStrictJson(answer.body);
      expect(validate(body), `${op.operation.operationId}: ${ajv.errorsText(validate.errors)} ${answer.body.toString()}`).toBe(true);
    }
  });

  it('documents the edge\'s refusals (no Host, an unknown expectation, a broken request line, a raw byte in the target) for every operation', async () => {
    const port = portOf(f.small.app);
    for (const op of OPERATIONS) {
      const path = SCENARIOS[op.operation.operationId].url(f);
      for (const [request, status, code] of [
        [`${op.method} ${path} HTTP/1.1\r\nConnection: close\r\n\r\n`, 400, 'invalid_host'],
        [`${op.method} ${path} HTTP/1.1\r\nHost: x\r\nExpect: teapot\r\nConnection: close\r\n\r\n`, 417, 'expectation_failed'],
        [`${op.method} ${path} HTTP/1.1\r\nHost: x\r\nX-A: a\r\n b\r\n\r\n`, 400, 'malformed_request'],
        // A byte a URL may not hold, sent as itself (latin1: one byte 0xE9) in the query.
        [`${op.method} ${path}${path.includes('?') ? '&' : '?'}x=\u00e9 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`, 400, 'malformed_url'],
      ] as const) {
        const got = await exchange(port, request, { limitMs: 3000 });
        const [answer] = parseResponses(got.bytes);
        expect(answer.status, `${path} ${code}`).toBe(status);
        const body = parseStrictJson(answer.body) as { code: string };
        expect(body.code).toBe(code);
        const validate = validator(op.operation.responses[String(status)].content!['application/json'].schema);
        expect(validate(body), `${op.operation.operationId} ${code}: ${ajv.errorsText(validate.errors)}`).toBe(true);
      }
    }
  });

  it('names a scenario or a reason for every documented status of every operation', () => {
    const missing: string[] = [];
    for (const { operation, method } of OPERATIONS) {
      const own = SCENARIOS[operation.operationId];
      if (!own) {
        missing.push(`${operation.operationId}: no scenarios`);
        continue;
      }
      const reachable = new Set([...Object.keys(own.statuses), ...Object.keys(sharedScenarios(method, own.url)), '503']);
      const unreachable = { ...UNREACHABLE['*'], ...UNREACHABLE[operation.operationId] };
      for (const status of Object.keys(operation.responses)) {
        if (!reachable.has(status) && !(status in unreachable)) missing.push(`${operation.operationId} ${status}`);
      }
      for (const status of Object.keys(own.statuses)) {
        if (!(status in operation.responses)) missing.push(`${operation.operationId} ${status}: a scenario for an undocumented status`);
      }
    }
    expect(missing).toEqual([]);
  });
});

describe.each(OPERATIONS)('$method $path ($operation.operationId)', (op) => {
  const id = op.operation.operationId;

  it('answers every reachable documented status with a body its schema accepts', async () => {
    const own = SCENARIOS[id];
    expect(own, `no scenarios for ${id}`).toBeDefined();
    const statuses = new Set<number>();
    const all: [number, Scenario][] = [];
    for (const [status, list] of Object.entries({ ...sharedScenarios(op.method, own.url) })) for (const s of list) all.push([Number(status), s]);
    for (const [status, list] of Object.entries(own.statuses)) for (const s of list) all.push([Number(status), s]);
    for (const [status, scenario] of all) {
      const options = await scenario.request(f);
      const res = await appFor(scenario.app).inject({ method: op.method as 'GET', ...options });
      const where = `${id} ${status} (${scenario.name})`;
      expect(res.statusCode, `${where}: ${res.body.slice(0, 300)}`).toBe(status);
      checkAnswer(op, status, res, where);
      if (status < 300) checkRequest(op, options, where);
      statuses.add(status);
    }
    // Every operation documents load shedding; reach it for each.
    const shedRes = await whileSaturated({ method: op.method as 'GET', url: own.url(f) });
    expect(shedRes.statusCode, `${id} under load`).toBe(503);
    expect(shedRes.json()).toMatchObject({ code: 'overloaded' });
    expect(shedRes.headers['retry-after']).toBe('1');
    checkAnswer(op, 503, shedRes, `${id} 503 (load shedding)`);
    statuses.add(503);
    answered.set(id, statuses);
  });
});

describe('coverage', () => {
  it('reached every documented status except the ones named unreachable', () => {
    const gaps: string[] = [];
    for (const { operation } of OPERATIONS) {
      const reached = answered.get(operation.operationId) ?? new Set();
      const unreachable = { ...UNREACHABLE['*'], ...UNREACHABLE[operation.operationId] };
      for (const status of Object.keys(operation.responses)) {
        if (!reached.has(Number(status)) && !(status in unreachable)) gaps.push(`${operation.operationId} ${status}`);
      }
    }
    expect(gaps).toEqual([]);
  });

  it('saw every optional member of every success body in some real answer', () => {
    expect(coverage.optional.size).toBeGreaterThan(0);
    const unseen = [...coverage.optional].filter((location) => !coverage.seen.has(location));
    expect(unseen).toEqual([]);
  });
});
