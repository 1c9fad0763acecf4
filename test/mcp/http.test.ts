// The MCP server over Streamable HTTP, driven by the SDK's own client against a listening
// service: every tool answers with its REST body, and malformed traffic gets the
// documented JSON-RPC or registry errors, never a 500 or a dropped connection.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { ANALYSIS_TOOL_NAMES } from '../../src/analysis/tools/catalogue.js';
import { encodeDigestJson, parseStrictJson, pyFloatRepr } from '../../src/core/json.js';
import { HISTORY_MAX_LIMIT } from '../../src/funding/history.js';
import { openFundingHarness, type FundingHarness } from '../funding/harness.js';
import { TOOL_ARGUMENTS } from './arguments.js';


let h: FundingHarness;
let base: string;
let client: Client;

async function connect(url: string): Promise<Client> {
  const c = new Client({ name: 'evidence-desk-test', version: '1.0.0' });
  await c.connect(new StreamableHTTPClientTransport(new URL(url)));
  return c;
}

async function rpc(body: string, path = '/mcp', headers: Record<string, string> = {}): Promise<{ status: number; text: string; headers: Headers }> {
  const res = await fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  return { status: res.status, text: await res.text(), headers: res.headers };
}

beforeAll(async () => {
  h = await openFundingHarness({ mode: 'sample', start: '2026-11-20T15:30:00Z', config: { bodyLimit: 64 * 1024 } });
  await h.captured();
  base = await h.app.listen({ port: 0, host: '127.0.0.1' });
  client = await connect(`${base}/mcp`);
}, 60_000);

afterAll(async () => {
  await client?.close();
  await h?.close();
});

