// JSON-RPC params the SDK would answer as its own internal error (-32603 with its schema
// library's report) are the caller's -32602 with a sentence; tools/call arguments that are
// not an object, and strings no query string can carry, are the tool's refusal (isError);
// prompts and resources answer as the analysis upstream's do; a tool's own fault is logged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { openFundingHarness, type FundingHarness } from '../funding/harness.js';
import { AppError, CoreErrors } from '../../src/core/errors.js';
import { callTool } from '../../src/mcp/server.js';
import type { McpTool, McpToolContext } from '../../src/mcp/tools.js';

let h: FundingHarness;

async function rpc(message: unknown): Promise<Record<string, unknown>> {
  const res = await h.app.inject({ method: 'POST', url: '/mcp', headers: { 'content-type': 'application/json' }, payload: JSON.stringify(message) });
  expect(res.statusCode).toBe(200);
  return res.json();
}

const call = (params: unknown, id: number | string = 1) => rpc({ jsonrpc: '2.0', id, method: 'tools/call', params });

beforeAll(async () => {
  h = await openFundingHarness({ mode: 'sample', start: '2026-11-20T15:30:00Z' });
  await h.captured();
}, 60_000);

afterAll(async () => {
  await h?.close();
});

describe('params that do not fit their method', () => {
  const cases: [string, unknown][] = [
    ['tools/call', {}],
    ['tools/call', { name: 5 }],
    ['tools/call', { name: ['capabilities'] }],
    ['initialize', {}],
    ['initialize', { protocolVersion: 1, capabilities: {}, clientInfo: { name: 'x', version: '1' } }],
    ['tools/list', { cursor: 5 }],
    ['prompts/get', {}],
    ['prompts/list', { cursor: {} }],
    ['resources/list', { cursor: false }],
  ];
  it.each(cases)('%s with %j is -32602 with a sentence, not an internal error', async (method, params) => {
    const reply = await rpc({ jsonrpc: '2.0', id: 7, method, params });
    const error = reply.error as { code: number; message: string };
    expect(error.code).toBe(-32602);
    expect(error.message).toMatch(new RegExp(`^invalid params for ${method.replace('/', '\\/')}: `));
    expect(error.message).not.toContain('\n');
    expect(reply.id).toBe(7);
  });

  it('refuses a tools/call member other than name, arguments and _meta with -32602', async () => {
    const reply = await call({ name: 'capabilities', arguments: {}, extra: 1 });
    expect(reply.error).toEqual({ code: -32602, message: expect.stringMatching(/^unknown tool-call parameter "extra"/) });
    const fine = await call({ name: 'capabilities', arguments: {}, _meta: { progressToken: 1 } });
    expect(fine.error).toBeUndefined();
  });

  it('never answers a malformed tools/call or initialize with -32603, whatever the params hold', async () => {
    const anyValue = fc.oneof(fc.constant(null), fc.boolean(), fc.integer(), fc.string({ maxLength: 8 }), fc.array(fc.integer(), { maxLength: 2 }), fc.dictionary(fc.string({ maxLength: 4 }), fc.integer(), { maxKeys: 2 }));
    await fc.assert(fc.asyncProperty(fc.constantFrom('tools/call', 'initialize', 'tools/list', 'prompts/get', 'prompts/list', 'resources/list', 'ping'),
      fc.dictionary(fc.constantFrom('name', 'arguments', 'cursor', 'protocolVersion', 'capabilities', 'clientInfo', '_meta'), anyValue, { maxKeys: 4 }),
      async (method, params) => {
        const reply = await rpc({ jsonrpc: '2.0', id: 1, method, params });
        const error = reply.error as { code: number; message: string } | undefined;
        if (error !== undefined) {
          expect([-32602, -32601]).toContain(error.code);
          expect(error.message).not.toMatch(/expected|received/i);
        }
        if (method === 'tools/call' && error === undefined) {
          const result = reply.result as { isError?: boolean; structuredContent: Record<string, unknown> };
          if (result.isError) expect(result.structuredContent.code).not.toBe('internal_error');
        }
      }), { numRuns: 150 });
  });
});

describe('tools/call arguments that are not an object', () => {
  it.each([null, [], 'x', 5, true])('are refused by an analysis tool as its validator words it (%j)', async (args) => {
    const reply = await call({ name: 'market_assessment', arguments: args });
    const result = reply.result as { isError: boolean; structuredContent: Record<string, unknown> };
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ error: 'input: expected object', code: 'invalid_input' });
  });

  it.each([null, [], 'x', 5])('are refused by the other tools with invalid_request (%j)', async (args) => {
    for (const name of ['data_query', 'agent_review', 'funding_latest', 'funding_history']) {
      const reply = await call({ name, arguments: args });
      const result = reply.result as { isError: boolean; structuredContent: Record<string, unknown> };
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toMatchObject({ code: 'invalid_request', detail: 'tool arguments must be a JSON object' });
    }
  });
});

