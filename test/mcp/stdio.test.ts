// `evidence-desk mcp` over stdio, spawned as a real process and driven by the SDK's stdio
// client: the same tools and bodies as REST, funding_update over the job's verified local
// copy (no network), and a server that keeps serving after malformed lines.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ANALYSIS_TOOL_NAMES, toolListing } from '../../src/analysis/tools/catalogue.js';
import { encodeDigestJson, parseStrictJson } from '../../src/core/json.js';
import { runJob } from '../../src/funding/job/job.js';
import { openFundingHarness, type FundingHarness } from '../funding/harness.js';
import { bin, cleanEnv } from '../helpers/serve.js';
import { TOOL_ARGUMENTS } from './arguments.js';

let h: FundingHarness;
let base: string;
let tmp: string;
let state: string;

function stdioClient(args: string[]): { client: Client; transport: StdioClientTransport } {
  const transport = new StdioClientTransport({ command: process.execPath, args: [bin, 'mcp', ...args], env: cleanEnv() as Record<string, string>, stderr: 'pipe' });
  return { client: new Client({ name: 'evidence-desk-test', version: '1.0.0' }), transport };
}

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'evidence-mcp-'));
  state = path.join(tmp, 'state');
  h = await openFundingHarness({ mode: 'sample', start: '2026-11-20T15:30:00Z' });
  await h.captured();
  base = await h.app.listen({ port: 0, host: '127.0.0.1' });
  const result = await runJob({ stateDir: state, base });
  expect(result.status).toBe('updated');
}, 60_000);

afterAll(async () => {
  await h?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('evidence-desk mcp (stdio, embedded store)', () => {
  it('lists the tools plus funding_update, answers each analysis tool with the REST body, and reads the local copy', async () => {
    const { client, transport } = stdioClient(['--data-dir', path.join(tmp, 'data'), '--mode', 'sample', '--state', state]);
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      const names = tools.map((t) => t.name);
      expect(names).toEqual([...names].sort());
      expect(names).toEqual(expect.arrayContaining([...ANALYSIS_TOOL_NAMES, 'capabilities', 'funding_latest', 'data_query', 'funding_review', 'agent_review', 'funding_update']));
      for (const name of ANALYSIS_TOOL_NAMES) {
        const rest = await h.app.inject({ method: 'POST', url: `/v1/tools/${name}`, headers: { 'content-type': 'application/json' }, payload: TOOL_ARGUMENTS[name] });
        const result = await client.callTool({ name, arguments: JSON.parse(TOOL_ARGUMENTS[name]) as Record<string, unknown> });
        expect((result.content as { text: string }[])[0].text, name).toBe(rest.body);
      }
      const update = await client.callTool({ name: 'funding_update', arguments: {} });
      expect(update.isError).toBeFalsy();
      const latest = (await h.get('/v1/funding/latest')).json();
      const body = update.structuredContent as Record<string, unknown>;
      expect(Object.keys(body)).toEqual(['update', 'review_asof', 'scope', 'observations', 'manifest', 'changes']);
      expect(body).toMatchObject({ update: { packet_id: latest.packet_id, source: 'verified_local_copy' }, review_asof: latest.review_asof, changes: null });
      expect(body.observations).toEqual(latest.observations);
      expect((body.observations as unknown[]).length).toBe(9);
      // The embedded store has no capture yet: funding_latest refuses with the REST code.
      const none = await client.callTool({ name: 'funding_latest', arguments: {} });
      expect(none.isError).toBe(true);
      expect(none.structuredContent).toMatchObject({ code: 'evidence_not_captured' });
    } finally {
      await client.close();
    }
  }, 60_000);

  it('refuses a tampered local copy with local_copy_invalid', async () => {
    const broken = path.join(tmp, 'broken');
    fs.cpSync(state, broken, { recursive: true });
    const packets = path.join(broken, 'packets');
    const [packet] = fs.readdirSync(packets);
    fs.appendFileSync(path.join(packets, packet, 'observations.csv'), '\n');
    const { client, transport } = stdioClient(['--data-dir', path.join(tmp, 'data'), '--state', broken]);
    await client.connect(transport);
    try {
      const result = await client.callTool({ name: 'funding_update', arguments: {} });
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toMatchObject({ code: 'local_copy_invalid' });
    } finally {
      await client.close();
    }
  }, 60_000);

  it('forwards tools/call to a running service with --base', async () => {
    const { client, transport } = stdioClient(['--base', base]);
    await client.connect(transport);
    try {
      const result = await client.callTool({ name: 'funding_latest', arguments: {} });
      expect(result.isError).toBeFalsy();
      expect((result.structuredContent as { packet_id: string }).packet_id).toBe((await h.get('/v1/funding/latest')).json().packet_id);
      // The review tools pass through byte for byte: a pinned agent review and the funding review.
      const snapshot = (await h.get('/api/v1/agent-review?limit=2')).json().snapshot_id as string;
      const pinned = await client.callTool({ name: 'agent_review', arguments: { limit: 2, snapshot } });
      expect((pinned.content as { text: string }[])[0].text).toBe((await h.get(`/api/v1/agent-review?limit=2&snapshot=${snapshot}`)).body);
      const review = await client.callTool({ name: 'funding_review', arguments: {} });
      expect((review.content as { text: string }[])[0].text).toBe((await h.get('/api/v1/funding-review')).body);
    } finally {
      await client.close();
    }
  }, 60_000);
});

/**
 * Runs `evidence-desk mcp` with `args`, writes `lines` (a number is a pause of that many
 * milliseconds) and ends its input; the reply lines, once it exits.
 */
async function stdioSession(args: string[], lines: Array<string | number>): Promise<Array<{ id: unknown; error?: { code: number; message: string }; result?: Record<string, unknown> }>> {
  const child = spawn(process.execPath, [bin, 'mcp', ...args], { env: cleanEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let onOut = () => undefined as void;
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    onOut();
  });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  // Pauses count from a running server: the process first answers a ping (left out of the replies).
  child.stdin.write('{"jsonrpc": "2.0", "id": "ready", "method": "ping"}\n');
  await new Promise<void>((resolve) => (onOut = () => (out.includes('\n') ? resolve() : undefined)));
  out = out.slice(out.indexOf('\n') + 1);
  for (const line of lines) {
    if (typeof line === 'number') await new Promise((resolve) => setTimeout(resolve, line));
    else child.stdin.write(line + '\n');
  }
  child.stdin.end();
  await exited;
  return out.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line));
}