describe('MCP over Streamable HTTP with the SDK client', () => {
  it('initializes and lists the tools of all three groups, sorted by name, read-only', async () => {
    expect(client.getServerVersion()?.name).toBe('evidence-desk');
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual([...names].sort());
    expect(names).toEqual(expect.arrayContaining([...ANALYSIS_TOOL_NAMES, 'capabilities', 'funding_latest', 'funding_changes', 'funding_history', 'data_query', 'data_sources']));
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.annotations?.readOnlyHint).toBe(true);
      expect(tool.description!.length).toBeGreaterThan(40);
    }
  });

  it('answers every analysis tool with exactly the REST body (text) and its value (structuredContent)', async () => {
    for (const name of ANALYSIS_TOOL_NAMES) {
      const bytes = TOOL_ARGUMENTS[name];
      const rest = await h.app.inject({ method: 'POST', url: `/v1/tools/${name}`, headers: { 'content-type': 'application/json' }, payload: bytes });
      expect(rest.statusCode, name).toBe(200);
      const result = await client.callTool({ name, arguments: JSON.parse(bytes) as Record<string, unknown> });
      expect(result.isError, name).toBeFalsy();
      expect((result.content as { text: string }[])[0].text, name).toBe(rest.body);
      // The wire itself, as any client sees it (the SDK's result parser drops a member named __proto__).
      const raw = await rpc(`{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "${name}", "arguments": ${bytes}}}`);
      const wire = JSON.parse(raw.text);
      expect(wire.result.structuredContent, name).toEqual(JSON.parse(rest.body));
      expect(Object.keys(wire.result.structuredContent), name).toEqual(Object.keys(JSON.parse(rest.body)));
    }
  });

  it('keeps the int/float kind of argument tokens: a_total written 10.0 is refused as REST refuses it', async () => {
    const args = '{"a_successes": 1, "a_total": 10.0, "b_successes": 1, "b_total": 10}';
    const rest = await h.app.inject({ method: 'POST', url: '/v1/tools/ab_test', headers: { 'content-type': 'application/json' }, payload: args });
    expect(rest.statusCode).toBe(422);
    const res = await rpc(`{"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "ab_test", "arguments": ${args}}}`);
    expect(res.status).toBe(200);
    const reply = JSON.parse(res.text);
    expect(reply.id).toBe(7);
    expect(reply.result.isError).toBe(true);
    expect(reply.result.structuredContent).toEqual(rest.json());
    expect(reply.result.structuredContent.code).toBe('invalid_input');
  });

  it('answers capabilities and the funding tools with their REST bodies', async () => {
    const same = async (name: string, args: Record<string, unknown>, url: string) => {
      const rest = await h.get(url);
      expect(rest.statusCode, url).toBe(200);
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError, name).toBeFalsy();
      expect((result.content as { text: string }[])[0].text, name).toBe(rest.body);
    };
    await same('capabilities', {}, '/v1/capabilities');
    await same('funding_latest', {}, '/v1/funding/latest');
    await same('funding_history', { limit: 5, as_of: '2026-11-20T15:30:00.000012Z' }, '/v1/funding/history?limit=5&as_of=2026-11-20T15:30:00.000012Z');
    const packet = (await h.get('/v1/funding/latest')).json().packet_id as string;
    await same('funding_changes', { since: packet }, `/v1/funding/changes?since=${packet}`);
  });

  it('turns a funding refusal into isError with the REST code', async () => {
    const bad = await client.callTool({ name: 'funding_changes', arguments: { since: 'not-a-packet' } });
    expect(bad.isError).toBe(true);
    const rest = await h.get('/v1/funding/changes?since=not-a-packet');
    expect(bad.structuredContent).toEqual(rest.json());
    const missing = await client.callTool({ name: 'funding_changes', arguments: {} });
    expect(missing.structuredContent).toMatchObject({ code: 'since_required', path: '/query/since', detail: [{ type: 'missing', loc: ['query', 'since'], input: null }] });
    const typed = await client.callTool({ name: 'funding_history', arguments: { limit: '5' } });
    expect(typed.structuredContent).toEqual((await h.get('/v1/funding/history?limit=abc')).json());
  });

  it('refuses every out-of-range or fractional history limit with the body REST sends for the same query', async () => {
    await fc.assert(fc.asyncProperty(
      fc.oneof(
        fc.integer({ min: -1000, max: 0 }),
        fc.integer({ min: HISTORY_MAX_LIMIT + 1, max: 100_000 }),
        fc.double({ min: -50, max: 200, noInteger: true, noNaN: true }),
        // Integers beyond 2^53 are still integers to REST's schema: too large, not fractional
        // (1e21 is sent as the float token `1e+21`, refused as REST refuses `limit=1e+21`).
        fc.constantFrom(2 ** 53, 2 ** 60, 1e21),
      ),
      async (limit) => {
        const result = await client.callTool({ name: 'funding_history', arguments: { limit } });
        expect(result.isError).toBe(true);
        // The query text of the token the client wrote (JSON.stringify): an integer token's
        // digits, a float token as Python prints it.
        const written = JSON.stringify(limit);
        const text = /^-?[0-9]+$/.test(written) ? written : pyFloatRepr(limit);
        const rest = await h.get(`/v1/funding/history?limit=${encodeURIComponent(text)}`);
        expect(rest.statusCode).toBe(422);
        expect((result.content as { text: string }[])[0].text).toBe(rest.body);
      },
    ), { numRuns: 40 });
  });

  it('reads a history limit as the query text a client sends for it: a float token is refused even when whole', async () => {
    // Tokens as written in the message; `text` is the query REST gets for the same token
    // (a float as Python prints it, an integer as its digits).
    const token = fc.oneof(
      fc.integer({ min: 1, max: HISTORY_MAX_LIMIT }).chain((n) => fc.constantFrom(`${n}.0`, `${n}e0`, `${n / 10}e1`).map((written) => ({ written, text: pyFloatRepr(Number(written)) }))),
      fc.constantFrom({ written: '0.0', text: '0.0' }, { written: '-0.0', text: '-0.0' }, { written: '-0', text: '-0' }, { written: '1e400', text: 'inf' }),
      // Digits beyond the double range: REST gets the same digits.
      fc.bigInt({ min: 10n ** 309n, max: 10n ** 400n }).chain((n) => fc.constantFrom(String(n), `-${n}`)).map((digits) => ({ written: digits, text: digits })),
    );
    await fc.assert(fc.asyncProperty(token, async ({ written, text }) => {
      const raw = await rpc(`{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "funding_history", "arguments": {"limit": ${written}}}}`, '/mcp', { accept: 'application/json, text/event-stream' });
      const result = (JSON.parse(raw.text) as { result: { isError?: boolean; content: { text: string }[] } }).result;
      expect(result.isError, written).toBe(true);
      const rest = await h.get(`/v1/funding/history?limit=${encodeURIComponent(text)}`);
      expect(rest.statusCode).toBe(422);
      expect(result.content[0].text, written).toBe(rest.body);
    }), { numRuns: 30 });
  });

  it('refuses bad data_query and agent_review numbers with the 422 body REST sends for the same query text, every problem listed', async () => {
    // Number tokens as a client may write them. The query text REST is compared with is the
    // token's value as written for an integer, and as Python prints it for a float (`2.0`,
    // `1e+21`); REST given the token's own spelling must reach the same verdict.
    const integerToken = fc.oneof(fc.integer({ min: -5000, max: 0 }), fc.integer({ min: 2001, max: 10_000_000 }), fc.bigInt({ min: 2n ** 53n, max: 2n ** 70n }), fc.bigInt({ min: 10n ** 309n, max: 10n ** 400n }))
      .map((n) => ({ token: String(n), text: String(n) }));
    // A whole float is read as its value (`2.0` as 2, as the upstream reads it), so those drawn lie outside limit's 1–2000.
    const floatToken = fc.oneof(
      fc.double({ min: -10, max: 5000, noNaN: true }).filter((x) => !Number.isInteger(x)),
      fc.oneof(fc.integer({ min: -100, max: 0 }), fc.integer({ min: 2001, max: 3000 })),
      fc.constantFrom(1e21, 2.5e-7, 3e3, -0.5),
    ).chain((x) => fc.constantFrom(pyFloatRepr(x), x.toExponential(), x.toExponential().toUpperCase()).map((token) => ({ token, text: pyFloatRepr(x), whole: Number.isInteger(x) })));
    const badNumber = fc.oneof(integerToken, floatToken, fc.constant({ token: '-0', text: '-0' }));
    const callText = async (tool: string, args: string) => {
      const raw = await rpc(`{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "${tool}", "arguments": ${args}}}`, '/mcp', { accept: 'application/json, text/event-stream' });
      const result = (JSON.parse(raw.text) as { result: { isError?: boolean; content: { text: string }[] } }).result;
      expect(result.isError).toBe(true);
      return result.content[0].text;
    };
    const verdict = (body: string) => (JSON.parse(body) as { code: string; detail: { type: string }[] });
    await fc.assert(fc.asyncProperty(
      badNumber,
      fc.option(badNumber, { nil: undefined }),
      fc.constantFrom('no_such_dataset', 'money_markets'),
      async (limit, offset, dataset) => {
        const args = `{"dataset": "${dataset}", "limit": ${limit.token}${offset ? `, "offset": ${offset.token}` : ''}}`;
        const query = (pick: 'text' | 'token') => `/api/v1/query?dataset=${dataset}&limit=${encodeURIComponent(limit[pick])}${offset ? `&offset=${encodeURIComponent(offset[pick])}` : ''}`;
        const mcp = await callText('data_query', args);
        const rest = await h.get(query('text'));
        expect(rest.statusCode, rest.body).toBe(422);
        expect(mcp).toBe(rest.body);
        // A whole float written with an exponent (`0e+0`) is its value to MCP but no whole number as query text.
        const exponentWhole = [limit, offset].some((n) => n !== undefined && 'whole' in n && n.whole && n.token !== n.text);
        if (!exponentWhole) {
          const spelled = await h.get(query('token'));
          expect(spelled.statusCode).toBe(422);
          expect(verdict(mcp).code).toBe(verdict(spelled.body).code);
          expect(verdict(mcp).detail.map((d) => d.type)).toEqual(verdict(spelled.body).detail.map((d) => d.type));
        }

        const review = await callText('agent_review', `{"limit": ${limit.token}}`);
        expect(review).toBe((await h.get(`/api/v1/agent-review?limit=${encodeURIComponent(limit.text)}`)).body);
      },
    ), { numRuns: 40 });
  });

  it('refuses a float argument beyond the double range with the 422 body REST sends for Python\'s inf', async () => {
    const callText = async (tool: string, args: string) => {
      const raw = await rpc(`{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "${tool}", "arguments": ${args}}}`, '/mcp', { accept: 'application/json, text/event-stream' });
      return (JSON.parse(raw.text) as { result: { isError?: boolean; content: { text: string }[] } }).result;
    };
    for (const [token, text] of [['1e400', 'inf'], ['-1E309', '-inf']]) {
      const query = await callText('data_query', `{"dataset": "money_markets", "limit": ${token}}`);
      expect(query.isError).toBe(true);
      const rest = await h.get(`/api/v1/query?dataset=money_markets&limit=${text}`);
      expect(rest.statusCode).toBe(422);
      expect(query.content[0].text).toBe(rest.body);
      const review = await callText('agent_review', `{"limit": ${token}}`);
      expect(review.content[0].text).toBe((await h.get(`/api/v1/agent-review?limit=${text}`)).body);
    }
  });

  it('queries group C datasets through the domain service', async () => {
    const result = await client.callTool({ name: 'data_query', arguments: { dataset: 'money_markets', limit: 2 } });
    expect(result.isError).toBeFalsy();
    const body = result.structuredContent as Record<string, unknown>;
    expect(body).toMatchObject({ dataset: 'money_markets', limit: 2, sample: true });
    // Byte parity with REST (Python number forms) is proven in data-review.test.ts.
    expect(JSON.parse((result.content as { text: string }[])[0].text)).toEqual(body);
    const sources = await client.callTool({ name: 'data_sources', arguments: {} });
    expect(sources.structuredContent).toMatchObject({ dataset: 'source_health' });
    const refused = await client.callTool({ name: 'data_query', arguments: { dataset: 'no_such_dataset' } });
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toMatchObject({ code: expect.any(String) as string, path: '/query/dataset' });
  });

  it('refuses an unknown tool with -32602 and invalid arguments with isError and the registry code', async () => {
    const unknown = await client.callTool({ name: 'no_such_tool', arguments: {} }).catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(McpError);
    expect((unknown as McpError).code).toBe(-32602);
    const invalid = await client.callTool({ name: 'dyson_reference', arguments: { dimension: 99 } });
    expect(invalid.isError).toBe(true);
    expect(invalid.structuredContent).toMatchObject({ code: 'invalid_input' });
  });

  it('refuses capabilities arguments that are not an empty object exactly as the other analysis tools refuse theirs', async () => {
    const answer = async (name: string, args: unknown) => {
      const res = await rpc(JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name, arguments: args } }));
      expect(res.status).toBe(200);
      return (JSON.parse(res.text) as { result: { isError?: boolean; structuredContent: unknown } }).result;
    };
    for (const args of [null, [], 5, true, 'x']) {
      const got = await answer('capabilities', args);
      expect(got.isError, JSON.stringify(args)).toBe(true);
      expect(got.structuredContent, JSON.stringify(args)).toEqual((await answer('dyson_reference', args)).structuredContent);
      expect(got.structuredContent).toMatchObject({ code: 'invalid_input' });
    }
    const unknown = await answer('capabilities', { verbose: true });
    expect(unknown.isError).toBe(true);
    expect(unknown.structuredContent).toMatchObject({ code: 'invalid_input', path: '/verbose' });
    expect((await answer('capabilities', {})).isError).toBeFalsy();
  });

  it('describes every analysis tool in tools/list exactly as GET /v1/capabilities does', async () => {
    const { tools } = await client.listTools();
    const listed = (h.get('/v1/capabilities').then((r) => r.json<{ tools: { name: string; description: string }[] }>()));
    const capabilities = (await listed).tools;
    expect(capabilities.map((t) => t.name)).toEqual([...ANALYSIS_TOOL_NAMES].sort());
    for (const tool of capabilities) expect(tools.find((t) => t.name === tool.name)?.description, tool.name).toBe(tool.description);
  });

  it('prints each analysis tool\'s input schema in tools/list and /openapi.json as /v1/capabilities does, a float default as a float', async () => {
    // Read strictly and written in the digest form, `3.0` and `3` stay apart.
    const kinds = (value: unknown) => encodeDigestJson(value);
    const capabilities = parseStrictJson((await h.get('/v1/capabilities')).rawPayload) as { tools: { name: string; input_schema: unknown }[] };
    const listed = parseStrictJson((await rpc('{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}', '/mcp', { accept: 'application/json, text/event-stream' })).text) as { result: { tools: { name: string; inputSchema: unknown }[] } };
    for (const tool of capabilities.tools) expect(kinds(listed.result.tools.find((t) => t.name === tool.name)?.inputSchema), tool.name).toBe(kinds(tool.input_schema));
    const market = capabilities.tools.find((t) => t.name === 'market_assessment')!;
    expect(kinds(market.input_schema)).toContain('"default":3.0');
    const openapi = parseStrictJson((await h.get('/openapi.json')).rawPayload) as { paths: Record<string, { post: { requestBody: { content: Record<string, { schema: unknown }> } } }> };
    for (const path of ['/v1/market/assess', '/v1/tools/market_assessment']) {
      expect(kinds(openapi.paths[path].post.requestBody.content['application/json'].schema), path).toBe(kinds(market.input_schema));
    }
  });

  it('warns in the is_this_number_real prompt and in the instructions not to feed a change statistic to e-BH', async () => {
    const prompt = await client.getPrompt({ name: 'is_this_number_real' });
    const text = (prompt.messages[0].content as { text: string }).text;
    expect(text).toContain('which_metrics_matter');
    expect(text).toMatch(/e-BH/);
    expect(client.getInstructions()).toContain('which_metrics_matter');
  });

  it('serves the same endpoint under /noisefloor/mcp and /openbb/mcp', async () => {
    for (const prefix of ['/noisefloor', '/openbb']) {
      const c = await connect(`${base}${prefix}/mcp`);
      const result = await c.callTool({ name: 'dyson_reference', arguments: { dimension: 2, steps: 3, seed: 1 } });
      expect(result.isError).toBeFalsy();
      await c.close();
    }
  });
});

