// The group C review tools over Streamable HTTP, driven by the SDK client against a
// listening sample-mode service: funding_review, agent_review and the data tools answer
// with exactly the bytes of their REST routes, and a refusal carries the REST 422 body
// (registry code included) with isError.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { openFundingHarness, type FundingHarness } from '../funding/harness.js';

let h: FundingHarness;
let base: string;
let client: Client;

beforeAll(async () => {
  h = await openFundingHarness({ mode: 'sample', start: '2026-11-20T15:30:00Z' });
  await h.captured();
  base = await h.app.listen({ port: 0, host: '127.0.0.1' });
  client = new Client({ name: 'evidence-desk-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
}, 60_000);

afterAll(async () => {
  await client?.close();
  await h?.close();
});

/** The REST body over the listening server, as any HTTP client receives it. */
async function rest(url: string): Promise<{ status: number; text: string }> {
  const res = await fetch(base + url);
  return { status: res.status, text: await res.text() };
}

async function call(name: string, args: Record<string, unknown>): Promise<{ text: string; isError: boolean; body: Record<string, unknown> }> {
  const result = await client.callTool({ name, arguments: args });
  const text = (result.content as { type: string; text: string }[])[0].text;
  return { text, isError: result.isError === true, body: result.structuredContent as Record<string, unknown> };
}

/**
 * Asserts the tool's text is byte for byte the 200 body of the REST route, and returns it
 * parsed. A first REST call warms the source cache both surfaces share (each source entry
 * reports cache.hit), and the clock stands still, so the two answers must be identical.
 */
async function sameAsRest(name: string, args: Record<string, unknown>, url: string): Promise<Record<string, unknown>> {
  await rest(url);
  const expected = await rest(url);
  expect(expected.status, url).toBe(200);
  const got = await call(name, args);
  expect(got.isError, name).toBe(false);
  expect(got.text, `${name} vs ${url}`).toBe(expected.text);
  expect(got.body).toEqual(JSON.parse(expected.text));
  return got.body;
}

describe('funding_review and agent_review over MCP', () => {
  it('lists both tools with closed input schemas that name previous_revision and snapshot', async () => {
    const { tools } = await client.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect(byName.get('funding_review')?.inputSchema).toMatchObject({ type: 'object', additionalProperties: false });
    const review = byName.get('agent_review')!;
    expect(Object.keys(review.inputSchema.properties ?? {}).sort()).toEqual(['bank', 'limit', 'previous_revision', 'snapshot']);
    expect(review.inputSchema).toMatchObject({ additionalProperties: false });
    for (const name of ['funding_review', 'agent_review']) expect(byName.get(name)!.annotations?.readOnlyHint).toBe(true);
  });

  it('answers funding_review with the REST body of /api/v1/funding-review (a ready review here)', async () => {
    const body = await sameAsRest('funding_review', {}, '/api/v1/funding-review');
    expect(body).toMatchObject({ available: true, ready: true });
  });

  it('answers agent_review with the REST body, with and without bank and limit', async () => {
    const plain = await sameAsRest('agent_review', {}, '/api/v1/agent-review');
    expect((plain.sections as { dataset: string }[]).map((s) => s.dataset)).toEqual(['money_markets', 'bank_risk', 'market_liquidity']);
    await sameAsRest('agent_review', { bank: 'bank', limit: 3 }, '/api/v1/agent-review?bank=bank&limit=3');
  });

  it('suppresses rows for a matching previous_revision and pins snapshots, as REST does', async () => {
    const first = await call('agent_review', { limit: 2 });
    const revision = first.body.revision as string;
    const snapshot = first.body.snapshot_id as string;
    expect(revision).toMatch(/^[0-9a-f]{64}$/);
    const unchanged = await sameAsRest('agent_review', { limit: 2, previous_revision: revision }, `/api/v1/agent-review?limit=2&previous_revision=${revision}`);
    expect(unchanged.change_status).toBe('unchanged');
    for (const section of unchanged.sections as { results: unknown[] }[]) expect(section.results).toEqual([]);
    const pinned = await sameAsRest('agent_review', { limit: 2, snapshot }, `/api/v1/agent-review?limit=2&snapshot=${snapshot}`);
    expect(pinned.snapshot_id).toBe(snapshot);
    expect(pinned.revision).toBe(revision);
  });

  it('answers data_query and data_sources with the REST bytes too (Python number forms kept)', async () => {
    await sameAsRest('data_query', { dataset: 'money_markets', limit: 5 }, '/api/v1/query?dataset=money_markets&limit=5');
    await sameAsRest('data_query', { dataset: 'market_liquidity', limit: 5 }, '/api/v1/query?dataset=market_liquidity&limit=5');
    await sameAsRest('data_sources', {}, '/api/v1/sources');
  });

  it('refuses invalid arguments with isError and the REST 422 body and its registry code', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ previous_revision: 'ABC' }, 'previous_revision=ABC', 'invalid_revision'],
      [{ limit: 26 }, 'limit=26', 'invalid_limit'],
      [{ snapshot: 'not-a-snapshot' }, 'snapshot=not-a-snapshot', 'invalid_snapshot_id'],
      [{ bank: 'b'.repeat(101) }, `bank=${'b'.repeat(101)}`, 'entity_too_long'],
    ];
    for (const [args, query, code] of cases) {
      const expected = await rest(`/api/v1/agent-review?${query}`);
      expect(expected.status, query).toBe(422);
      const got = await call('agent_review', args);
      expect(got.isError, query).toBe(true);
      expect(got.body, query).toEqual(JSON.parse(expected.text));
      expect(got.body.code, query).toBe(code);
    }
    const stored = await rest(`/api/v1/agent-review?snapshot=${['0'.repeat(32), '1'.repeat(32), '2'.repeat(32)].join(',')}`);
    const missing = await call('agent_review', { snapshot: ['0'.repeat(32), '1'.repeat(32), '2'.repeat(32)].join(',') });
    expect(missing.isError).toBe(true);
    expect(missing.body).toEqual(JSON.parse(stored.text));
  });

  it('refuses arguments the tools do not take, or of the wrong type, with invalid_request', async () => {
    const extra = await call('funding_review', { since: 'x' });
    expect(extra).toMatchObject({ isError: true, body: { code: 'invalid_request', path: '/since' } });
    const typed = await call('agent_review', { limit: '3' });
    expect(typed).toMatchObject({ isError: true, body: { code: 'invalid_request', path: '/limit' } });
    const unknown = await call('agent_review', { dataset: 'money_markets' });
    expect(unknown).toMatchObject({ isError: true, body: { code: 'invalid_request', path: '/dataset' } });
  });
});
