// The stdio transport's line limit is the service's body limit (16 MiB by default), so the
// documented maxima (32 series × 2048 observations, about 9 MB) fit on stdio as on REST and
// MCP over HTTP; a line above the limit is refused with -32600 and the transport keeps serving.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { MAX_STDIO_LINE_BYTES, StrictStdioTransport } from '../../src/mcp/stdio.js';
import { seriesRequest } from '../helpers/analysis-requests.js';

async function feed(lines: string[], maxLineBytes?: number): Promise<{ messages: JSONRPCMessage[]; replies: unknown[] }> {
  const input = new PassThrough();
  const output = new PassThrough();
  const transport = new StrictStdioTransport(input, output, maxLineBytes);
  const messages: JSONRPCMessage[] = [];
  transport.onmessage = (m) => messages.push(m);
  await transport.start();
  let written = '';
  output.on('data', (c: Buffer) => (written += c.toString()));
  // In pieces, as a pipe delivers a long line.
  const bytes = Buffer.from(lines.map((l) => `${l}\n`).join(''));
  for (let i = 0; i < bytes.length; i += 65536) input.write(bytes.subarray(i, i + 65536));
  await new Promise((resolve) => setImmediate(resolve));
  await transport.close();
  return { messages, replies: written.split('\n').filter(Boolean).map((l) => JSON.parse(l) as unknown) };
}

const call = (id: number, args: unknown) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'market_assessment', arguments: args } });

describe('stdio line limit', () => {
  it('takes the largest documented request (32 × 2048 with every optional field) by default', async () => {
    const line = call(1, seriesRequest({ series: 32, points: 2048, allFields: true }));
    expect(line.length).toBeGreaterThan(4 * 1024 * 1024);
    expect(line.length).toBeLessThan(MAX_STDIO_LINE_BYTES);
    const { messages, replies } = await feed([line]);
    expect(replies).toEqual([]);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ id: 1, method: 'tools/call' });
  });

  it('refuses a line above the configured limit with -32600 and reads the next line', async () => {
    const big = call(1, { pad: 'x'.repeat(4096) });
    const { messages, replies } = await feed([big, call(2, {})], 1024);
    expect(replies).toEqual([{ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'message too large: a line holds at most 1024 bytes' } }]);
    expect(messages.map((m) => (m as { id: number }).id)).toEqual([2]);
  });

  it('refuses a request that reuses the id of one still in flight, and takes the id again once it is answered', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const transport = new StrictStdioTransport(input, output);
    const messages: JSONRPCMessage[] = [];
    transport.onmessage = (m) => messages.push(m);
    await transport.start();
    let written = '';
    output.on('data', (c: Buffer) => (written += c.toString()));
    const tick = () => new Promise((resolve) => setImmediate(resolve));
    input.write(`${call(1, { values: [5, 6, 7, 8] })}\n${call(1, { values: [1] })}\n${call(2, {})}\n`);
    await tick();
    expect(messages.map((m) => (m as { id: number }).id)).toEqual([1, 2]);
    // The first request's own arguments, not the second's.
    expect(transport.strictArguments(1)).toEqual({ found: true, value: { values: [5, 6, 7, 8] } });
    expect(JSON.parse(written.trim())).toMatchObject({ id: 1, error: { code: -32600 } });
    await transport.send({ jsonrpc: '2.0', id: 1, result: {} });
    input.write(`${call(1, { values: [9] })}\n`);
    await tick();
    expect(messages.map((m) => (m as { id: number }).id)).toEqual([1, 2, 1]);
    await transport.close();
  });
});