describe('malformed MCP traffic over HTTP', () => {
  it('answers a parse error with 400 and -32700', async () => {
    for (const body of ['{"jsonrpc": "2.0",', '{"a": 1, "a": 2}', '{"x": NaN}', '']) {
      const res = await rpc(body);
      expect(res.status, body).toBe(400);
      expect(JSON.parse(res.text)).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    }
  });

  it('refuses an empty or oversize batch with 400 and -32600', async () => {
    const ping = (id: number) => ({ jsonrpc: '2.0', id, method: 'ping' });
    for (const batch of [[], Array.from({ length: 17 }, (_, i) => ping(i))]) {
      const res = await rpc(JSON.stringify(batch));
      expect(res.status).toBe(400);
      expect(JSON.parse(res.text).error.code).toBe(-32600);
    }
  });

  it('answers each member of a batch on its own, in order; notifications get no reply', async () => {
    const batch = [
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      null,
      { jsonrpc: '2.0', id: true, method: 'ping' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: [] },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'dyson_reference', arguments: { dimension: 2, steps: 2, seed: 3 } } },
      { jsonrpc: '2.0', id: 4, method: 'no/such/method' },
    ];
    const res = await rpc(JSON.stringify(batch));
    expect(res.status).toBe(200);
    const replies = JSON.parse(res.text) as { id: unknown; error?: { code: number }; result?: { isError?: boolean } }[];
    expect(replies.map((r) => [r.id, r.error?.code ?? 'ok'])).toEqual([[1, 'ok'], [null, -32600], [null, -32600], [2, -32602], [3, 'ok'], [4, -32601]]);
  });

  it('takes string and integer ids only: a float token is refused even when whole, and an unknown tool or prompt is a bare -32602 sentence', async () => {
    const raw = '[{"jsonrpc": "2.0", "id": 1.0, "method": "ping"}, {"jsonrpc": "2.0", "id": 5e0, "method": "ping"}, {"jsonrpc": "2.0", "id": 6, "method": "ping"}, {"jsonrpc": "2.0", "id": "7", "method": "ping"},'
      + ' {"jsonrpc": "2.0", "id": 8, "method": "tools/call", "params": {"name": "nope", "arguments": {}}}, {"jsonrpc": "2.0", "id": 9, "method": "prompts/get", "params": {"name": "nope"}}]';
    const replies = JSON.parse((await rpc(raw)).text) as { id: unknown; error?: { code: number; message: string } }[];
    expect(replies.map((r) => [r.id, r.error?.code ?? 'ok'])).toEqual([[null, -32600], [null, -32600], [6, 'ok'], ['7', 'ok'], [8, -32602], [9, -32602]]);
    for (const reply of replies.slice(4)) expect(reply.error!.message).toMatch(/^unknown (tool|prompt): /);
  });

  it('answers with the analysis upstream\'s headers where it had its /mcp, and never lets an answer be stored', async () => {
    const ping = '{"jsonrpc": "2.0", "id": 1, "method": "ping"}';
    const notification = '{"jsonrpc": "2.0", "method": "notifications/initialized"}';
    for (const path of ['/mcp', '/noisefloor/mcp', '/openbb/mcp']) {
      const answers = [
        await rpc(ping, path, { accept: 'application/json, text/event-stream' }),
        await rpc(notification, path, { accept: 'application/json, text/event-stream' }),
        await rpc('{not json', path),
        await fetch(base + path, { method: 'GET' }).then(async (res) => ({ status: res.status, text: await res.text(), headers: res.headers })),
      ];
      expect(answers.map((a) => a.status), path).toEqual([200, 202, 400, 405]);
      for (const answer of answers) {
        expect(answer.headers.get('cache-control'), `${path} ${answer.status}`).toBe('no-store');
        expect(answer.headers.get('access-control-allow-origin')).toBe('*');
        expect(answer.headers.get('access-control-allow-methods'), `${path} ${answer.status}`).toBe(path === '/openbb/mcp' ? 'POST, OPTIONS' : 'GET, POST, OPTIONS');
      }
    }
  });

  it('answers a body of notifications only with 202 and no body, and runs nothing', async () => {
    const res = await rpc(JSON.stringify({ jsonrpc: '2.0', method: 'tools/call', params: { name: 'dyson_reference', arguments: {} } }));
    expect(res.status).toBe(202);
    expect(res.text).toBe('');
  });

  it('applies the body limit (413 with a registry code), and refuses GET and DELETE with 405', async () => {
    const big = await rpc(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(70 * 1024) } }));
    expect(big.status).toBe(413);
    expect(JSON.parse(big.text).code).toBe('body_too_large');
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(`${base}/mcp`, { method });
      expect(res.status, method).toBe(405);
      expect(((await res.json()) as { code: string }).code).toBe('method_not_allowed');
    }
    // Any other method hears the same Allow: GET and DELETE exist only to refuse.
    for (const method of ['PUT', 'PATCH', 'GET', 'DELETE']) {
      const res = await fetch(`${base}/mcp`, { method, ...(method === 'PUT' || method === 'PATCH' ? { body: '{}' } : {}) });
      expect([res.status, res.headers.get('allow'), res.headers.get('access-control-allow-origin')], method).toEqual([405, 'OPTIONS, POST', '*']);
    }
    const pre = await fetch(`${base}/mcp`, { method: 'OPTIONS' });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('refuses a body that is not JSON with 415 and a registry code', async () => {
    const res = await fetch(`${base}/mcp`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'ping' });
    expect(res.status).toBe(415);
    expect(((await res.json()) as { code: string }).code).toBe('unsupported_media_type');
    // Readable cross-origin like every other answer of the endpoint, as are 413 and a bodiless POST.
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const bare = await fetch(`${base}/mcp`, { method: 'POST' });
    expect([bare.status, bare.headers.get('access-control-allow-origin')]).toEqual([415, '*']);
    const big = await rpc(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(70 * 1024) } }));
    expect([big.status, big.headers.get('access-control-allow-origin')]).toEqual([413, '*']);
  });
});