describe('evidence-desk mcp --base (stdio answered by a running service)', () => {
  it('answers every request read before its input ended, each tools/call as the service answers the very line over HTTP', async () => {
    const calls = [
      '{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "dyson_reference", "arguments": {"dimension": 3, "steps": 5, "seed": 1e400}}}',
      '{"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "data_query", "arguments": {"dataset": "money_markets", "limit": -0}}}',
      '{"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "real_or_sampling", "arguments": {"label": "\\ud800", "successes": 1, "trials": 10}}}',
      '{"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "funding_history", "arguments": {"limit": 2.0}}}',
      '{"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "dyson_reference", "arguments": {"dimension": 3, "steps": 5, "seed": 6116}}}',
    ];
    const replies = await stdioSession(['--base', base], ['{"jsonrpc": "2.0", "id": 0, "method": "tools/list"}', ...calls]);
    expect(replies.map((r) => r.id).sort()).toEqual([0, 1, 2, 3, 4, 5]);
    for (const [index, line] of calls.entries()) {
      const over = await h.app.inject({ method: 'POST', url: '/mcp', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, payload: line });
      const direct = JSON.parse(over.body) as { result: { content: Array<{ text: string }> } };
      const reply = replies.find((r) => r.id === index + 1)!;
      expect(reply.error, line).toBeUndefined();
      expect((reply.result!.content as Array<{ text: string }>)[0].text, line).toBe(direct.result.content[0].text);
    }
    // The refusals are the tools' own, with registry codes (not internal errors).
    const codes = replies.filter((r) => r.id !== 0 && r.id !== 5).map((r) => (r.result!.structuredContent as { code: string }).code);
    expect(codes.every((code) => typeof code === 'string' && code !== 'internal_error')).toBe(true);
  }, 60_000);

  it('passes on why the service refused a forwarded call that is no JSON-RPC answer', async () => {
    // A base under which nothing serves /mcp: the service answers with its REST error body.
    const replies = await stdioSession(['--base', `${base}/nowhere`], [
      '{"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "dyson_reference", "arguments": {"dimension": 3, "steps": 5, "seed": 1}}}',
    ]);
    expect(replies).toHaveLength(1);
    expect(replies[0].error?.code).toBe(-32603);
    expect(replies[0].error?.message).toMatch(/answered HTTP 404 route_not_found: \S/);
  }, 60_000);

  it('frees the id of a cancelled request', async () => {
    const replies = await stdioSession(['--base', base], [
      '{"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {"name": "funding_latest", "arguments": {}}}',
      '{"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 9}}',
      // The SDK handles the cancellation a moment later: an id reused at once would be cancelled instead.
      500,
      '{"jsonrpc": "2.0", "id": 9, "method": "ping"}',
    ]);
    expect(replies).toEqual([{ jsonrpc: '2.0', id: 9, result: {} }]);
  }, 60_000);
});