describe('strings no query string can carry', () => {
  const lone = fc.tuple(fc.string({ maxLength: 4 }), fc.integer({ min: 0xd800, max: 0xdfff }), fc.string({ maxLength: 4 }))
    .map(([a, unit, b]) => a + String.fromCharCode(unit) + b)
    .filter((s) => /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s));

  it('are refused by every group C string argument with invalid_request and the argument path', async () => {
    const targets: [string, string, Record<string, unknown>][] = [
      ['agent_review', 'bank', {}],
      ['agent_review', 'previous_revision', {}],
      ['agent_review', 'snapshot', {}],
      ['data_query', 'entity', { dataset: 'money_markets' }],
      ['data_query', 'dataset', {}],
      ['data_query', 'start_date', { dataset: 'money_markets' }],
      ['data_query', 'snapshot', { dataset: 'money_markets' }],
      ['data_query', 'as_retrieved_at', { dataset: 'money_markets' }],
    ];
    await fc.assert(fc.asyncProperty(fc.constantFrom(...targets), lone, async ([name, argument, rest], value) => {
      const reply = await call({ name, arguments: { ...rest, [argument]: value } });
      const result = reply.result as { isError: boolean; structuredContent: Record<string, unknown> };
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toMatchObject({ code: 'invalid_request', path: `/${argument}` });
    }), { numRuns: 60 });
  });
});

describe('prompts and resources', () => {
  it('lists the four argument-less prompts and gets each as one user message', async () => {
    const list = await rpc({ jsonrpc: '2.0', id: 1, method: 'prompts/list', params: {} });
    const prompts = (list.result as { prompts: { name: string; description: string }[] }).prompts;
    expect(prompts.map((p) => p.name)).toEqual(['ab_test_verdict', 'is_this_number_real', 'market_noise_review', 'correlation_risk_review']);
    for (const { name } of prompts) {
      const got = await rpc({ jsonrpc: '2.0', id: 2, method: 'prompts/get', params: { name } });
      const result = got.result as { messages: { role: string; content: { type: string; text: string } }[] };
      expect(result.messages).toHaveLength(1);
      expect(result.messages[0].role).toBe('user');
      expect(result.messages[0].content.text.length).toBeGreaterThan(100);
    }
  });

  it('refuses prompt arguments and unknown prompts with -32602', async () => {
    const withArgs = await rpc({ jsonrpc: '2.0', id: 1, method: 'prompts/get', params: { name: 'ab_test_verdict', arguments: { a: '1' } } });
    expect((withArgs.error as { code: number }).code).toBe(-32602);
    const unknown = await rpc({ jsonrpc: '2.0', id: 1, method: 'prompts/get', params: { name: 'nope' } });
    expect((unknown.error as { code: number }).code).toBe(-32602);
  });

  it('answers resources/list with an empty list and announces prompts and resources at initialize', async () => {
    const list = await rpc({ jsonrpc: '2.0', id: 1, method: 'resources/list', params: {} });
    expect(list.result).toEqual({ resources: [] });
    const init = await rpc({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
    expect((init.result as { capabilities: Record<string, unknown> }).capabilities).toMatchObject({ tools: { listChanged: false }, prompts: { listChanged: false }, resources: {} });
  });
});

describe('a fault inside a tool', () => {
  it('is answered as internal_error and told to the fault handler, which the HTTP transport logs', async () => {
    const faulty: McpTool = {
      name: 'faulty', title: 'Faulty', description: 'throws', inputSchema: { type: 'object' }, shape: 'evidence',
      run: async () => { throw new TypeError('boom'); },
    };
    const seen: [unknown, string][] = [];
    const result = await callTool(faulty, {}, { config: h.config } as McpToolContext, (error, tool) => seen.push([error, tool]));
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ code: 'internal_error' });
    expect(seen).toHaveLength(1);
    expect(seen[0][1]).toBe('faulty');
    expect((seen[0][0] as Error).message).toBe('boom');
    // A refusal of the request is not a fault.
    const refusing: McpTool = { ...faulty, run: async () => { throw new AppError(CoreErrors.invalid_request, 'no', { path: '/x' }); } };
    const refused = await callTool(refusing, {}, { config: h.config } as McpToolContext, (error, tool) => seen.push([error, tool]));
    expect(refused.structuredContent).toMatchObject({ code: 'invalid_request' });
    expect(seen).toHaveLength(1);
  });
});