describe('malformed lines on stdio', () => {
  it('answers parse, envelope, batch and argument errors and keeps serving', async () => {
    const child = spawn(process.execPath, [bin, 'mcp', '--data-dir', path.join(tmp, 'data')], { env: cleanEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
    const lines: string[] = [];
    let buffer = '';
    const got = new Promise<void>((resolve) => {
      child.stdout.on('data', (chunk: Buffer) => {
        buffer += chunk.toString();
        const parts = buffer.split('\n');
        buffer = parts.pop()!;
        lines.push(...parts);
        if (lines.length >= 7) resolve();
      });
    });
    const send = [
      'not json',
      '{"a": 1, "a": 2}',
      '[{"jsonrpc": "2.0", "id": 1, "method": "ping"}]',
      '{"jsonrpc": "2.0", "id": true, "method": "ping"}',
      '',
      '{"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "ab_test", "arguments": {"a_successes": 1, "a_total": 10.0, "b_successes": 1, "b_total": 10}}}',
      '{"jsonrpc": "2.0", "id": 6, "method": "tools/call", "params": {"name": "nope", "arguments": {}}}',
      `{"jsonrpc": "2.0", "id": 8, "method": "ping", "params": {"pad": "${'x'.repeat(2 * 1024 * 1024)}"}}`,
      '{"jsonrpc": "2.0", "id": 7, "method": "ping"}',
    ];
    child.stdin.write(send.join('\n') + '\n');
    await got;
    child.stdin.end();
    await new Promise((resolve) => child.on('exit', resolve));
    const replies = lines.map((l) => JSON.parse(l) as { id: unknown; error?: { code: number }; result?: { isError?: boolean; structuredContent?: { code?: string } } });
    const summary = replies.map((r) => [r.id, r.error?.code ?? r.result?.structuredContent?.code ?? 'ok']);
    expect(summary).toEqual(expect.arrayContaining([
      [null, -32700], [null, -32700], [null, -32600], [null, -32600], [5, 'invalid_input'], [6, -32602], [null, -32600], [7, 'ok'],
    ]));
    expect(replies).toHaveLength(8);
  }, 60_000);
});

describe('evidence-desk mcp tools/list', () => {
  it('prints each analysis tool\'s input schema as /v1/capabilities does, a float default as a float', { timeout: 120_000 }, () => {
    const run = spawnSync(process.execPath, [bin, 'mcp'], { env: cleanEnv(), encoding: 'utf8', input: '{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}\n' });
    const reply = parseStrictJson(run.stdout.trim()) as { result: { tools: { name: string; inputSchema: unknown }[] } };
    for (const tool of toolListing()) {
      expect(encodeDigestJson(reply.result.tools.find((t) => t.name === tool.name)?.inputSchema), tool.name).toBe(encodeDigestJson(tool.input_schema));
    }
    expect(run.stdout).toContain('"default":3.0');
  });
});
